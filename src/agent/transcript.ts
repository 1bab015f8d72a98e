import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";

/** Plain text of the person's and the assistant's words (tool traffic left out), for summaries. */
export function transcriptOf(messages: ChatCompletionMessageParam[], displayName: string, maxChars = 24_000): string {
  const lines = messages.flatMap((m) => {
    if (m.role !== "user" && m.role !== "assistant") return [];
    const text = typeof m.content === "string" ? m.content : "";
    return text.trim() ? [`${m.role === "user" ? displayName : "Assistant"}: ${text.trim()}`] : [];
  });
  const text = lines.join("\n\n");
  // The end of a long conversation matters most for a summary; keep the tail.
  return text.length <= maxChars ? text : `…${text.slice(-maxChars)}`;
}
