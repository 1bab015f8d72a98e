import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * The recall benchmark's datasets: a year of conversations between one person and the assistant,
 * plus questions asked later whose answers sit in specific messages of those conversations. The
 * data is JSON next to this file (not TypeScript the compiler checks on every run); each file is
 * checked against these schemas when it is read.
 */

const language = z.enum(["en", "zh"]);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const conversation = z.strictObject({
  /** "en01", "zh07", … unique */
  id: z.string().min(1),
  /** Local date of the conversation, YYYY-MM-DD, between 2026-01-05 and 2026-11-25. */
  date,
  /** Local start time HH:mm (24 h). */
  time: z.string().regex(/^\d{2}:\d{2}$/),
  /** Thread title as a person would type it, e.g. "weekend plans", "书单". */
  title: z.string().min(1),
  language,
  /** The person's and the assistant's messages, alternating, person first. */
  turns: z.array(z.strictObject({ user: z.string(), assistant: z.string() })).min(1),
  /** 2–3 sentence summary of the conversation, as the bot's daily log would hold it (same language). */
  summary: z.string(),
  /** The person's display name (LoCoMo's speakers); "Lin Mei" when unset. */
  speaker: z.string().optional(),
});

/**
 * How the question differs from the message that answers it:
 * - "synonym": the topic is named with a different word ("novel" for "book", "饭馆" for "餐厅").
 * - "word-form": a different form of a word the message uses ("allergy" / "allergic", "日文" / "日语").
 * - "indirect": the thing is described by its role or circumstances instead of its name
 *   ("the place where we celebrated my promotion").
 * - "multi-detail": two cues must both match, typically a time ("in March", "夏天") plus a paraphrased topic.
 */
const questionKind = z.enum(["synonym", "word-form", "indirect", "multi-detail"]);

const questionFields = {
  id: z.string().min(1),
  language,
  /** The question as the person would ask the bot weeks or months later. */
  question: z.string().min(1),
  /** The message(s) that hold the answer: conversation id, 0-based turn index, which side. */
  evidence: z.array(z.strictObject({ conversation: z.string(), turn: z.number().int().nonnegative(), role: z.enum(["user", "assistant"]) })).min(1),
  /** Short answer, for people reading the benchmark. */
  answer: z.string(),
  kind: questionKind,
};
const question = z.strictObject(questionFields);

/** A question that places its answer in time; the dates are what a model would pass as since/until. */
const timeQuestion = z.strictObject({
  ...questionFields,
  /** The day the person asks, YYYY-MM-DD (after the last conversation, e.g. 2026-12-01). */
  asked: date,
  /** The words of the question that place it in time, e.g. "last month", "in the spring", "上个月". */
  phrase: z.string().min(1),
  since: date.optional(),
  until: date.optional(),
});

export type BenchConversation = z.infer<typeof conversation>;
export type BenchQuestion = z.infer<typeof question>;

/** A dataset file next to `base` (an import.meta.url), checked against its schema: a wrong field names its path and file. */
function read<T>(base: string, name: string, schema: z.ZodType<T>): T {
  const url = new URL(name, base);
  const parsed = schema.safeParse(JSON.parse(readFileSync(url, "utf8")));
  if (!parsed.success) throw new Error(`${url.pathname}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export const readConversations = (base: string, name: string) => read(base, name, z.array(conversation));
export const readQuestions = (base: string, name: string) => read(base, name, z.array(question));
export const readTimeQuestions = (base: string, name: string) => read(base, name, z.array(timeQuestion));
