import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cutChars } from "../../lib/text.js";
import { dateOfLog } from "../../lib/time.js";
import { dateOfConversation, parseConversation } from "../conversation-log.js";
import type { JournalEntry } from "../journal.js";
import type { MemoryStore } from "../memory-store.js";
import { stripControlCharacters } from "../safety.js";
import { maskSecrets } from "../secrets.js";
import { TimeSlices } from "../../lib/time-slices.js";

/** What a tidy-up reads besides the memory files, newest first, within fixed budgets. */
export interface TidySources {
  /** Conversations as "[file] Person: …" lines, daily logs and the journal's changes, each a block of text. */
  conversations: string;
  dailies: string;
  changes: string;
  /** The person's own messages among the conversations given (whole, masked): the quote check looks here. */
  personMessages: string[];
  /** How many conversation and log files were read (0 and 0: nothing happened since the last run). */
  files: number;
}

/** Characters of each kind of source in one request: about 8,000 tokens in all. */
const SOURCE_BUDGET = { conversations: 20_000, dailies: 6_000, changes: 3_000 } as const;
const MESSAGE_CHARS = 1_000;
/** Read at most this many files of each kind (the newest): a year of logs is not read for one night. */
const MAX_FILES = 40;

/**
 * The conversations and daily logs dated on or after `since` (local dates), and the journal's
 * changes after `changedAfter`, newest first until each budget is spent. Secrets are masked and
 * invisible characters dropped: this text goes to the model.
 */
export async function tidySources(memory: MemoryStore, since: string, changedAfter: string | undefined, entries: readonly JournalEntry[]): Promise<TidySources> {
  const personMessages: string[] = [];
  const clean = (text: string) => maskSecrets(stripControlCharacters(text));
  // Masking secrets is the costly part, and a night's runs share the loop with everyone's turns.
  const slices = new TimeSlices(4);
  let files = 0;

  const conversationNames = (await readdir(memory.conversationsDir).catch(() => [] as string[]))
    .filter((name) => (dateOfConversation(name) ?? "") >= since)
    .sort()
    .reverse()
    .slice(0, MAX_FILES);
  const conversationBlocks: string[] = [];
  let left: number = SOURCE_BUDGET.conversations;
  for (const name of conversationNames) {
    if (left <= 0) break;
    const text = await readFile(join(memory.conversationsDir, name), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    files++;
    const log = parseConversation(text);
    const lines: string[] = [`### conversations/${name} (${clean(log.title)})`];
    for (const message of log.messages) {
      const body = clean(message.text);
      const line = `${message.speaker === "person" ? "Person" : "Assistant"}: ${cutChars(body, MESSAGE_CHARS)}`;
      if (left - line.length < 0) break;
      left -= line.length;
      lines.push(line);
      if (message.speaker === "person") personMessages.push(body);
      await slices.pause();
    }
    conversationBlocks.push(lines.join("\n"));
  }

  const logs: { label: string; date: string }[] = [];
  for (const folder of ["daily", "daily/archive"]) {
    for (const name of await readdir(join(memory.dir, folder)).catch(() => [] as string[])) {
      const date = dateOfLog(name);
      if (date !== undefined && date >= since) logs.push({ label: `${folder}/${name}`, date });
    }
  }
  logs.sort((a, b) => b.date.localeCompare(a.date) || a.label.localeCompare(b.label));
  const seen = new Set<string>();
  const dailyBlocks: string[] = [];
  let dailyLeft: number = SOURCE_BUDGET.dailies;
  for (const { label, date } of logs.slice(0, MAX_FILES)) {
    // A day's log and its archive hold the same entries: the first read is enough.
    if (seen.has(date) || dailyLeft <= 0) continue;
    seen.add(date);
    const text = await readFile(join(memory.dir, label), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    files++;
    const block = `### daily/${date}.md\n${cutChars(clean(text).trim(), dailyLeft)}`;
    await slices.pause();
    dailyLeft -= block.length;
    dailyBlocks.push(block);
  }

  const changeLines: string[] = [];
  let changesLeft: number = SOURCE_BUDGET.changes;
  for (const entry of [...entries].reverse()) {
    if (changedAfter !== undefined && entry.at <= changedAfter) break;
    for (const change of entry.changes) {
      if (change.file !== "USER.md" && change.file !== "MEMORY.md") continue;
      const line = `${entry.at.slice(0, 10)} ${entry.op} by ${entry.by.kind} · ${change.file} › ${change.section}: ${oneLine(change.before)} → ${oneLine(change.after)}`;
      if (changesLeft - line.length < 0) break;
      changesLeft -= line.length;
      changeLines.push(clean(line));
    }
  }

  return { conversations: conversationBlocks.join("\n\n"), dailies: dailyBlocks.join("\n\n"), changes: changeLines.join("\n"), personMessages, files };
}

function oneLine(text: string | null): string {
  return text === null ? "(none)" : cutChars(text.replace(/\s+/g, " ").trim(), 160);
}
