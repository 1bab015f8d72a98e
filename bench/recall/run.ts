/**
 * `npm run bench:recall`: evidence recall of AgentKit's memory_search path against plain BM25
 * over single messages (the floor), in the same run over the same files, on the dataset in
 * bench/recall/dataset, set B, and LoCoMo's development split when ../shared/data holds it; then
 * search latency, index size and reindex time for a year of use.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { conversations, questions, timeQuestions } from "./dataset/index.js";
import * as setB from "./dataset-b/index.js";
import type { BenchConversation } from "./dataset/types.js";
import type { BenchQuestion } from "./dataset/types.js";
import { evidenceOf, firstEvidenceRank, mrr, recallAt, type QuestionOutcome } from "./evaluate.js";
import { FloorIndex } from "./floor.js";
import { ingest, PERSON } from "./ingest.js";
import { LOCOMO_PATH, loadLocomo, type LocomoMapping } from "./locomo.js";
import { locomoTable, measureLocomo } from "./locomo-run.js";
import { measureScale, type ScaleResult } from "./scale.js";

const ROOT = join(import.meta.dirname, "..", "..");
const { values } = parseArgs({
  options: {
    "skip-scale": { type: "boolean", default: false },
    "skip-locomo": { type: "boolean", default: false },
    "locomo-mapping": { type: "string", default: "dialogue" },
    days: { type: "string", default: "365" },
    verbose: { type: "boolean", default: false },
    out: { type: "string", default: join(ROOT, "bench", "results", "recall.json") },
  },
});

interface Side {
  outcomes: QuestionOutcome[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), "agentkit-recall-"));
  try {
    const started = performance.now();
    const data = await ingest(home, conversations);
    const ingestMs = performance.now() - started;
    const floor = await FloorIndex.build(join(home, "users", PERSON));
    const agentkit: Side = { outcomes: [] };
    const plain: Side = { outcomes: [] };
    const misses: string[] = [];
    const topSources = new Map<string, number>();
    for (const question of questions) {
      const evidence = evidenceOf(question, data.files);
      const hits = await data.memory.search(question.question, { limit: 10 });
      const top = hits[0]?.source ?? "none";
      topSources.set(top, (topSources.get(top) ?? 0) + 1);
      const ours = firstEvidenceRank(
        hits.map((h) => ({ file: h.file, ords: h.ords })),
        evidence,
      );
      const theirs = firstEvidenceRank(
        (await floor.search(question.question, 10)).map((h) => ({ file: h.file, ords: [h.ord] })),
        evidence,
      );
      agentkit.outcomes.push(outcome(question, ours));
      plain.outcomes.push(outcome(question, theirs));
      if (values.verbose && (ours === undefined || ours > 5))
        misses.push(`${question.id} [${question.kind}] ${question.question}  → ours ${ours ?? "-"}, floor ${theirs ?? "-"}`);
    }
    // Questions that place their answer in time: the plain question, then with the dates a model
    // would pass (since/until), each against the floor on the plain question.
    const timed = { plain: [] as QuestionOutcome[], filtered: [] as QuestionOutcome[], floor: [] as QuestionOutcome[] };
    for (const question of timeQuestions) {
      const evidence = evidenceOf(question, data.files);
      const located = (hits: { file: string; ords: number[] }[]) => firstEvidenceRank(hits, evidence);
      timed.plain.push(outcome(question, located(await data.memory.search(question.question, { limit: 10 }))));
      timed.filtered.push(outcome(question, located(await data.memory.search(question.question, { limit: 10, since: question.since, until: question.until }))));
      timed.floor.push(
        outcome(
          question,
          firstEvidenceRank(
            (await floor.search(question.question, 10)).map((h) => ({ file: h.file, ords: [h.ord] })),
            evidence,
          ),
        ),
      );
    }
    await floor.close();
    await data.close();

    const { rows, results } = sliceTable(agentkit.outcomes, plain.outcomes);
    const overall = results.all as { agentkit: { r10: number }; floor: { r10: number } };
    const target = overall.agentkit.r10 >= 1.15 * overall.floor.r10;
    console.log(
      `## Recall (${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.turns.length * 2, 0)} messages, ${questions.length} questions; ingested through the session engine in ${Math.round(ingestMs)} ms)\n`,
    );
    console.log(table(rows));
    console.log(
      `\nTarget: AgentKit R@10 ≥ 1.15 × floor R@10 without embeddings: ${(overall.agentkit.r10 / overall.floor.r10).toFixed(2)}× ${target ? "✅" : "❌"}`,
    );
    console.log(`\n## Questions about time (${timeQuestions.length}: "last month", "in March", "before the trip", "上个月"…)\n`);
    const timeRows: string[][] = [["slice", "questions", "AgentKit R@10 with since/until", "AgentKit R@10 without", "floor R@10", "with ÷ floor"]];
    const timeResults: Record<string, unknown> = {};
    for (const [name, keep] of SLICES.slice(0, 3)) {
      const [withDates, without, theirs] = [timed.filtered.filter(keep), timed.plain.filter(keep), timed.floor.filter(keep)];
      const ratio = recallAt(theirs, 10) === 0 ? Number.POSITIVE_INFINITY : recallAt(withDates, 10) / recallAt(theirs, 10);
      timeRows.push([name, String(withDates.length), pct(recallAt(withDates, 10)), pct(recallAt(without, 10)), pct(recallAt(theirs, 10)), ratio.toFixed(2)]);
      timeResults[name] = {
        questions: withDates.length,
        withDates: recallAt(withDates, 10),
        withoutDates: recallAt(without, 10),
        floor: recallAt(theirs, 10),
        ratio10: ratio,
      };
    }
    console.log(table(timeRows));
    results.time = timeResults;
    // Set B: written by another author without the search code or set A, never used to tune.
    const heldOut = await measureHeldOut(setB.conversations, setB.questions);
    console.log(
      `\n## Set B, held out (${setB.conversations.length} conversations, ${heldOut.messages} messages, ${setB.questions.length} questions; bench/recall/dataset-b)\n`,
    );
    const { rows: bRows, results: bResults } = sliceTable(heldOut.agentkit, heldOut.floor);
    console.log(table(bRows));
    results.setB = bResults;
    const bAll = bResults.all as { agentkit: { r10: number }; floor: { r10: number } };
    console.log(
      `\nTarget: R@10 ≥ 1.2 × floor on both sets: set A ${(overall.agentkit.r10 / overall.floor.r10).toFixed(2)}× ${overall.agentkit.r10 >= 1.2 * overall.floor.r10 ? "✅" : "❌"}, set B ${(bAll.agentkit.r10 / bAll.floor.r10).toFixed(2)}× ${bAll.agentkit.r10 >= 1.2 * bAll.floor.r10 ? "✅" : "❌"}`,
    );
    const tops = [...topSources.entries()].sort((a, b) => b[1] - a[1]).map(([source, n]) => `${source} ${pct(n / questions.length)}`);
    console.log(
      `AgentKit's first result comes from: ${tops.join(", ")} (a daily-log summary often holds the answer too, but only messages count as evidence).`,
    );
    if (misses.length > 0) console.log(`\nNot in AgentKit's top 5:\n${misses.join("\n")}`);

    if (!values["skip-locomo"]) results.locomo = await reportLocomo(values.verbose ?? false);

    let scale: ScaleResult | undefined;
    if (!values["skip-scale"]) {
      const scaleHome = await mkdtemp(join(tmpdir(), "agentkit-recall-scale-"));
      try {
        scale = await measureScale(scaleHome, vocabularyOf(), [...questions.map((q) => q.question), ...sampledQueries(200)], { days: Number(values.days) });
      } finally {
        await rm(scaleHome, { recursive: true, force: true });
      }
      console.log(`\n## A year of daily use (${scale.messages} messages in ${scale.conversations} conversations, ${scale.logs} daily logs)\n`);
      console.log(
        table([
          ["metric", "value", "target"],
          ["full reindex (s)", (scale.reindexMs / 1000).toFixed(2), ""],
          ["index size (MB)", (scale.indexBytes / 1024 / 1024).toFixed(1), ""],
          [
            `search p50 / p95 / p99 (ms, ${scale.searches} searches, in-process)`,
            `${scale.searchP50Ms.toFixed(1)} / ${scale.searchP95Ms.toFixed(1)} / ${scale.searchP99Ms.toFixed(1)}`,
            `p95 ≤ 50 ms ${scale.searchP95Ms <= 50 ? "✅" : "❌"}`,
          ],
          ["search p95 when it first checks every file for changes (ms)", scale.checkedSearchP95Ms.toFixed(1), ""],
          ["new conversation written → found by a search (ms)", scale.newConversationFoundMs.toFixed(0), "a few seconds"],
        ]),
      );
    }
    await mkdir(join(ROOT, "bench", "results"), { recursive: true });
    await writeFile(
      values.out!,
      `${JSON.stringify({ recall: results, target, topSources: Object.fromEntries(topSources), scale, at: new Date().toISOString() }, null, 2)}\n`,
    );
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** LoCoMo's development split when ../shared/data has it: the table, the targets, the JSON (undefined when absent). */
async function reportLocomo(verbose: boolean): Promise<Record<string, unknown> | undefined> {
  const mapping = values["locomo-mapping"];
  if (mapping !== "dialogue" && mapping !== "typed") throw new Error(`--locomo-mapping ${mapping}: dialogue or typed`);
  const split = loadLocomo(LOCOMO_PATH, mapping satisfies LocomoMapping);
  if (!split) {
    console.log(`\n## LoCoMo development split: not measured (${relative(ROOT, LOCOMO_PATH)} is not there; see ../shared/data/README.md)`);
    return undefined;
  }
  const measured = await measureLocomo(split);
  const questions = measured.outcomes.length;
  console.log(
    `\n## LoCoMo development split, ${mapping === "dialogue" ? "as a dialogue (the other speaker as the assistant)" : 'typed (every turn the person\'s, "Name: text")'} (${split.samples.length} conversations, ${measured.sessions} sessions, ${measured.messages} messages, ${questions} questions of categories 1–4; ` +
      `each ingested through the session engine in ${Math.round(measured.ingestMs / 1000)} s)\n`,
  );
  console.log(
    `Evidence ids: ${split.repaired} repaired (several in one string, "D:11:26"), ${split.dropped} dropped (they name no turn); ${split.questionsWithoutEvidence} question(s) left without evidence are not asked.\n`,
  );
  const { rows, results } = locomoTable(measured.outcomes);
  console.log(table(rows));
  const all = results.all as { ratio5: number; ratio10: number };
  const below = Object.entries(results).filter(
    ([name, r]) => name !== "all" && ((r as { ratio5: number }).ratio5 < 1 || (r as { ratio10: number }).ratio10 < 1),
  );
  console.log(
    `\nTargets: R@10 ≥ 1.25 × floor ${all.ratio10.toFixed(2)}× ${all.ratio10 >= 1.25 ? "✅" : "❌"}, R@5 ≥ 1.15 × floor ${all.ratio5.toFixed(2)}× ${all.ratio5 >= 1.15 ? "✅" : "❌"}, ` +
      `no category below the floor ${below.length === 0 ? "✅" : `❌ (${below.map(([name]) => name).join(", ")})`}; ` +
      `search p50 / p95 ${measured.searchP50Ms.toFixed(1)} / ${measured.searchP95Ms.toFixed(1)} ms (in-process, ${(measured.messages / split.samples.length) | 0} messages a person)`,
  );
  const sources = measured.outcomes.flatMap((o) => o.sources);
  console.log(
    `AgentKit's first five results come from: ${[...new Set(sources)].map((s) => `${s} ${pct(sources.filter((x) => x === s).length / sources.length)}`).join(", ")}`,
  );
  if (verbose) {
    const missed = measured.outcomes.filter((o) => o.ours === undefined || o.ours > 5);
    console.log(
      `\nNot in AgentKit's top 5 (${missed.length}):\n${missed.map((o) => `${o.id} [${o.category}] ${o.question}  → ours ${o.ours ?? "-"}, floor ${o.floor ?? "-"}`).join("\n")}`,
    );
  }
  return {
    ...results,
    messages: measured.messages,
    searchP50Ms: measured.searchP50Ms,
    searchP95Ms: measured.searchP95Ms,
    repairedIds: split.repaired,
    droppedIds: split.dropped,
  };
}

type Slice = [string, (q: QuestionOutcome) => boolean];
const SLICES: Slice[] = [
  ["all", () => true],
  ["English", (q) => q.language === "en"],
  ["Chinese", (q) => q.language === "zh"],
  ...(["synonym", "word-form", "indirect", "multi-detail"] as const).map((kind): Slice => [kind, (q) => q.kind === kind]),
];

/** Recall@5, @10 and MRR per slice, AgentKit beside the floor: the table's rows and the JSON. */
function sliceTable(agentkit: readonly QuestionOutcome[], floor: readonly QuestionOutcome[]): { rows: string[][]; results: Record<string, unknown> } {
  const rows: string[][] = [["slice", "questions", "AgentKit R@5", "floor R@5", "AgentKit R@10", "floor R@10", "R@10 ÷ floor", "AgentKit MRR", "floor MRR"]];
  const results: Record<string, unknown> = {};
  for (const [name, keep] of SLICES) {
    const ours = agentkit.filter(keep);
    const theirs = floor.filter(keep);
    const ratio = recallAt(theirs, 10) === 0 ? Number.POSITIVE_INFINITY : recallAt(ours, 10) / recallAt(theirs, 10);
    rows.push([
      name,
      String(ours.length),
      pct(recallAt(ours, 5)),
      pct(recallAt(theirs, 5)),
      pct(recallAt(ours, 10)),
      pct(recallAt(theirs, 10)),
      ratio.toFixed(2),
      mrr(ours).toFixed(3),
      mrr(theirs).toFixed(3),
    ]);
    results[name] = {
      questions: ours.length,
      agentkit: { r5: recallAt(ours, 5), r10: recallAt(ours, 10), mrr: mrr(ours) },
      floor: { r5: recallAt(theirs, 5), r10: recallAt(theirs, 10), mrr: mrr(theirs) },
      ratio10: ratio,
    };
  }
  return { rows, results };
}

/** Ingests a held-out set into its own home and measures AgentKit and the floor on it, as for set A. */
async function measureHeldOut(
  set: readonly BenchConversation[],
  asked: readonly BenchQuestion[],
): Promise<{ agentkit: QuestionOutcome[]; floor: QuestionOutcome[]; messages: number }> {
  const home = await mkdtemp(join(tmpdir(), "agentkit-recall-b-"));
  try {
    const data = await ingest(home, set);
    const floor = await FloorIndex.build(join(home, "users", PERSON));
    const agentkit: QuestionOutcome[] = [];
    const plain: QuestionOutcome[] = [];
    for (const question of asked) {
      const evidence = evidenceOf(question, data.files);
      const hits = await data.memory.search(question.question, { limit: 10 });
      agentkit.push(
        outcome(
          question,
          firstEvidenceRank(
            hits.map((h) => ({ file: h.file, ords: h.ords })),
            evidence,
          ),
        ),
      );
      plain.push(
        outcome(
          question,
          firstEvidenceRank(
            (await floor.search(question.question, 10)).map((h) => ({ file: h.file, ords: [h.ord] })),
            evidence,
          ),
        ),
      );
    }
    await floor.close();
    await data.close();
    return { agentkit, floor: plain, messages: set.reduce((n, c) => n + c.turns.length * 2, 0) };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function outcome(question: BenchQuestion, rank: number | undefined): QuestionOutcome {
  return { id: question.id, language: question.language, kind: question.kind, rank };
}

function table(rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(rows[0]!), line(rows[0]!.map(() => "---")), ...rows.slice(1).map(line)].join("\n");
}

/** The dataset's own words, for the synthetic year (English words; Chinese two-character words). */
function vocabularyOf(): { en: string[]; zh: string[] } {
  const text = conversations.flatMap((c) => c.turns.flatMap((t) => [t.user, t.assistant])).join(" ");
  const count = (words: string[]) => {
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  };
  const en = count(text.toLowerCase().match(/[a-z]{2,}/g) ?? []);
  const zh = count((text.match(/\p{Script=Han}+/gu) ?? []).flatMap((run) => [...run].flatMap((c, i, all) => (i + 1 < all.length ? [c + all[i + 1]] : []))));
  return { en, zh };
}

function sampledQueries(n: number): string[] {
  const { en, zh } = vocabularyOf();
  return Array.from({ length: n }, (_, i) => (i % 3 === 2 ? `${zh[(i * 7) % 300]}${zh[(i * 13) % 300]}` : `${en[(i * 11) % 800]} ${en[(i * 17) % 800]}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
