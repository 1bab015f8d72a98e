import { readConversations, readQuestions, readTimeQuestions, type BenchConversation } from "./types.js";

export type { BenchConversation } from "./types.js";

/** The English conversations, then the Chinese ones, as written. */
export const conversationsEn = readConversations(import.meta.url, "conversations-en.json");
export const conversationsZh = readConversations(import.meta.url, "conversations-zh.json");

/** All conversations, English and Chinese, in chronological order (date, then time). */
export const conversations: BenchConversation[] = [...conversationsEn, ...conversationsZh].sort((a, b) =>
  (a.date + " " + a.time).localeCompare(b.date + " " + b.time),
);

export const questions = readQuestions(import.meta.url, "questions.json");
export const timeQuestions = readTimeQuestions(import.meta.url, "time-questions.json");
