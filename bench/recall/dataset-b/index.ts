import { conversationsB } from "./conversations.js";
import { questionsB } from "./questions.js";
import type { BenchConversation, BenchQuestion } from "../dataset/types.js";

export type { BenchConversation, BenchQuestion } from "../dataset/types.js";

/** All conversations of set B, English and Chinese, in chronological order (date, then time). */
export const conversations: BenchConversation[] = [...conversationsB].sort((a, b) =>
  (a.date + " " + a.time).localeCompare(b.date + " " + b.time),
);

export const questions: BenchQuestion[] = questionsB;
