import { parseConversation, type Speaker } from "../conversation-log.js";
import { maskSecrets, maskSecretsInConversation } from "../secrets.js";
import { cutChars, parseSections } from "../sections.js";

export type RecallSource = "conversation" | "daily" | "user" | "memory" | "soul";

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
}

/** Each neighbour contributes at most this much context. */
const NEIGHBOUR_CHARS = 400;


/**
 * One unit per message; the context of a message is the one before and the one after it. Units
 * hold text with secrets masked, so the index (and the embeddings server) never sees one, even
 * from a file written before secrets were masked or put in by hand.
 */
export function unitsOfConversation(text: string, date: string): Unit[] {
  const log = parseConversation(text);
  const texts = maskSecretsInConversation(log.messages);
  const title = maskSecrets(log.title);
  return log.messages.map((message, ord) => {
    const before = texts[ord - 1] ?? "";
    const after = texts[ord + 1] ?? "";
    return {
      source: "conversation",
      date,
      title,
      text: texts[ord]!,
      context: `${cutChars(before, NEIGHBOUR_CHARS)}\n${cutChars(after, NEIGHBOUR_CHARS)}`.trim(),
      ord,
      speaker: message.speaker,
      name: message.name,
    };
  });
}

/** One unit per `## Section` (and one for a preamble with text): daily logs and the memory files. */
export function unitsOfSections(text: string, source: RecallSource, date: string): Unit[] {
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const parts = [{ name: "", body: doc.preamble }, ...doc.sections.map((s) => ({ name: s.name, body: s.body }))];
  return parts
    .map((part, ord) => ({ source, date, title: maskSecrets(part.name), text: maskSecrets(part.body.trim()), context: "", ord }))
    .filter((unit) => unit.text !== "" || unit.title !== "");
}
