import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { cutChars } from "../../lib/text.js";
import { dateOfLog } from "../../lib/time.js";
import { dateOfConversation, parseConversation } from "../conversation-log.js";
import type { JournalEntry } from "../journal.js";
import type { MemoryStore } from "../memory-store.js";
import { stripControlCharacters } from "../safety.js";
import type { MessagePart, WordsFrom } from "../../lib/provenance.js";
import { maskSecrets } from "../secrets.js";
import { TimeSlices } from "../../lib/time-slices.js";
import { estimateTokens, keepStart } from "../../lib/tokens.js";

/** What a tidy-up reads besides the memory files, newest first, within fixed budgets. */
export interface TidySources {
  /** Conversations as "[file] Person: …" lines, daily logs and the journal's changes, each a block of text. */
  conversations: string;
  dailies: string;
  changes: string;
  /** What the person typed themselves among the conversations given (masked): the quote check looks here. */
  personMessages: string[];
  /** Everything else given, with whose words it is: where a held change's words came from. */
  otherSources: { from: WordsFrom; text: string }[];
  /** How many conversation and log files were read (0 and 0: nothing happened since the last run). */
  files: number;
}

/** Estimated tokens of each kind of source in one request, when the model's context allows: about 8,300 in all. */
const SOURCE_TOKENS = { conversations: 5_700, dailies: 1_700, changes: 850 } as const;
/** The sources' full budget, which a smaller context (OPENAI_CONTEXT_TOKENS) scales down. */
export const FULL_SOURCE_TOKENS = SOURCE_TOKENS.conversations + SOURCE_TOKENS.dailies + SOURCE_TOKENS.changes;
const MESSAGE_CHARS = 1_000;
const MAX_CONVERSATION_BYTES = 2 * 1024 * 1024;
/** Read at most this many files of each kind (the newest): a year of logs is not read for one night. */
const MAX_FILES = 40;

/**
 * The conversations and daily logs dated on or after `since` (local dates), and the journal's
 * changes after `changedAfter`, newest first until each budget is spent (`tokens` in all, at most
 * FULL_SOURCE_TOKENS). Secrets are masked and
 * invisible characters dropped: this text goes to the model.
 */
export async function tidySources(
  memory: MemoryStore,
  since: string,
  changedAfter: string | undefined,
  entries: readonly JournalEntry[],
  tokens: number = FULL_SOURCE_TOKENS,
): Promise<TidySources> {
  const personMessages: string[] = [];
  const otherSources: { from: WordsFrom; text: string }[] = [];
  const clean = (text: string) => maskSecrets(stripControlCharacters(text));
  // Masking secrets is the costly part, and a night's runs share the loop with everyone's turns.
  const slices = new TimeSlices(4);
  let files = 0;

  // Named by the day they opened: one opened before the last run and talked in after it counts by its change time.
  const recent = (await readdir(memory.conversationsDir).catch(() => [] as string[]))
    .filter((name) => dateOfConversation(name) !== undefined)
    .sort()
    .reverse()
    .slice(0, MAX_FILES * 3);
  const changed = await Promise.all(
    recent.map(
      async (name) =>
        (dateOfConversation(name) ?? "") >= since ||
        (changedAfter !== undefined && ((await stat(join(memory.conversationsDir, name)).catch(() => undefined))?.mtimeMs ?? 0) > Date.parse(changedAfter)),
    ),
  );
  const conversationNames = recent.filter((_, i) => changed[i]).slice(0, MAX_FILES);
  const conversationBlocks: string[] = [];
  const share = Math.min(1, Math.max(0, tokens) / FULL_SOURCE_TOKENS);
  let left: number = Math.floor(SOURCE_TOKENS.conversations * share);
  for (const name of conversationNames) {
    if (left <= 0) break;
    // A conversation of long pastes is megabytes; a night reads the ordinary ones.
    const size = (await stat(join(memory.conversationsDir, name)).catch(() => undefined))?.size ?? 0;
    if (size > MAX_CONVERSATION_BYTES) continue;
    const text = await readFile(join(memory.conversationsDir, name), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    files++;
    const log = parseConversation(text);
    const lines: string[] = [`### conversations/${name} (${clean(log.title)})`];
    for (const message of log.messages) {
      // Whose words each part is comes from the file's fields (lib/provenance.ts), never from the text.
      const parts =
        message.speaker === "assistant"
          ? [{ origin: "assistant" as const, text: message.text }]
          : (message.parts ?? [{ origin: "unknown" as const, text: message.text }]);
      const speaker = message.guest ? `Guest ${JSON.stringify(message.name)} (not the person)` : message.speaker === "person" ? "Person" : "Assistant";
      let stop = false;
      for (const part of parts) {
        const body = cutChars(clean(part.text), MESSAGE_CHARS);
        const line = `${speaker}${partLabel(part)}: ${body}`;
        const cost = estimateTokens(line);
        if (left - cost < 0) {
          stop = true;
          break;
        }
        left -= cost;
        lines.push(line);
        // Only what the person typed themselves: a quote for a new USER.md fact must come from here.
        if (message.speaker === "person" && !message.guest && part.origin === "typed") personMessages.push(body);
        else otherSources.push({ from: fromOf(part, message.guest ? message.name : undefined), text: body });
      }
      await slices.pause();
      if (stop) break;
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
  let dailyLeft: number = Math.floor(SOURCE_TOKENS.dailies * share);
  for (const { label, date } of logs.slice(0, MAX_FILES)) {
    // A day's log and its archive hold the same entries: the first read is enough.
    if (seen.has(date) || dailyLeft <= 0) continue;
    seen.add(date);
    const text = await readFile(join(memory.dir, label), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    files++;
    const block = `### daily/${date}.md\n${keepStart(clean(text).trim(), dailyLeft)}`;
    await slices.pause();
    dailyLeft -= estimateTokens(block);
    dailyBlocks.push(block);
  }

  const changeLines: string[] = [];
  let changesLeft: number = Math.floor(SOURCE_TOKENS.changes * share);
  for (const entry of [...entries].reverse()) {
    if (changedAfter !== undefined && entry.at <= changedAfter) break;
    for (const change of entry.changes) {
      if (change.file !== "USER.md" && change.file !== "MEMORY.md") continue;
      const line = `${entry.at.slice(0, 10)} ${entry.op} by ${entry.by.kind} · ${change.file} › ${change.section}: ${oneLine(change.before)} → ${oneLine(change.after)}`;
      const cost = estimateTokens(line);
      if (changesLeft - cost < 0) break;
      changesLeft -= cost;
      changeLines.push(clean(line));
    }
  }

  return {
    conversations: conversationBlocks.join("\n\n"),
    dailies: dailyBlocks.join("\n\n"),
    changes: changeLines.join("\n"),
    personMessages,
    otherSources,
    files,
  };
}

/** How a part that is not simply what the speaker typed is shown to the model. */
function partLabel(part: MessagePart): string {
  switch (part.origin) {
    case "typed":
    case "assistant":
      return "";
    case "reply":
      return ` (the message by ${JSON.stringify(part.author ?? "someone")} they replied to, not their words)`;
    case "forward":
      return " (a message they forwarded, not their words)";
    case "file":
      return ` (the file ${JSON.stringify(part.name ?? "")} they shared, not their words)`;
    case "unknown":
      return " (an older message: whose words each part is was not kept)";
    default:
      return ` (${part.origin}, not their words)`;
  }
}

function fromOf(part: MessagePart, guest: string | undefined): WordsFrom {
  const { text: _text, ...from } = part;
  return part.origin === "typed" && guest !== undefined ? { ...from, author: guest } : from;
}

function oneLine(text: string | null): string {
  return text === null ? "(none)" : cutChars(text.replace(/\s+/g, " ").trim(), 160);
}
