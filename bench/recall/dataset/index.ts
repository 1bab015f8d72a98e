import { conversationsEn } from "./conversations-en.js";
import { conversationsZh } from "./conversations-zh.js";
import { questions } from "./questions.js";
import { timeQuestions } from "./time-questions.js";
import type { BenchConversation } from "./types.js";

export type { BenchConversation,   } from "./types.js";

/** All conversations, English and Chinese, in chronological order (date, then time). */
export const conversations: BenchConversation[] = [...conversationsEn, ...conversationsZh].sort(
  (a, b) => (a.date + " " + a.time).localeCompare(b.date + " " + b.time),
);

export { questions, timeQuestions };
