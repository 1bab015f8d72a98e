/** Evidence recall@k: is a message that holds the answer among the first k results? */
import type { BenchQuestion } from "./dataset/types.js";

export interface Located {
  file: string;
  ord: number;
}

export interface QuestionOutcome {
  id: string;
  language: BenchQuestion["language"];
  kind: BenchQuestion["kind"];
  /** 1-based rank of the first result holding evidence; undefined when none of the results does. */
  rank: number | undefined;
}

/** Where each evidence message is in the archived files: message number = turn × 2 (+1 for the assistant). */
export function evidenceOf(question: Pick<BenchQuestion, "id" | "evidence">, files: Map<string, string>): Located[] {
  return question.evidence.map((e) => {
    const file = files.get(e.conversation);
    if (!file) throw new Error(`question ${question.id} names an unknown conversation ${e.conversation}`);
    return { file, ord: e.turn * 2 + (e.role === "assistant" ? 1 : 0) };
  });
}

/** Rank of the first result that is (or contains) an evidence message. */
export function firstEvidenceRank(results: readonly { file: string; ords: readonly number[] }[], evidence: readonly Located[]): number | undefined {
  const index = results.findIndex((r) => evidence.some((e) => e.file === r.file && r.ords.includes(e.ord)));
  return index === -1 ? undefined : index + 1;
}

export function recallAt(outcomes: readonly Pick<QuestionOutcome, "rank">[], k: number): number {
  if (outcomes.length === 0) return 0;
  return outcomes.filter((o) => o.rank !== undefined && o.rank <= k).length / outcomes.length;
}

/** Mean reciprocal rank over the first 10 results. */
export function mrr(outcomes: readonly Pick<QuestionOutcome, "rank">[]): number {
  if (outcomes.length === 0) return 0;
  return outcomes.reduce((sum, o) => sum + (o.rank !== undefined && o.rank <= 10 ? 1 / o.rank : 0), 0) / outcomes.length;
}
