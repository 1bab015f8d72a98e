import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { maskSecretsInConversation } from "../memory/secrets.js";

/**
 * Plain text of the person's and the assistant's words (tool traffic left out), for summaries,
 * with secrets masked: the summary request need not carry them, and a summary cannot repeat them.
 */
export function transcriptOf(messages: ChatCompletionMessageParam[], displayName: string, maxChars = 24_000): string {
  const spoken = messages.filter((m) => m.role === "user" || m.role === "assistant");
  const texts = maskSecretsInConversation(spoken.map((m) => ({ speaker: m.role, text: typeof m.content === "string" ? m.content : "" })));
  const lines = spoken.flatMap((m, i) => {
    const text = texts[i]!;
    return text.trim() ? [`${m.role === "user" ? displayName : "Assistant"}: ${text.trim()}`] : [];
  });
  const text = lines.join("\n\n");
  // The end of a long conversation matters most for a summary; keep the tail.
  return text.length <= maxChars ? text : `…${text.slice(-maxChars)}`;
}
