import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { readTidyState, writeTidyState } from "./tidy/tidy-state.js";
import { TimeSlices } from "../lib/time-slices.js";
import { writeFileAtomic } from "./atomic-write.js";
import { dateOfConversation, parseConversation, renderConversation } from "./conversation-log.js";
import type { JournalEntry } from "./journal.js";
import { journalSeen, type FileWrite } from "./journalled-write.js";
import { readTextIfExistsSync } from "./memory-file.js";
import type { MemoryStore } from "./memory-store.js";
import { parseSections, serializeSections } from "./sections.js";
import { removeLeftoverTemporaryFiles } from "./temporary-files.js";
import { dateOfLog } from "../lib/time.js";
import { PRIVATE_SECTION_LABELS, WHOLE_FILE_LABELS } from "./file-kinds.js";
import { keyName, sectionKeysOf } from "./visibility.js";

/** What forgetting some words would remove, place by place. */
export interface ForgetPlan {
  words: string;
  /** Lines of SOUL/USER/MEMORY.md that mention the words. */
  memoryLines: number;
  /** Daily log entries (archive included). */
  logEntries: number;
  /** Messages of archived conversations. */
  messages: number;
  /** Entries of the history (journal) whose text mentions the words. */
  historyEntries: number;
  /** Private marks whose name mentions the words and whose section does not stay (`dropMarks`). */
  marks: number;
  /** Messages that keep their words but lose the owner's name (it mentions the words). */
  names: number;
  /** The private marks to take away. */
  dropMarks: string[];
  /** The first few things that would go, as text. */
  examples: string[];
  /** The new texts of memory files and logs, each with the text it was made from. */
  writes: FileWrite[];
  /** Conversation files to rewrite (and rename, when their title mentions the words), with the text they were read with. */
  conversations: { name: string; newName: string; text: string; from: string }[];
}

/** The name a conversation file gets when its title is forgotten: the slug goes, date and session stay. */
export function forgottenName(name: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})-.*-([a-z0-9]+)\.md$/.exec(name);
  return match ? `${match[1]}-forgotten-${match[2]}.md` : name;
}

const EXAMPLES = 3;

/** A matcher for the words: case and width folded (NFKC), anywhere in a text. */
export function mentions(words: string): (text: string) => boolean {
  const wanted = fold(words.trim());
  return (text) => wanted !== "" && fold(text).includes(wanted);
}

/** JSON's \uXXXX, as some model servers write every non-ASCII character of tool arguments. */
const ESCAPED = /\\u([0-9a-fA-F]{4})/g;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form two texts are compared in: escapes decoded, NFKC, full case folding (upper then lower:
 * STRASSE finds Straße, İSTANBUL istanbul), invisible characters (a soft hyphen, a zero-width
 * space) dropped and every run of blanks one space. Each step is one linear pass.
 */
function fold(text: string): string {
  return text
    .replace(ESCAPED, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .replace(/\u0307/g, "")
    .replace(IGNORABLE, "")
    .replace(/\s+/g, " ");
}

/** Memory lines that mention the words go; a section whose heading mentions them goes whole. */
function withoutMentions(text: string, hit: (text: string) => boolean, found: (line: string) => void): string {
  const doc = parseSections(text);
  const sections = doc.sections.flatMap((section) => {
    if (hit(section.heading)) {
      found(section.heading + section.body);
      return [];
    }
    const lines = section.body.split("\n");
    const kept = lines.filter((line) => {
      if (!hit(line)) return true;
      found(line);
      return false;
    });
    if (kept.length === lines.length) return [section];
    // A section whose every line went goes too (its heading alone would say nothing).
    return kept.join("\n").trim() === "" ? [] : [{ ...section, body: kept.join("\n") }];
  });
  const preamble = hit(doc.preamble) ? (found(doc.preamble), "") : doc.preamble;
  return serializeSections({ preamble, sections });
}

/**
 * Everything of a person that mentions the words, read now. Over a large home (thousands of
 * conversations, a long journal) it gives the event loop a turn every few milliseconds.
 */
async function makePlan(memory: MemoryStore, words: string, pace: () => Promise<void>, { history = true } = {}): Promise<ForgetPlan> {
  const hit = mentions(words);
  const plan: ForgetPlan = {
    words,
    memoryLines: 0,
    logEntries: 0,
    messages: 0,
    historyEntries: 0,
    marks: 0,
    names: 0,
    dropMarks: [],
    examples: [],
    writes: [],
    conversations: [],
  };
  const example = (text: string) => {
    if (plan.examples.length < EXAMPLES) plan.examples.push(text.trim().split("\n")[0]!.slice(0, 120));
  };
  for (const label of WHOLE_FILE_LABELS) {
    const text = readTextIfExistsSync(memory.pathOf(label));
    if (!text) continue;
    const cleaned = withoutMentions(text, hit, (line) => {
      plan.memoryLines++;
      example(line);
    });
    if (cleaned !== text) plan.writes.push({ label, text: cleaned, from: text });
  }
  for (const folder of ["daily", "daily/archive"]) {
    const names = await readdir(join(memory.dir, folder)).catch(() => [] as string[]);
    for (const name of names.filter((n) => dateOfLog(n)).sort()) {
      await pace();
      const label = `${folder}/${name}`;
      const text = readTextIfExistsSync(memory.pathOf(label)) ?? "";
      const doc = parseSections(text);
      const sections = doc.sections.filter((s) => {
        if (!hit(s.heading + s.body)) return true;
        plan.logEntries++;
        example(s.body);
        return false;
      });
      const preamble = hit(doc.preamble) ? "" : doc.preamble;
      if (sections.length !== doc.sections.length || preamble !== doc.preamble) {
        plan.writes.push({ label, text: serializeSections({ preamble, sections }), from: text });
      }
    }
  }
  const names = await readdir(memory.conversationsDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => dateOfConversation(n)).sort()) {
    await pace();
    const from = await readFile(join(memory.conversationsDir, name), "utf8").catch(() => undefined);
    if (from === undefined) continue;
    const log = parseConversation(from);
    const messages = log.messages.flatMap((m) => {
      // Their words go too: a guest's so named, and a message quoting, forwarding or sharing a file so named.
      if (hit(m.text) || (m.guest && hit(m.name)) || m.parts?.some((p) => hit(p.author ?? "") || hit(p.name ?? ""))) {
        plan.messages++;
        example(m.text);
        return [];
      }
      // The owner's name: the name goes, their words stay (they do not mention the words). The
      // assistant's is a fixed word, not anyone's.
      if (m.speaker === "person" && hit(m.name)) {
        plan.names++;
        return [{ ...m, name: "[forgotten]" }];
      }
      // A 💾 line can name a forgotten section.
      if (m.saved && hit(m.saved)) {
        const { saved: _saved, ...rest } = m;
        return [rest];
      }
      return [m];
    });
    const titled = hit(log.title) || hit(log.place) || hit(name);
    if (JSON.stringify(messages) === JSON.stringify(log.messages) && !titled) continue;
    const forgotten = (text: string) => (hit(text) ? "[forgotten]" : text);
    plan.conversations.push({
      name,
      newName: titled ? forgottenName(name) : name,
      text: renderConversation({ ...log, title: forgotten(log.title), place: forgotten(log.place), messages }),
      from,
    });
  }
  // A private mark is a section's name: one whose name mentions the words goes, and so does the
  // mark of a section that goes (its name may hold the words past a long key's cut), unless a
  // section that stays still has that name (the mark keeps it out of public places).
  const before = PRIVATE_SECTION_LABELS.map((label) => readTextIfExistsSync(memory.pathOf(label)) ?? "");
  const after = PRIVATE_SECTION_LABELS.map((label, i) => {
    const write = plan.writes.find((w) => w.label === label);
    return write ? (write.text ?? "") : before[i]!;
  });
  const staying = sectionKeysOf(after);
  const going = new Set([...sectionKeysOf(before)].filter((key) => !staying.has(key)));
  plan.dropMarks = (memory.readSettings().privateSections ?? []).filter((key) => !staying.has(key) && (hit(keyName(key)) || going.has(key)));
  plan.marks = plan.dropMarks.length;
  if (!history) return plan;
  for (const entry of await memory.journal.entries()) {
    await pace();
    if (forgottenEntry(entry, hit)) plan.historyEntries++;
  }
  return plan;
}

/** Everything of a person that mentions `words`: memory lines, log entries, conversation messages, history (the preview). */
export async function planForget(memory: MemoryStore, words: string): Promise<ForgetPlan> {
  return makePlan(memory, words, TimeSlices.pacer());
}

/** Lines of a text that mention the words, replaced: what history keeps of a forgotten change. */
export function scrub(text: string | null, hit: (text: string) => boolean): string | null {
  if (text === null) return null;
  return text
    .split("\n")
    .map((line) => (hit(line) ? "[forgotten]" : line))
    .join("\n");
}

/** A journal entry with what mentions the words replaced, or undefined when nothing does. */
function forgottenEntry(e: JournalEntry, hit: (text: string) => boolean): JournalEntry | undefined {
  // A removed section's neighbours (follows, precedes) are names of other sections: they may hold the words too.
  const named = (name: string | undefined) => name !== undefined && hit(name);
  const mentioned =
    (e.by.kind === "model" && hit(e.by.title ?? "")) ||
    e.changes.some((c) => hit(c.section) || hit(c.before ?? "") || hit(c.after ?? "") || named(c.follows) || named(c.precedes));
  if (!mentioned) return undefined;
  return {
    ...e,
    ...(e.by.kind === "model" && e.by.title && hit(e.by.title) ? { by: { ...e.by, title: "[forgotten]" } } : {}),
    forgotten: true,
    changes: e.changes.map((c) => ({
      ...c,
      section: hit(c.section) ? "[forgotten]" : c.section,
      ...(named(c.follows) ? { follows: "[forgotten]" } : {}),
      ...(named(c.precedes) ? { precedes: "[forgotten]" } : {}),
      before: scrub(c.before, hit),
      after: scrub(c.after, hit),
    })),
  };
}

/**
 * Under the person's lock (the caller holds it): finds again everything that mentions the words,
 * so nothing written since the preview is missed and nothing undone, and removes it: memory lines
 * and log entries (journalled as "forget", which cannot be undone), conversation messages (files
 * rewritten, renamed when their title mentions the words), history texts, waiting proposals and
 * pending confirmations; temporary files a crash left go too. Every write is made from the text
 * read here and abandoned if the file changed meanwhile. The recall index is the caller's to purge.
 */
export async function forgetUnderLock(memory: MemoryStore, words: string, now = new Date()): Promise<ForgetOutcome> {
  const hit = mentions(words);
  const pace = TimeSlices.pacer();
  // History is counted below, from the one read of the journal that finds what to rewrite.
  const plan = await makePlan(memory, words, pace, { history: false });
  const entry = plan.writes.length > 0 ? await memory.commit({ kind: "person" }, "forget", plan.writes, { now }) : undefined;
  for (const { name, newName, text, from } of plan.conversations) {
    await pace();
    await writeFileAtomic(join(memory.conversationsDir, newName), text, newName === name ? { expect: from } : {});
    if (newName !== name) await rm(join(memory.conversationsDir, name), { force: true });
  }
  // Worked out in slices, applied in one rewrite (the forget entry just written is among them).
  const edited = new Map<string, JournalEntry>();
  for (const e of await memory.journal.entries()) {
    await pace();
    const forgotten = forgottenEntry(e, hit);
    if (!forgotten) continue;
    edited.set(e.id, forgotten);
    if (e.id !== entry?.id) plan.historyEntries++;
  }
  if (edited.size > 0) await memory.journal.rewrite((e) => edited.get(e.id) ?? e);
  await journalSeen(memory.journal);
  // Waiting proposals and confirmations may hold the words too: they go.
  await memory.dropProposals((p) => hit(JSON.stringify(p)));
  await rm(join(memory.dir, "pending"), { recursive: true, force: true });
  if (plan.dropMarks.length > 0) {
    const marks = memory.readSettings().privateSections ?? [];
    await memory.saveSettings({ privateSections: marks.filter((key) => !plan.dropMarks.includes(key)) });
  }
  // So may the tidy-up's notice not shown yet (its example is a line of USER.md or MEMORY.md).
  const tidy = readTidyState(memory.dir);
  if (tidy.notice && hit(JSON.stringify(tidy.notice))) {
    const { notice: _dropped, ...rest } = tidy;
    await writeTidyState(memory.dir, rest);
  }
  await removeLeftoverTemporaryFiles(memory.dir);
  return { plan, entry, renamed: new Map(plan.conversations.filter((c) => c.newName !== c.name).map((c) => [c.name, c.newName])) };
}

export interface ForgetOutcome {
  /** What went, counted under the lock. */
  plan: ForgetPlan;
  entry: JournalEntry | undefined;
  /** Conversation files renamed because their title mentioned the words: old name → new name. */
  renamed: Map<string, string>;
}
