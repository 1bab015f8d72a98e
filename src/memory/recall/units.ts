import { parseConversation, type Speaker } from "../conversation-log.js";
import { maskSecrets, maskSecretsInConversationSliced } from "../secrets.js";
import { parseSections } from "../sections.js";
import { cutChars } from "../../lib/text.js";
import type { FileKind } from "../file-kinds.js";

export type RecallSource = "conversation" | FileKind;

/** What the index holds one row of: a message with its neighbours, or a section of a file. */
export interface Unit {
  source: RecallSource;
  /** Local date, YYYY-MM-DD. */
  date: string;
  /** The conversation's title, or the section's name. */
  title: string;
  text: string;
  /** Indexed with a lower weight: the messages before and after, so a reply is found by its question. */
  context: string;
  /** Position in the file (message or section number). */
  ord: number;
  speaker?: Speaker;
  /** Who spoke, for conversation messages. */
  name?: string;
  /**
   * Where a public place may find it: a message of a conversation held in a public thread, in that
   * thread's server (its id); any section of a memory file anywhere ("*": the private ones are
   * left out at search time, the person marks them in settings, not in the file). Undefined: no
   * public place (private talk, and the daily logs, whose public entries public-entries.ts scopes
   * for the prompt only; the conversations they sum up are found themselves).
   */
  sharedIn?: string;
}

/** Each neighbour contributes at most this much context. */
const NEIGHBOUR_CHARS = 400;

/**
 * One unit per message; the context of a message is the one before and the one after it. Units
 * hold text with secrets masked, so the index (and the embeddings server) never sees one, even
 * from a file written before secrets were masked or put in by hand.
 */
export async function unitsOfConversation(text: string, date: string, pause: () => Promise<void> = async () => {}): Promise<Unit[]> {
  const log = parseConversation(text);
  // A conversation file can be megabytes (files shared in it): masked a pair of messages at a time.
  const texts = await maskSecretsInConversationSliced(log.messages, pause);
  const title = maskSecrets(log.title);
  const sharedIn = log.visibility === "public" && log.discord && log.discord !== "@me" ? log.discord : undefined;
  return log.messages.flatMap((message, ord) => {
    const before = texts[ord - 1] ?? "";
    const after = texts[ord + 1] ?? "";
    const context = `${cutChars(before, NEIGHBOUR_CHARS)}\n${cutChars(after, NEIGHBOUR_CHARS)}`.trim();
    return partsOf(texts[ord]!).map(
      (text): Unit => ({
        source: "conversation",
        date,
        title,
        text,
        context,
        ord,
        speaker: message.speaker,
        name: message.name,
        ...(sharedIn ? { sharedIn } : {}),
      }),
    );
  });
}

/** A message longer than this (a pasted log, an imported conversation) is indexed as several units. */
const PART_CHARS = 4_000;

/**
 * A long message in parts of at most PART_CHARS characters, cut after a line feed or a space where
 * one is near: tokenising 800,000 characters at once held the event loop for most of a second,
 * a part takes a few milliseconds and the index yields between them.
 */
function partsOf(text: string): string[] {
  if (text.length <= PART_CHARS) return [text];
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PART_CHARS);
    if (end < text.length) {
      const line = text.lastIndexOf("\n", end);
      const space = text.lastIndexOf(" ", end);
      const at = line > start + PART_CHARS / 2 ? line : space > start + PART_CHARS / 2 ? space : -1;
      if (at > start) end = at + 1;
      // Never between the two halves of a surrogate pair.
      else if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
    }
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/** One unit per `## Section` (and one for a preamble with text): daily logs and the memory files. */
export function unitsOfSections(text: string, source: RecallSource, date: string): Unit[] {
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const parts = [{ name: "", body: doc.preamble }, ...doc.sections.map((s) => ({ name: s.name, body: s.body }))];
  // A section of an imported or hand-edited archive can be a megabyte: indexed in parts, like a long message.
  return parts.flatMap((part, ord) => {
    const title = maskSecrets(part.name);
    const text = maskSecrets(part.body.trim());
    if (text === "" && title === "") return [];
    return partsOf(text).map((piece): Unit => ({ source, date, title, text: piece, context: "", ord, ...(source === "daily" ? {} : { sharedIn: "*" }) }));
  });
}
