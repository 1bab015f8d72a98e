import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { maskSecretsInConversation } from "../memory/secrets.js";
import { guestName, type SessionRecord } from "../sessions/session-record.js";
import { partsOf, type MessagePart } from "../lib/provenance.js";

/**
 * Plain text of the person's and the assistant's words (tool traffic left out), for summaries,
 * with secrets masked: the summary request need not carry them, and a summary cannot repeat them.
 * A part of a person's message that is not what they typed (the message they replied to, a file,
 * a link preview) is named as such from its stored origin, so a summary does not make it theirs.
 * `from`: the index in the record's messages of `messages[0]`.
 */
export function transcriptOf(
  messages: ChatCompletionMessageParam[],
  speakers: Pick<SessionRecord, "displayName" | "guests" | "parts">,
  maxChars = 24_000,
  from = 0,
): string {
  const guests = new Map((speakers.guests ?? []).map((g) => [guestName(g.userId), g.displayName]));
  const nameOf = (m: ChatCompletionMessageParam) => (m.role === "user" ? ((m.name && guests.get(m.name)) ?? speakers.displayName) : "Assistant");
  const spoken = messages.flatMap((m, i) => (m.role === "user" || m.role === "assistant" ? [{ m, index: from + i }] : []));
  // The end of a long conversation matters most for a summary: only the messages of the tail are
  // read (and masked), so a conversation of megabytes costs what its last 24,000 characters cost.
  let start = spoken.length;
  for (let chars = 0; start > 0 && chars <= maxChars; ) chars += textOf(spoken[--start]!.m).length + 2;
  const tail = spoken.slice(start);
  const all = tail.flatMap(({ m, index }) => {
    const parts: MessagePart[] = m.role === "user" ? partsOf(textOf(m), speakers.parts?.[String(index)]) : [{ origin: "assistant", text: textOf(m) }];
    return parts.map((part) => ({ speaker: m.role, name: nameOf(m), part, text: part.text }));
  });
  // The first message of the tail can be megabytes (a shared file): only its end is masked, the
  // part that can reach the transcript plus MASK_MARGIN, so a secret cut at the edge is still whole
  // wherever it reaches the kept text. Masking a whole 200,000-character message held the loop 300 ms.
  let room = maxChars + MASK_MARGIN;
  const pieces = all
    .reverse()
    .flatMap((piece) => {
      if (room <= 0) return [];
      const text = piece.text.length > room ? piece.text.slice(-room) : piece.text;
      room -= text.length;
      return [{ ...piece, text }];
    })
    .reverse();
  const texts = maskSecretsInConversation(pieces);
  const lines = pieces.flatMap(({ name, part }, i) => {
    const text = texts[i]!.trim();
    return text ? [`${name}${labelOf(part)}: ${text}`] : [];
  });
  const text = lines.join("\n\n");
  return text.length <= maxChars ? text : `…${text.slice(-maxChars)}`;
}

/** Longer than any secret's shape (a private key's body is about 3,300 characters). */
const MASK_MARGIN = 8_000;

/** What a part is when it is not the speaker's own words. */
function labelOf(part: MessagePart): string {
  switch (part.origin) {
    case "reply":
      return ` (quoting the message by ${part.author ?? "someone"} they replied to)`;
    case "forward":
      return " (forwarding someone else's message)";
    case "file":
      return ` (sharing the file ${part.name ?? ""})`.replace(" )", ")");
    case "preview":
      return " (a link preview)";
    case "image":
    case "sticker":
      return ` (${part.origin})`;
    default:
      return "";
  }
}

function textOf(message: ChatCompletionMessageParam): string {
  return typeof message.content === "string" ? message.content : "";
}
