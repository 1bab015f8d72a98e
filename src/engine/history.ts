import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ModelClient } from "../model/model-client.js";
import { guestName, type Guest, type SessionRecord } from "../sessions/session-record.js";
import { quoteForPrompt } from "../memory/safety.js";
import { transcriptOf } from "./transcript.js";

/** What a request sends: the frozen system prompt, the condensed summary if any, the recent history. */
export function requestContext(record: SessionRecord): ChatCompletionMessageParam[] {
  const context: ChatCompletionMessageParam[] = [{ role: "system", content: record.systemPrompt }];
  if (record.condensed) {
    context.push({
      role: "system",
      content: `Summary of the earlier part of this conversation:\n${record.condensed.summary}`,
    });
  }
  const guests = new Map((record.guests ?? []).map((g) => [guestName(g.userId), g]));
  for (const message of record.messages.slice(record.condensed?.upTo ?? 0)) {
    const guest = message.role === "user" && message.name ? guests.get(message.name) : undefined;
    context.push(guest && typeof message.content === "string" ? { ...message, content: guestText(guest, message.content) } : message);
  }
  return context;
}

/** How an invited member's message reaches the model: their name as quoted data, then their words. */
export function guestText(guest: Guest, text: string): string {
  return `[${quoteForPrompt(guest.displayName, 32)}, invited into this thread by the person; not the person whose memory you hold]\n${text}`;
}

const size = (m: ChatCompletionMessageParam) => JSON.stringify(m).length;

/** Characters of history a request sends after the frozen system prompt: the condensed summary and the messages since. */
export function historyChars(record: SessionRecord): number {
  return requestContext(record)
    .slice(1)
    .reduce((n, m) => n + size(m), 0);
}

/** Whether a request with the person's new words would send more history than the budget (HISTORY_BUDGET_CHARS). */
export function overBudget(record: SessionRecord, words: string, budgetChars: number): boolean {
  return historyChars(record) + size({ role: "user", content: words }) > budgetChars;
}

/**
 * Condenses the oldest exchanges so the recent history fits in half the budget.
 * Cuts only before a person's message, so no tool call is separated from its result.
 */
export async function condenseHistory(
  model: ModelClient,
  record: SessionRecord,
  budgetChars: number,
): Promise<{ summary: string; upTo: number } | undefined> {
  const from = record.condensed?.upTo ?? 0;
  let upTo = from;
  let recent = record.messages.slice(from).reduce((n, m) => n + size(m), 0);
  for (let i = from; i < record.messages.length && recent > budgetChars / 2; i++) {
    recent -= size(record.messages[i]!);
    if (record.messages[i + 1]?.role === "user") upTo = i + 1;
  }
  if (upTo <= from) return undefined;
  const earlier = record.condensed ? `${record.condensed.summary}\n\n` : "";
  const summary = await model.complete([
    {
      role: "system",
      content:
        "Condense this conversation so far into a short summary (at most 10 sentences) that keeps names, facts, decisions and open questions. Write in the language the person used.",
    },
    { role: "user", content: earlier + transcriptOf(record.messages.slice(from, upTo), record) },
  ]);
  return { summary: summary.trim(), upTo };
}
