import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { dateOfConversation, parseConversation, renderConversation } from "./conversation-log.js";
import type { JournalEntry } from "./journal.js";
import { journalSeen, type FileWrite } from "./journalled-write.js";
import { readTextIfExistsSync } from "./memory-file.js";
import type { MemoryStore } from "./memory-store.js";
import { parseSections, serializeSections } from "./sections.js";
import { dateOfLog } from "./time.js";

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
  /** The first few things that would go, as text. */
  examples: string[];
  /** The new texts, applied by `forget`. */
  writes: FileWrite[];
  /** Conversation files to rewrite (and rename, when their title mentions the words). */
  conversations: { name: string; newName: string; text: string }[];
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

function fold(text: string): string {
  return text.normalize("NFKC").toLowerCase();
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

/** The new texts of the memory files and logs, found now (planned again under the lock to apply). */
async function planFiles(memory: MemoryStore, hit: (text: string) => boolean, plan: ForgetPlan): Promise<void> {
  plan.writes = [];
  const example = (text: string) => {
    if (plan.examples.length < EXAMPLES) plan.examples.push(text.trim().split("\n")[0]!.slice(0, 120));
  };
  for (const label of ["SOUL.md", "USER.md", "MEMORY.md"]) {
    const text = readTextIfExistsSync(memory.pathOf(label));
    if (!text) continue;
    const cleaned = withoutMentions(text, hit, (line) => {
      plan.memoryLines++;
      example(line);
    });
    if (cleaned !== text) plan.writes.push({ label, text: cleaned });
  }
  for (const folder of ["daily", "daily/archive"]) {
    const names = await readdir(join(memory.dir, folder)).catch(() => [] as string[]);
    for (const name of names.filter((n) => dateOfLog(n)).sort()) {
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
      if (sections.length !== doc.sections.length || preamble !== doc.preamble) plan.writes.push({ label, text: serializeSections({ preamble, sections }) });
    }
  }
}

/** Everything of a person that mentions `words`: memory lines, log entries, conversation messages, history. */
export async function planForget(memory: MemoryStore, words: string): Promise<ForgetPlan> {
  const hit = mentions(words);
  const plan: ForgetPlan = { words, memoryLines: 0, logEntries: 0, messages: 0, historyEntries: 0, examples: [], writes: [], conversations: [] };
  await planFiles(memory, hit, plan);
  const names = await readdir(memory.conversationsDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => dateOfConversation(n)).sort()) {
    const log = parseConversation(await readFile(join(memory.conversationsDir, name), "utf8"));
    const messages = log.messages.flatMap((m) => {
      if (hit(m.text)) {
        plan.messages++;
        if (plan.examples.length < EXAMPLES) plan.examples.push(m.text.trim().split("\n")[0]!.slice(0, 120));
        return [];
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
    });
  }
  plan.historyEntries = (await memory.journal.entries()).filter((e) => hit(JSON.stringify(e))).length;
  return plan;
}

/** Lines of a text that mention the words, replaced: what history keeps of a forgotten change. */
export function scrub(text: string | null, hit: (text: string) => boolean): string | null {
  if (text === null) return null;
  return text
    .split("\n")
    .map((line) => (hit(line) ? "[forgotten]" : line))
    .join("\n");
}

/**
 * Removes what the plan found, journalled (as "forget", which cannot be undone), then takes the
 * words out of the whole history too. Conversation files are rewritten. The recall index follows
 * the files (its deleted rows are overwritten). Returns the journal entry, if memory changed.
 */
export async function forget(memory: MemoryStore, plan: ForgetPlan, now = new Date()): Promise<ForgetOutcome> {
  const hit = mentions(plan.words);
  const entry = await memory.serialize(async () => {
    // Planned again under the lock: a write made since the preview is neither lost nor undone.
    const fresh: ForgetPlan = { ...plan, memoryLines: 0, logEntries: 0, examples: [], writes: [] };
    await planFiles(memory, hit, fresh);
    const entry = fresh.writes.length > 0 ? await memory.commit({ kind: "person" }, "forget", fresh.writes, { now }) : undefined;
    for (const { name, newName, text } of plan.conversations) {
      await writeFileAtomic(join(memory.conversationsDir, newName), text);
      if (newName !== name) await rm(join(memory.conversationsDir, name), { force: true });
    }
    await memory.journal.rewrite((e) => {
      const mentioned = (e.by.kind === "model" && hit(e.by.title ?? "")) || e.changes.some((c) => hit(c.section) || hit(c.before ?? "") || hit(c.after ?? ""));
      if (!mentioned) return e;
      return {
        ...e,
        ...(e.by.kind === "model" && e.by.title && hit(e.by.title) ? { by: { ...e.by, title: "[forgotten]" } } : {}),
        forgotten: true,
        changes: e.changes.map((c) => ({ ...c, section: hit(c.section) ? "[forgotten]" : c.section, before: scrub(c.before, hit), after: scrub(c.after, hit) })),
      };
    });
    await journalSeen(memory.journal);
    // Waiting proposals and confirmations may hold the words too: they go.
    await memory.dropProposals((p) => hit(JSON.stringify(p)));
    await rm(join(memory.dir, "pending"), { recursive: true, force: true });
    return entry;
  });
  // The index drops the forgotten rows now (secure_delete overwrites them; a checkpoint empties the log).
  const indexPurged = await memory.updateIndex({ purge: true }).then(
    () => true,
    () => false,
  );
  return { entry, indexPurged, renamed: new Map(plan.conversations.filter((c) => c.newName !== c.name).map((c) => [c.name, c.newName])) };
}

export interface ForgetOutcome {
  entry: JournalEntry | undefined;
  /** False when the search index could not be purged now (it follows the files at the next search). */
  indexPurged: boolean;
  /** Conversation files renamed because their title mentioned the words: old name → new name. */
  renamed: Map<string, string>;
}
