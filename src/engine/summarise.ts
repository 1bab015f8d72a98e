import { maskSecrets } from "../memory/secrets.js";
import type { ModelClient } from "../model/model-client.js";
import type { SessionRecord } from "../sessions/session-record.js";
import { transcriptOf } from "./transcript.js";
import { keepEnd } from "../lib/tokens.js";
import { roomFor } from "./context-budget.js";

/** A few sentences for the daily log of `today` (the person's date), in their language, other days as dates; asked without tools. */
export async function summariseConversation(model: ModelClient, record: SessionRecord, today: string, contextTokens: number): Promise<string> {
  const earlier = record.condensed ? `Earlier part (already summarised): ${maskSecrets(record.condensed.summary)}\n\n` : "";
  const system = `You write entries for a personal daily log. Summarise the conversation below in 2 to 4 short sentences: what was discussed, decided or learned about the person. Write in the language the person used. Plain text, no heading, under 500 characters. Today is ${today}: write any other day mentioned as a date (e.g. "2026-12-10"), never as "tomorrow", "next week" or "下周".`;
  // The end of the conversation, within what the model's context leaves (OPENAI_CONTEXT_TOKENS).
  const transcript = keepEnd(transcriptOf(record.messages, record), roomFor(contextTokens, system + earlier));
  const { content: summary } = await model.complete([
    { role: "system", content: system },
    { role: "user", content: `${earlier}${transcript}` },
  ]);
  // The transcript it saw was masked; a summary that still holds a secret (from the model's own words) is masked too.
  return maskSecrets(summary.trim()) || "(the model returned an empty summary)";
}
