/**
 * Whose words a piece of text is: the shared words of provenance (docs/design.md §9, "Whose
 * words"). A stored message keeps its parts with these origins as fields, never as marks in its
 * text, and everything that asks "whose words are these?" reads them.
 */

/**
 * - `typed`: what the speaker typed themselves (the owner, or a guest when `author` names one)
 * - `reply`, `forward`: the message they replied to or forwarded, by `author`
 * - `preview`: a link preview; `file`: a shared file's text (`name`); `image`: an image's placeholder;
 *   `sticker`: a sticker's name
 * - `assistant`: the assistant's words; `tool`: a tool's result
 * - `unknown`: a message stored before messages kept their parts (read as before, trusted as no one's)
 */
export const ORIGINS = ["typed", "reply", "forward", "preview", "file", "image", "sticker", "assistant", "tool", "unknown"] as const;
export type Origin = (typeof ORIGINS)[number];

export interface WordsFrom {
  origin: Origin;
  /** Who wrote them when it is not the owner: the replied-to or forwarded message's author, a guest (display name). */
  author?: string;
  /** A shared file's name. */
  name?: string;
}

/** Why a write waits for the person's Save although they did not ask to approve writes. */
export type HoldReason = "not-their-words" | "instruction";

export interface Held {
  why: HoldReason;
  /** Where the write's words came from, when one part of the conversation carries them. */
  from?: WordsFrom;
}

/** One part of a message with its origin: what a front end gives the engine. */
export interface MessagePart extends WordsFrom {
  text: string;
}

/** Where a part is in a stored message's text (UTF-16 offsets): the record keeps these, not a copy of the words. */
export interface PartSpan extends WordsFrom {
  start: number;
  end: number;
}

/** Parts are joined by a blank line: the text the model and the history get. */
export const PART_SEPARATOR = "\n\n";

/** A message's text from its parts (empty ones left out) and where each part is in it. */
export function joinParts(parts: readonly MessagePart[]): { text: string; spans: PartSpan[] } {
  let text = "";
  const spans: PartSpan[] = [];
  for (const { text: words, ...from } of parts) {
    if (words === "") continue;
    if (text !== "") text += PART_SEPARATOR;
    spans.push({ ...from, start: text.length, end: text.length + words.length });
    text += words;
  }
  return { text, spans };
}

/**
 * The parts of a stored message from its text and spans; one `unknown` part when the spans do not
 * describe this text (a message stored before parts were kept, or changed since: forgotten).
 */
export function partsOf(text: string, spans: readonly PartSpan[] | undefined): MessagePart[] {
  let at = 0;
  const parts: MessagePart[] = [];
  for (const { start, end, ...from } of spans ?? []) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end < start || end > text.length || !ORIGINS.includes(from.origin))
      return [{ origin: "unknown", text }];
    parts.push({ ...from, text: text.slice(start, end) });
    at = end;
  }
  return parts.length > 0 ? parts : [{ origin: "unknown", text }];
}
