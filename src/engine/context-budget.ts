import { estimateTokens } from "../lib/tokens.js";
import { CAPS, NO_FILES, WHOLE_FILE_KINDS } from "../memory/file-kinds.js";
import { SERVER_NOTES_CAP } from "../memory/server-notes.js";
import { baseInstructions } from "./base-instructions.js";
import { memoryToolDefinitions } from "./tools/memory-tools.js";

/**
 * How a request fits the model's context (OPENAI_CONTEXT_TOKENS), by an estimate of tokens
 * (estimateTokens): servers such as Ollama cut an over-long request silently, from the start of
 * the conversation and the middle of a long message; others refuse it.
 */

/** What every turn's tool schemas take. */
const TOOL_TOKENS = estimateTokens(JSON.stringify(memoryToolDefinitions));

/** Room kept for the answer: an eighth of the context, from 512 to 4,096 tokens. */
function answerReserve(contextTokens: number): number {
  return Math.min(4_096, Math.max(512, Math.floor(contextTokens / 8)));
}

/** What is left of the context for the variable part of a request whose fixed part is `fixed` (never under 512 tokens). */
export function roomFor(contextTokens: number, fixed: string): number {
  return Math.max(512, contextTokens - estimateTokens(fixed) - answerReserve(contextTokens));
}

/** The most the frozen system prompt may take: half the context, less the tool schemas (never under 1,024). */
export function promptLimit(contextTokens: number): number {
  return Math.max(1_024, Math.floor(contextTokens / 2) - TOOL_TOKENS);
}

/** What a request may send after the frozen prompt: HISTORY_BUDGET_CHARS, and what the context leaves. */
export interface ChatBudget {
  chars: number;
  tokens: number;
}

/** The history budget of a session whose frozen prompt is `systemPrompt`. */
export function chatBudget(systemPrompt: string, contextTokens: number, chars: number): ChatBudget {
  return { chars, tokens: Math.max(512, contextTokens - estimateTokens(systemPrompt) - TOOL_TOKENS - answerReserve(contextTokens)) };
}

/**
 * The largest request a conversation can start with: the instructions, every memory file and the
 * server's notes at their caps, `dailyDays` logs, and the tool schemas, in tokens. The start-up
 * check weighs it against the context.
 */
export function largestStartTokens(dailyDays: number): number {
  const snapshot = { takenAt: "", timeZone: "UTC", localDate: "2026-01-01", localTime: "00:00", ...NO_FILES, dailies: [], warnings: [] };
  const base = baseInstructions({
    place: { platform: "discord", channelId: "0", guildId: "0", description: "", visibility: "public" },
    title: "x".repeat(100),
    displayName: "x".repeat(32),
    snapshot,
  });
  // Each file at its cap in English prose, with its tags.
  const files = WHOLE_FILE_KINDS.reduce((sum, kind) => sum + CAPS[kind], 0) + SERVER_NOTES_CAP + dailyDays * CAPS.daily + 400;
  return estimateTokens(base) + Math.ceil(files / 3.5) + TOOL_TOKENS;
}
