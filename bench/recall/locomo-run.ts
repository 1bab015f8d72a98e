/**
 * Recall on LoCoMo's development split: each sample ingested through the real engine into a home
 * of its own, each question searched as the model calls memory_search (MemoryStore.search, 10
 * results), beside the plain per-message BM25 floor over the same files in the same run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evidenceOf, firstEvidenceRank, mrr, recallAt } from "./evaluate.js";
import { FloorIndex } from "./floor.js";
import { ingest, PERSON } from "./ingest.js";
import { CATEGORIES, type Category, type LocomoSplit } from "./locomo.js";

export interface LocomoOutcome {
  id: string;
  question: string;
  category: Category;
  /** 1-based rank of the first evidence message among AgentKit's results, and the floor's. */
  ours: number | undefined;
  floor: number | undefined;
  /** Where AgentKit's first five results come from ("conversation", "daily", …). */
  sources: string[];
}

export interface LocomoResult {
  outcomes: LocomoOutcome[];
  messages: number;
  sessions: number;
  ingestMs: number;
  searchP50Ms: number;
  searchP95Ms: number;
}

export async function measureLocomo(split: LocomoSplit): Promise<LocomoResult> {
  const outcomes: LocomoOutcome[] = [];
  const took: number[] = [];
  let ingestMs = 0;
  let messages = 0;
  let sessions = 0;
  for (const sample of split.samples) {
    const home = await mkdtemp(join(tmpdir(), "agentkit-locomo-"));
    try {
      const started = performance.now();
      const data = await ingest(home, sample.conversations);
      ingestMs += performance.now() - started;
      messages += sample.conversations.reduce((n, c) => n + c.turns.length * 2, 0);
      sessions += sample.conversations.length;
      const floor = await FloorIndex.build(join(home, "users", PERSON));
      for (const question of sample.questions) {
        const evidence = evidenceOf(question, data.files);
        const began = performance.now();
        const hits = await data.memory.search(question.question, { limit: 10 });
        took.push(performance.now() - began);
        const ours = firstEvidenceRank(
          hits.map((h) => ({ file: h.file, ords: h.ords })),
          evidence,
        );
        const theirs = firstEvidenceRank(
          (await floor.search(question.question, 10)).map((h) => ({ file: h.file, ords: [h.ord] })),
          evidence,
        );
        outcomes.push({
          id: question.id,
          question: question.question,
          category: question.category,
          ours,
          floor: theirs,
          sources: hits.slice(0, 5).map((h) => h.source),
        });
      }
      await floor.close();
      await data.close();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
  took.sort((a, b) => a - b);
  const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? 0;
  return { outcomes, messages, sessions, ingestMs, searchP50Ms: at(0.5), searchP95Ms: at(0.95) };
}

/** Recall@5 and @10 and MRR per category, AgentKit beside the floor: table rows and JSON. */
export function locomoTable(outcomes: readonly LocomoOutcome[]): { rows: string[][]; results: Record<string, unknown> } {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows: string[][] = [
    ["category", "questions", "AgentKit R@5", "floor R@5", "R@5 ÷ floor", "AgentKit R@10", "floor R@10", "R@10 ÷ floor", "AgentKit MRR", "floor MRR"],
  ];
  const results: Record<string, unknown> = {};
  for (const name of ["all", ...Object.values(CATEGORIES)] as const) {
    const kept = outcomes.filter((o) => name === "all" || o.category === name);
    const ours = kept.map((o) => ({ rank: o.ours }));
    const theirs = kept.map((o) => ({ rank: o.floor }));
    const ratio = (k: number) => (recallAt(theirs, k) === 0 ? Number.POSITIVE_INFINITY : recallAt(ours, k) / recallAt(theirs, k));
    rows.push([
      name,
      String(kept.length),
      pct(recallAt(ours, 5)),
      pct(recallAt(theirs, 5)),
      ratio(5).toFixed(2),
      pct(recallAt(ours, 10)),
      pct(recallAt(theirs, 10)),
      ratio(10).toFixed(2),
      mrr(ours).toFixed(3),
      mrr(theirs).toFixed(3),
    ]);
    results[name] = {
      questions: kept.length,
      agentkit: { r5: recallAt(ours, 5), r10: recallAt(ours, 10), mrr: mrr(ours) },
      floor: { r5: recallAt(theirs, 5), r10: recallAt(theirs, 10), mrr: mrr(theirs) },
      ratio5: ratio(5),
      ratio10: ratio(10),
    };
  }
  return { rows, results };
}
