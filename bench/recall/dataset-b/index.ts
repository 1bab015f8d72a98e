import { readConversations, readQuestions, type BenchConversation, type BenchQuestion } from "../dataset/types.js";

export type { BenchConversation, BenchQuestion } from "../dataset/types.js";

/** All conversations of set B, English and Chinese, in chronological order (date, then time). */
export const conversations: BenchConversation[] = readConversations(import.meta.url, "conversations.json").sort((a, b) =>
  (a.date + " " + a.time).localeCompare(b.date + " " + b.time),
);

/**
 * Questions for evaluation set B, asked by Rae weeks or months after the conversation, in her own
 * words. Written without looking at the search code or at the first dataset; never used for tuning.
 */
export const questions: BenchQuestion[] = readQuestions(import.meta.url, "questions.json");
