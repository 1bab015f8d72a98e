import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SourceRef } from "./changes.js";
import { parseConversation } from "./conversation-log.js";
import type { MemoryStore } from "./memory-store.js";
import { parseSections } from "./sections.js";
import { WHOLE_FILE_LABELS } from "./file-kinds.js";

/** A file bigger than this (a conversation of long pastes) is not parsed on an answer's path: no link, no text. */
const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

async function readSource(memory: MemoryStore, ref: SourceRef): Promise<string | undefined> {
  if (!(SOURCE_FILE.test(ref.file) || WHOLE_FILE_LABELS.includes(ref.file)) || ref.file.includes("..")) return undefined;
  const path = join(memory.dir, ref.file);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_SOURCE_BYTES) return undefined;
  return readFile(path, "utf8").catch(() => undefined);
}

/** Where a source's files may be: nothing outside the person's conversations, logs and memory files. */
const SOURCE_FILE = /^(conversations\/\d{4}-\d{2}-\d{2}-[^/\\]+\.md|daily\/(archive\/)?\d{4}-\d{2}-\d{2}\.md)$/;

/**
 * The text a source points at, read now from the person's files: the message of a conversation,
 * or the section of a log or memory file. Undefined when it is no longer there (forgotten,
 * undone, edited away) or when the reference does not name one of the person's files.
 */
export async function sourceText(memory: MemoryStore, ref: SourceRef): Promise<string | undefined> {
  const text = await readSource(memory, ref);
  if (text === undefined) return undefined;
  if (ref.source === "conversation") return parseConversation(text).messages[ref.ord]?.text;
  const section = parseSections(text.replace(/\r\n/g, "\n")).sections.find((s) => s.name === ref.title);
  return section?.body.trim();
}

/**
 * Where in Discord a conversation source was said: the server ("@me" for a DM) and the person's
 * message as "<channel id>/<message id>" (the message itself, or for an answer the person's
 * message before it). Undefined for a conversation held elsewhere (the terminal) or archived without ids.
 */
export async function sourceMessage(memory: MemoryStore, ref: SourceRef): Promise<{ place: string; id: string } | undefined> {
  if (ref.source !== "conversation") return undefined;
  const text = await readSource(memory, ref);
  if (text === undefined) return undefined;
  const log = parseConversation(text);
  if (!log.discord) return undefined;
  for (let ord = Math.min(ref.ord, log.messages.length - 1); ord >= 0; ord--) {
    const id = log.messages[ord]?.id;
    if (id) return { place: log.discord, id };
  }
  return undefined;
}
