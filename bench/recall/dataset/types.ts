/**
 * Types for the recall benchmark dataset: a year of conversations between one
 * person and the assistant, plus questions asked later whose answers sit in
 * specific messages of those conversations.
 */

export interface BenchConversation {
  /** "en01", "zh07", … unique */
  id: string;
  /** Local date of the conversation, YYYY-MM-DD, between 2026-01-05 and 2026-11-25. */
  date: string;
  /** Local start time HH:mm (24 h). */
  time: string;
  /** Thread title as a person would type it, e.g. "weekend plans", "书单". */
  title: string;
  language: "en" | "zh";
  /** The person's and the assistant's messages, alternating, person first. */
  turns: { user: string; assistant: string }[];
  /** 2–3 sentence summary of the conversation, as the bot's daily log would hold it (same language). */
  summary: string;
  /** The person's display name (LoCoMo's speakers); "Lin Mei" when unset. */
  speaker?: string;
}

/**
 * How the question differs from the message that answers it:
 * - "synonym": the topic is named with a different word ("novel" for "book", "饭馆" for "餐厅").
 * - "word-form": a different form of a word the message uses ("allergy" / "allergic", "日文" / "日语").
 * - "indirect": the thing is described by its role or circumstances instead of its name
 *   ("the place where we celebrated my promotion").
 * - "multi-detail": two cues must both match, typically a time ("in March", "夏天") plus a paraphrased topic.
 */
type QuestionKind = "synonym" | "word-form" | "indirect" | "multi-detail";

export interface BenchQuestion {
  id: string; // "q001"…
  language: "en" | "zh";
  /** The question as the person would ask the bot weeks or months later. */
  question: string;
  /** The message(s) that hold the answer: conversation id, 0-based turn index, which side. */
  evidence: { conversation: string; turn: number; role: "user" | "assistant" }[];
  /** Short answer, for people reading the benchmark. */
  answer: string;
  kind: QuestionKind;
}

/** A question that places its answer in time; the dates are what a model would pass as since/until. */
export interface BenchTimeQuestion extends BenchQuestion {
  /** The day the person asks, YYYY-MM-DD (after the last conversation, e.g. 2026-12-01). */
  asked: string;
  /** The words of the question that place it in time, e.g. "last month", "in the spring", "上个月". */
  phrase: string;
  since?: string;
  until?: string;
}
