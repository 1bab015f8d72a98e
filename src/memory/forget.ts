import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { dateOfConversation, parseConversation, renderConversation } from "./conversation-log.js";
import type { JournalEntry } from "./journal.js";
import type { FileWrite } from "./journalled-write.js";
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

/** Everything of a person that mentions `words`: memory lines, log entries, conversation messages. */
export async function planForget(memory: MemoryStore, words: string): Promise<ForgetPlan> {
  const hit = mentions(words);
  const plan: ForgetPlan = { words, memoryLines: 0, logEntries: 0, messages: 0, examples: [], writes: [], conversations: [] };
  const example = (text: string) => {
    if (plan.examples.length < EXAMPLES) plan.examples.push(text.trim().split("\n")[0]!.slice(0, 120));
  };
  for (const label of ["SOUL.md", "USER.md", "MEMORY.md"]) {
    const text = readTextIfExistsSync(memory.pathOf(label));
    if (!text) continue;
    const kept = text.split("\n").filter((line) => {
      if (!hit(line) || /^## /.test(line)) return true;
      plan.memoryLines++;
      example(line);
      return false;
    });
    // A section whose every line went goes too (its heading alone would say nothing).
    const hadText = new Set(parseSections(text).sections.filter((s) => s.body.trim() !== "").map((s) => s.name));
    const doc = parseSections(kept.join("\n"));
    const cleaned = serializeSections({ ...doc, sections: doc.sections.filter((s) => s.body.trim() !== "" || !hadText.has(s.name)) });
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
      if (sections.length !== doc.sections.length) plan.writes.push({ label, text: serializeSections({ ...doc, sections }) });
    }
  }
  const names = await readdir(memory.conversationsDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => dateOfConversation(n)).sort()) {
    const log = parseConversation(await readFile(join(memory.conversationsDir, name), "utf8"));
    const messages = log.messages.filter((m) => {
      if (!hit(m.text)) return true;
      plan.messages++;
      example(m.text);
      return false;
    });
    const titled = hit(log.title) || hit(log.place) || hit(name);
    if (messages.length === log.messages.length && !titled) continue;
    const forgotten = (text: string) => (hit(text) ? "[forgotten]" : text);
    plan.conversations.push({
      name,
      newName: titled ? forgottenName(name) : name,
      text: renderConversation({ ...log, title: forgotten(log.title), place: forgotten(log.place), messages }),
    });
  }
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
export async function forget(memory: MemoryStore, plan: ForgetPlan, now = new Date()): Promise<JournalEntry | undefined> {
  const hit = mentions(plan.words);
  const entry = await memory.serialize(async () => {
    const entry = plan.writes.length > 0 ? await memory.commit({ kind: "person" }, "forget", plan.writes, { now }) : undefined;
    for (const { name, newName, text } of plan.conversations) {
      await writeFileAtomic(join(memory.conversationsDir, newName), text);
      if (newName !== name) await rm(join(memory.conversationsDir, name), { force: true });
    }
    await memory.journal.rewrite((e) => ({
      ...e,
      ...(e.by.kind === "model" && e.by.title && hit(e.by.title) ? { by: { ...e.by, title: "[forgotten]" } } : {}),
      changes: e.changes.map((c) => ({
        ...c,
        section: hit(c.section) ? "[forgotten]" : c.section,
        before: scrub(c.before, hit),
        after: scrub(c.after, hit),
      })),
    }));
    return entry;
  });
  // The index drops the forgotten rows now (secure_delete overwrites them; a checkpoint empties the log).
  await memory.updateIndex({ purge: true }).catch(() => {});
  return entry;
}
