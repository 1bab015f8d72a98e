import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { maskSecretsInConversation } from "../memory/secrets.js";
import { guestName, type SessionRecord } from "../sessions/session-record.js";

/**
 * Plain text of the person's and the assistant's words (tool traffic left out), for summaries,
 * with secrets masked: the summary request need not carry them, and a summary cannot repeat them.
 */
export function transcriptOf(messages: ChatCompletionMessageParam[], speakers: Pick<SessionRecord, "displayName" | "guests">, maxChars = 24_000): string {
  const guests = new Map((speakers.guests ?? []).map((g) => [guestName(g.userId), g.displayName]));
  const nameOf = (m: ChatCompletionMessageParam) => (m.role === "user" ? ((m.name && guests.get(m.name)) ?? speakers.displayName) : "Assistant");
  const spoken = messages.filter((m) => m.role === "user" || m.role === "assistant");
  // The end of a long conversation matters most for a summary: only the messages of the tail are
  // read (and masked), so a conversation of megabytes costs what its last 24,000 characters cost.
  let from = spoken.length;
  for (let chars = 0; from > 0 && chars <= maxChars; ) chars += textOf(spoken[--from]!).length + 2;
  const tail = spoken.slice(from);
  const texts = maskSecretsInConversation(tail.map((m) => ({ speaker: m.role, text: textOf(m) })));
  const lines = tail.flatMap((m, i) => {
    const text = texts[i]!.trim();
    return text ? [`${nameOf(m)}: ${text}`] : [];
  });
  const text = lines.join("\n\n");
  return text.length <= maxChars ? text : `…${text.slice(-maxChars)}`;
}

function textOf(message: ChatCompletionMessageParam): string {
  return typeof message.content === "string" ? message.content : "";
}
