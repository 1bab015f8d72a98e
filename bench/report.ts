import type { FirstTextResult } from "./first-text.js";
import type { TurnCpuResult } from "./turn-cpu.js";
import type { LoadResult } from "./load.js";
import type { MetricsOnResult } from "./metrics-on.js";
import type { InjectionCheckResult } from "./injection-check.js";
import { instructionCheckRows, type InstructionCheckResult } from "./instruction-check.js";
import type { PromptBuildResult } from "./prompt-build.js";
import type { SecretCheckResult } from "./secret-check.js";
import type { SessionSaveResult } from "./session-save.js";
import type { TidyBenchResult } from "./tidy.js";
import { renderMetricsOn } from "./report-metrics.js";
import { renderSharded, shardedTargets } from "./report-sharded.js";
import { renderWeb, renderWebTurns, webTargets, webTurnsTargets } from "./report-web.js";
import type { ReconcileResult } from "./scale-reconcile.js";
import type { SessionsRssResult } from "./scale-sessions.js";
import type { ShardedLoadResult } from "./sharded.js";
import type { StartupResult } from "./startup.js";
import { ratio, round, summarize, type Summary } from "./stats.js";
import type { WebBenchResult } from "./web.js";
import type { WebTurnsResult } from "./web-turns.js";

/** One pair of load runs (CPU per turn, ms): AgentKit and the bare floor, and the floor with duties when that section ran. */
export interface LoadPair {
  agentkit: number;
  floor: number;
  floorDuties?: number;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  options: Record<string, unknown>;
  source: { commit: string; srcChanges: string[] };
  machine: { node: string; cpus: number; platform: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  startup?: StartupResult;
  turnOverhead?: LoadResult;
  /** `--metrics`: the same load with METRICS_PORT set. */
  turnOverheadMetrics?: MetricsOnResult;
  floor?: LoadResult;
  /** The same load against the floor with AgentKit's per-turn duties (a prompt, the conversation, a save): read beside, never a target. */
  floorDuties?: LoadResult;
  /** `--load-pairs N`: each bot's CPU per turn in N load runs, each on a fresh process (the first is section 1's). */
  loadPairs?: LoadPair[];
  /** CPU per opening and per later turn, turns back to back, beside the floor. */
  turnCpu?: TurnCpuResult;
  firstText?: FirstTextResult;
  sessions?: SessionsRssResult;
  sessionsFloor?: SessionsRssResult;
  reconcile?: ReconcileResult;
  promptBuild?: PromptBuildResult;
  sessionSave?: SessionSaveResult;
  injectionCheck?: InjectionCheckResult;
  /** The secret check on 2,000-character notes, beside one plain pattern pass. */
  secretCheck?: SecretCheckResult;
  /** The instruction detector: its corpus's figures, and its time on 2,000-character notes beside one plain pattern pass. */
  instructionCheck?: InstructionCheckResult;
  tidy?: TidyBenchResult;
  /** The web page's server time and weight for a person with a year of history, beside one with none. */
  web?: WebBenchResult;
  /** Other people's turns while one person reloads the heaviest conversation page, beside the page idle. */
  webTurns?: WebTurnsResult;
  /** `--only sharded`: the load with people over one guild per shard, against the floor, one process and the shards. */
  sharded?: ShardedLoadResult;
  /** `--only reconcile-redis`: section 4b with the sessions in Redis, one process and sharded. */
  reconcileRedis?: { single: ReconcileResult; sharded: ReconcileResult };
  targets: TargetCheck[];
  errors: { section: string; message: string }[];
}

export interface TargetCheck {
  name: string;
  value: number;
  limit: number;
  unit: string;
  ok: boolean;
}

type Row = [section: string, metric: string, agentkit: string, floor: string, ratio: string, target: string];

const fmt = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined || Number.isNaN(value) ? "–" : Number.isFinite(value) ? String(round(value, digits)) : "∞";
const mark = (ok: boolean) => (ok ? "✅" : "❌");

/** A load run's CPU per turn on the main thread / the other threads (older results have none). */
const threadSplit = (split: { main: number; others: number } | undefined): string => (split ? `${fmt(split.main, 2)} / ${fmt(split.others, 2)}` : "–");

/** The bot's CPU per turn against the floor's (issue 30). */
const CPU_TARGET = "bot CPU per turn ÷ floor";

/** The targets of the brief, checked against whatever sections ran. */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const add = (name: string, value: number | null, limit: number, unit: string) => {
    if (value === null || Number.isNaN(value)) return;
    checks.push({ name, value, limit, unit, ok: value <= limit });
  };
  const { turnOverhead: ak, floor } = results;
  if (ak && floor) {
    add("to model p99 ÷ floor", ratio(ak.toModelMs.p99, floor.toModelMs.p99), 1.3, "×");
    add("to final edit p99 ÷ floor", ratio(ak.toFinalMs.p99, floor.toFinalMs.p99), 1.3, "×");
    add("REST calls per turn ÷ floor", ratio(ak.restPerTurn, floor.restPerTurn), 1.5, "×");
    // With --load-pairs, the pairs' median: one pair's ratio moves by ±0.15 with each process's luck (performance.md).
    const pairs = results.loadPairs;
    const cpu = pairs && pairs.length > 1 ? summarize(pairs.map((p) => ratio(p.agentkit, p.floor))).p50 : ratio(ak.botCpuMsPerTurn, floor.botCpuMsPerTurn);
    add(CPU_TARGET, cpu, 1.3, "×");
  }
  if (results.firstText) {
    add("first visible text p95", results.firstText.firstVisibleMs.p95, 300, "ms");
    add("edits per second p95", results.firstText.editsPerSecond.p95, 1, "/s");
  }
  if (results.sessions) add(`peak RSS with ${results.sessions.opened} sessions`, results.sessions.loaded.peakRssMb, 250, "MB");
  if (results.reconcile) {
    const r = results.reconcile;
    // A run that timed out has not met the target: count it as the time it was given.
    add(`start-up + reconcile of ${r.options.stored}`, r.totalMs ?? r.options.timeoutMs, 5000, "ms");
  }
  if (results.promptBuild) {
    add("prompt build alone p99", results.promptBuild.buildUs.p99 / 1000, 2, "ms");
    add("snapshot + prompt build p99", results.promptBuild.totalUs.p99 / 1000, 2, "ms");
  }
  if (results.injectionCheck) add("injection check on a 2,000-char write p99", results.injectionCheck.toolUs.p99 / 1000, 1, "ms");
  if (results.secretCheck) add("secret check of a 2,000-char write p99 (CPU time)", results.secretCheck.writeCpuUs.p99 / 1000, 1, "ms");
  if (results.tidy) add("turn p99 with tidy-ups running ÷ without", ratio(results.tidy.turns.busyMs.p99, results.tidy.turns.floorMs.p99), 1.3, "×");
  shardedTargets(results, add);
  webTargets(results.web, add);
  webTurnsTargets(results.webTurns, add);
  return checks;
}

function latencyRows(section: string, metric: string, ak: Summary | undefined, floor: Summary | undefined, target?: string): Row[] {
  return (["p50", "p95", "p99"] as const).map((p) => [
    section,
    `${metric} ${p} (ms)`,
    fmt(ak?.[p]),
    fmt(floor?.[p]),
    ak && floor ? fmt(ratio(ak[p], floor[p]), 2) : "–",
    p === "p99" && target ? target : "",
  ]);
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const targets = new Map(results.targets.map((t) => [t.name, t]));
  const verdict = (name: string, text: string) => {
    const t = targets.get(name);
    return t ? `${text} ${mark(t.ok)}` : text;
  };
  const rows: Row[] = [];
  const { turnOverhead: ak, floor } = results;
  const o = results.options;
  // Results written before the bench ran compiled bots have no runtime: they ran under tsx.
  const runtime = typeof o.runtime === "string" ? o.runtime : "tsx";
  const st = results.startup;
  if (st) {
    const s = "0 start-up";
    const { agentkit: a, floor: f } = st.figures;
    const pair = (tsx: number, compiled: number, digits: number) => `${fmt(tsx, digits)} / ${fmt(compiled, digits)}`;
    const ratios = (tsx: number, compiled: number, floorTsx: number, floorCompiled: number) =>
      `${fmt(ratio(tsx, floorTsx), 2)} / ${fmt(ratio(compiled, floorCompiled), 2)}`;
    const runs = `p50 of ${st.options.runs}`;
    rows.push(
      [
        s,
        `spawn → ready, gateway session open (ms, ${runs}), tsx / compiled`,
        pair(a.tsx.readyMs.p50, a.compiled.readyMs.p50, 0),
        pair(f.tsx.readyMs.p50, f.compiled.readyMs.p50, 0),
        ratios(a.tsx.readyMs.p50, a.compiled.readyMs.p50, f.tsx.readyMs.p50, f.compiled.readyMs.p50),
        "",
      ],
      [
        s,
        `RSS idle after login (MB, ${runs}), tsx / compiled`,
        pair(a.tsx.idleRssMb.p50, a.compiled.idleRssMb.p50, 1),
        pair(f.tsx.idleRssMb.p50, f.compiled.idleRssMb.p50, 1),
        ratios(a.tsx.idleRssMb.p50, a.compiled.idleRssMb.p50, f.tsx.idleRssMb.p50, f.compiled.idleRssMb.p50),
        "",
      ],
      [
        s,
        `VmHWM after start-up (MB, ${runs}), tsx / compiled`,
        pair(a.tsx.startupPeakRssMb.p50, a.compiled.startupPeakRssMb.p50, 1),
        pair(f.tsx.startupPeakRssMb.p50, f.compiled.startupPeakRssMb.p50, 1),
        ratios(a.tsx.startupPeakRssMb.p50, a.compiled.startupPeakRssMb.p50, f.tsx.startupPeakRssMb.p50, f.compiled.startupPeakRssMb.p50),
        "",
      ],
    );
  }
  if (ak || floor) {
    const s = "1 turns · 2 floor";
    rows.push(...latencyRows(s, "to model", ak?.toModelMs, floor?.toModelMs, verdict("to model p99 ÷ floor", "≤ 1.3× floor")));
    rows.push(
      [
        s,
        "to model, first turn p50 / p99 (ms)",
        `${fmt(ak?.toModelFirstTurnMs.p50)} / ${fmt(ak?.toModelFirstTurnMs.p99)}`,
        `${fmt(floor?.toModelFirstTurnMs.p50)} / ${fmt(floor?.toModelFirstTurnMs.p99)}`,
        ak && floor
          ? `${fmt(ratio(ak.toModelFirstTurnMs.p50, floor.toModelFirstTurnMs.p50), 2)} / ${fmt(ratio(ak.toModelFirstTurnMs.p99, floor.toModelFirstTurnMs.p99), 2)}`
          : "–",
        "",
      ],
      [
        s,
        "to model, later turns p50 / p99 (ms)",
        `${fmt(ak?.toModelLaterTurnsMs.p50)} / ${fmt(ak?.toModelLaterTurnsMs.p99)}`,
        `${fmt(floor?.toModelLaterTurnsMs.p50)} / ${fmt(floor?.toModelLaterTurnsMs.p99)}`,
        ak && floor
          ? `${fmt(ratio(ak.toModelLaterTurnsMs.p50, floor.toModelLaterTurnsMs.p50), 2)} / ${fmt(ratio(ak.toModelLaterTurnsMs.p99, floor.toModelLaterTurnsMs.p99), 2)}`
          : "–",
        "",
      ],
    );
    rows.push(...latencyRows(s, "to final edit", ak?.toFinalMs, floor?.toFinalMs, verdict("to final edit p99 ÷ floor", "≤ 1.3× floor")));
    rows.push(
      [
        s,
        "cold first turn after start-up: to model / to final (ms)",
        ak?.coldTurn ? `${fmt(ak.coldTurn.toModelMs, 0)} / ${fmt(ak.coldTurn.toFinalMs, 0)}` : "–",
        floor?.coldTurn ? `${fmt(floor.coldTurn.toModelMs, 0)} / ${fmt(floor.coldTurn.toFinalMs, 0)}` : "–",
        "",
        "warm-up, not in the figures",
      ],
      [
        s,
        "REST calls per turn",
        fmt(ak?.restPerTurn, 2),
        fmt(floor?.restPerTurn, 2),
        ak && floor ? fmt(ratio(ak.restPerTurn, floor.restPerTurn), 2) : "–",
        verdict("REST calls per turn ÷ floor", "≤ 1.5× floor"),
      ],
      [
        s,
        "turns completed / planned",
        `${ak?.turnsCompleted ?? "–"} / ${ak?.turnsPlanned ?? "–"}`,
        `${floor?.turnsCompleted ?? "–"} / ${floor?.turnsPlanned ?? "–"}`,
        "",
        "",
      ],
      [s, "throughput (turns/s, completed ÷ wall)", fmt(ak?.turnsPerSecond, 2), fmt(floor?.turnsPerSecond, 2), "", ""],
      [s, "offered load (turns/s sent)", fmt(ak?.offeredTurnsPerSecond, 2), fmt(floor?.offeredTurnsPerSecond, 2), "", "< 50 REST/s"],
      [s, "peak REST requests in any 1 s", fmt(ak?.peakRestPerSecond, 0), fmt(floor?.peakRestPerSecond, 0), "", "< 50"],
      [s, "model calls per turn", fmt(ak?.modelCallsPerTurn, 2), fmt(floor?.modelCallsPerTurn, 2), "", ""],
      [
        s,
        "mean model request (bytes)",
        fmt(ak?.meanRequestBytes, 0),
        fmt(floor?.meanRequestBytes, 0),
        ak && floor ? fmt(ratio(ak.meanRequestBytes, floor.meanRequestBytes), 1) : "–",
        "",
      ],
      [
        s,
        "bot CPU per turn (ms, user+sys)",
        fmt(ak?.botCpuMsPerTurn),
        fmt(floor?.botCpuMsPerTurn),
        ak && floor ? fmt(ratio(ak.botCpuMsPerTurn, floor.botCpuMsPerTurn), 2) : "–",
        results.loadPairs && results.loadPairs.length > 1 ? "" : verdict(CPU_TARGET, "≤ 1.3× floor"),
      ],
      [
        s,
        "bot CPU per turn: main thread / other threads (pool, V8 helpers) (ms)",
        threadSplit(ak?.botCpuMsPerTurnByThread),
        threadSplit(floor?.botCpuMsPerTurnByThread),
        "",
        "",
      ],
      [s, `bot peak RSS during load (MB, ${runtime})`, fmt(ak?.botPeakRssMb), fmt(floor?.botPeakRssMb), "", ""],
    );
    const pairs = results.loadPairs;
    if (pairs && pairs.length > 1) {
      const ratios = summarize(pairs.map((p) => ratio(p.agentkit, p.floor)));
      rows.push([
        s,
        `bot CPU per turn, ${pairs.length} load runs of each bot, each a fresh process (ms, medians; AgentKit ÷ floor: the pairs' ratios, median (lowest – highest))`,
        fmt(summarize(pairs.map((p) => p.agentkit)).p50),
        fmt(summarize(pairs.map((p) => p.floor)).p50),
        `${fmt(ratios.p50, 2)} (${fmt(ratios.min, 2)} – ${fmt(ratios.max, 2)})`,
        verdict(CPU_TARGET, "≤ 1.3× floor"),
      ]);
    }
  }
  // Outside the block above: `--only floor-duties` alone still shows its figure.
  rows.push(...dutiesRows("1 turns · 2 floor", ak, results.floorDuties, results.loadPairs));
  const cpu = results.turnCpu;
  if (cpu) {
    const s = "1b turn CPU";
    const rounds = cpu.options.rounds;
    const kinds = [
      ["a new person's first turn (opening)", cpu.agentkit.openings, cpu.floor.openings, cpu.paired.openings],
      [`a later turn (${cpu.options.laterTurns} a session)`, cpu.agentkit.later, cpu.floor.later, cpu.paired.later],
    ] as const;
    for (const [what, a, f, paired] of kinds) {
      rows.push(
        [
          s,
          `CPU per turn, ${what} (ms, user+sys, median of ${rounds} rounds)`,
          fmt(a.total.p50, 2),
          fmt(f.total.p50, 2),
          fmt(ratio(a.total.p50, f.total.p50), 2),
          "",
        ],
        [s, `  main thread / other threads (ms)`, `${fmt(a.main.p50, 2)} / ${fmt(a.others.p50, 2)}`, `${fmt(f.main.p50, 2)} / ${fmt(f.others.p50, 2)}`, "", ""],
        [s, `  lowest – highest round (ms)`, `${fmt(a.total.min, 2)} – ${fmt(a.total.max, 2)}`, `${fmt(f.total.min, 2)} – ${fmt(f.total.max, 2)}`, "", ""],
      );
      rows.push([
        s,
        `  AgentKit ÷ floor within each round: median (lowest – highest)`,
        "",
        "",
        `${fmt(paired.p50, 2)} (${fmt(paired.min, 2)} – ${fmt(paired.max, 2)})`,
        "",
      ]);
    }
  }
  const ft = results.firstText;
  if (ft) {
    const s = "3 first text";
    rows.push(
      [
        s,
        `first visible text p50 / p95 (ms after first token)`,
        `${fmt(ft.firstVisibleMs.p50)} / ${fmt(ft.firstVisibleMs.p95)}`,
        "",
        "",
        verdict("first visible text p95", "≤ 300 ms"),
      ],
      [
        s,
        "edits per second of stream p50 / p95",
        `${fmt(ft.editsPerSecond.p50, 2)} / ${fmt(ft.editsPerSecond.p95, 2)}`,
        "",
        "",
        verdict("edits per second p95", "≤ 1 /s"),
      ],
      [s, "edits per answer p50 / max", `${fmt(ft.editsPerTurn.p50, 0)} / ${fmt(ft.editsPerTurn.max, 0)}`, "", "", ""],
      [s, "shortest gap between updates p50 / min (ms)", `${fmt(ft.minUpdateGapMs.p50, 0)} / ${fmt(ft.minUpdateGapMs.min, 0)}`, "", "", ""],
      [s, "last token → final text p50 / p95 (ms)", `${fmt(ft.finalLagMs.p50)} / ${fmt(ft.finalLagMs.p95)}`, "", "", ""],
      [s, "stream duration p50 (ms)", fmt(ft.streamDurationMs.p50, 0), "", "", ""],
    );
  }
  const ss = results.sessions;
  const sf = results.sessionsFloor;
  if (ss || sf) {
    const s = "4a sessions";
    const both = (f: (r: SessionsRssResult) => string) => [ss ? f(ss) : "–", sf ? f(sf) : "–"] as const;
    const n = ss?.options.sessions ?? sf?.options.sessions ?? 0;
    rows.push(
      [s, "sessions opened through Discord", ...both((r) => `${r.opened} / ${r.options.sessions}`), "", ""],
      [s, `RSS idle after login (MB, ${runtime})`, ...both((r) => fmt(r.idle.rssMb)), "", ""],
      [s, `VmRSS after ${n} sessions (MB)`, ...both((r) => fmt(r.loaded.rssMb)), ss && sf ? fmt(ratio(ss.loaded.rssMb, sf.loaded.rssMb), 2) : "–", ""],
      [
        s,
        `VmHWM, peak RSS since start (MB, ${runtime})`,
        ...both((r) => fmt(r.loaded.peakRssMb)),
        ss && sf ? fmt(ratio(ss.loaded.peakRssMb, sf.loaded.peakRssMb), 2) : "–",
        ss ? verdict(`peak RSS with ${ss.opened} sessions`, "≤ 250 MB") : "",
      ],
      [s, "RSS growth per session (KB)", ...both((r) => fmt(r.rssPerSessionKb, 0)), "", ""],
      [s, "time to open them (s)", ...both((r) => fmt(r.durationMs / 1000)), "", ""],
      [s, "session store size (MB)", ...both((r) => fmt(r.sessionStoreMb, 2)), "", ""],
    );
  }
  const rc = results.reconcile;
  if (rc) {
    const s = "4b reconcile";
    const name = `start-up + reconcile of ${rc.options.stored}`;
    rows.push(
      [
        s,
        "stored open sessions: active / archived / deleted (with exchange)",
        `${rc.mix.active} / ${rc.mix.archived} / ${rc.mix.deleted} (${rc.mix.withExchange})`,
        "",
        "",
        "",
      ],
      [s, `spawn → logged in (ms, ${runtime})`, fmt(rc.readyMs, 0), "", "", ""],
      [s, "logged in → sessions reconciled (ms)", fmt(rc.reconcileMs, 0), "", "", ""],
      [
        s,
        "spawn → sessions reconciled, ready (ms)",
        rc.timedOut ? `> ${rc.options.timeoutMs} (stopped; ${rc.sessionsClosedLogged} closed)` : fmt(rc.totalMs, 0),
        "",
        "",
        verdict(name, "≤ 5000 ms"),
      ],
      [
        s,
        "spawn → every start-up close done (ms)",
        rc.closesTimedOut ? `> ${rc.options.timeoutMs} (stopped; ${rc.sessionsClosedLogged} closed)` : fmt(rc.closesFinishedMs, 0),
        "",
        "",
        "",
      ],
      [s, "to close / resumed", rc.outcome ? `${rc.outcome.closed} / ${rc.outcome.resumed}` : `${rc.sessionsClosedLogged} / –`, "", "", ""],
      [
        s,
        "REST GET /channels/:id during start-up (per s)",
        `${fmt(rc.restDuringStart["GET /channels/:channelId"] ?? 0, 0)} (${fmt(rc.channelLookupsPerSecond)}/s)`,
        "",
        "",
        "",
      ],
      [s, "model calls (summaries) during start-up", fmt(rc.modelCalls, 0), "", "", ""],
      [s, "peak RSS during start-up (MB)", fmt(rc.peakRssMb), "", "", ""],
      [
        s,
        `a new mention ${fmt(rc.probe.sentAfterLoginMs / 1000)} s after login: sent → answer (ms)`,
        rc.probe.answeredMs === null ? "no answer" : `${fmt(rc.probe.answeredMs, 0)}${rc.probe.answeredBeforeReconciled === false ? " (after reconcile)" : ""}`,
        "",
        "",
        "",
      ],
    );
  }
  const pb = results.promptBuild;
  if (pb) {
    const s = "4c prompt";
    rows.push(
      [s, "snapshot p50 / p99 (µs)", `${fmt(pb.snapshotUs.p50, 0)} / ${fmt(pb.snapshotUs.p99, 0)}`, "", "", ""],
      [s, "build p50 / p99 (µs)", `${fmt(pb.buildUs.p50, 0)} / ${fmt(pb.buildUs.p99, 0)}`, "", "", verdict("prompt build alone p99", "≤ 2000 µs")],
      [
        s,
        "snapshot + build p50 / p99 (µs), public thread with SERVER.md and 2 private sections (floor: a DM)",
        `${fmt(pb.totalUs.p50, 0)} / ${fmt(pb.totalUs.p99, 0)}`,
        `${fmt(pb.floorTotalUs.p50, 0)} / ${fmt(pb.floorTotalUs.p99, 0)}`,
        `${fmt(ratio(pb.totalUs.p50, pb.floorTotalUs.p50), 2)} / ${fmt(ratio(pb.totalUs.p99, pb.floorTotalUs.p99), 2)}`,
        verdict("snapshot + prompt build p99", "≤ 2000 µs"),
      ],
      [s, "prompt size (chars)", String(pb.promptChars), "", "", ""],
    );
  }
  const save = results.sessionSave;
  if (save) {
    const s = "4h session save";
    const o = save.options;
    rows.push(
      [
        s,
        `CPU per save, all threads (µs, user+sys; median of ${o.rounds} rounds of ${o.sessions} sessions × ${o.turns} turns, a ${o.promptChars}-char prompt; floor: keyv's own set)`,
        fmt(save.agentkitUs.p50, 0),
        fmt(save.floorUs.p50, 0),
        fmt(ratio(save.agentkitUs.p50, save.floorUs.p50), 2),
        "",
      ],
      [s, "record after the last save (chars)", String(save.recordChars), "", "", ""],
    );
  }
  const ic = results.injectionCheck;
  if (ic) {
    const s = "4d injection check";
    const pair = (summary: Summary) => `${fmt(summary.p50, 1)} / ${fmt(summary.p99, 1)}`;
    rows.push(
      [
        s,
        `model's write, ${ic.noteChars.join(" / ")}-char notes: p50 / p99 (µs)`,
        pair(ic.toolUs),
        pair(ic.floorUs),
        `${fmt(ratio(ic.toolUs.p50, ic.floorUs.p50), 1)} / ${fmt(ratio(ic.toolUs.p99, ic.floorUs.p99), 1)}`,
        verdict("injection check on a 2,000-char write p99", "≤ 1000 µs"),
      ],
      [
        s,
        "person's edit, same notes: p50 / p99 (µs)",
        pair(ic.personUs),
        pair(ic.floorUs),
        `${fmt(ratio(ic.personUs.p50, ic.floorUs.p50), 1)} / ${fmt(ratio(ic.personUs.p99, ic.floorUs.p99), 1)}`,
        "",
      ],
    );
  }
  const sc = results.secretCheck;
  if (sc) {
    const s = "4e secrets";
    const us = (x: Summary) => `${fmt(x.p50, 0)} / ${fmt(x.p99, 0)}`;
    const times = (x: Summary) => `${fmt(ratio(x.p50, sc.floorUs.p50), 1)} / ${fmt(ratio(x.p99, sc.floorUs.p99), 1)}`;
    const share = (n: number, of: number) => `${n} / ${of} (${fmt((100 * n) / of, 1)}%)`;
    rows.push(
      [
        s,
        "corpus secrets kept out of memory (found and masked)",
        share(sc.corpus.caught, sc.corpus.secrets),
        share(sc.corpusFloor.caught, sc.corpusFloor.secrets),
        "",
        "≥ 97%",
      ],
      [s, "corpus secrets named right", share(sc.corpus.namedRight, sc.corpus.secrets), "", "", ""],
      [
        s,
        "ordinary notes flagged by mistake",
        share(sc.corpus.falseAlarms, sc.corpus.ordinary),
        share(sc.corpusFloor.falseAlarms, sc.corpusFloor.ordinary),
        "",
        "≤ 1%",
      ],
      [s, `findSecret, ${sc.noteChars}-char note p50 / p99 (µs)`, us(sc.findUs), us(sc.floorUs), times(sc.findUs), ""],
      [s, "maskSecrets p50 / p99 (µs)", us(sc.maskUs), us(sc.floorUs), times(sc.maskUs), ""],
      [s, "memory write check p50 / p99 (µs)", us(sc.writeUs), us(sc.floorUs), times(sc.writeUs), ""],
      [s, "memory write check, CPU time p50 / p99 (µs)", us(sc.writeCpuUs), "", "", verdict("secret check of a 2,000-char write p99 (CPU time)", "≤ 1000 µs")],
    );
  }
  if (results.instructionCheck) rows.push(...instructionCheckRows(results.instructionCheck));
  const td = results.tidy;
  if (td) {
    const s = "4f tidy-up";
    rows.push(
      [s, "one person's request: characters / estimated tokens (÷ 4)", `${td.request.chars} / ${td.request.estimatedTokens}`, "", "", ""],
      [
        s,
        `a night of ${td.night.people} people at concurrency ${td.options.concurrency}, model ${td.options.modelMs} ms: wall (s)`,
        fmt(td.night.wallMs / 1000, 1),
        "",
        "",
        "",
      ],
      [s, "AgentKit's own time per run (ms)", fmt(td.night.ownMsPerRun, 1), "", "", ""],
      [s, "10,000 people with a 5 s model, projected (h)", fmt(td.night.projectedHoursAt5s, 1), "", "", ""],
      [
        s,
        `one person's turns while a night of ${td.options.busyRuns} runs (model ${td.options.busyModelMs} ms; ${td.turns.runsDuring} asked meanwhile), p50 / p99 (ms)`,
        `${fmt(td.turns.busyMs.p50, 1)} / ${fmt(td.turns.busyMs.p99, 1)}`,
        `${fmt(td.turns.floorMs.p50, 1)} / ${fmt(td.turns.floorMs.p99, 1)}`,
        `${fmt(ratio(td.turns.busyMs.p50, td.turns.floorMs.p50), 2)} / ${fmt(ratio(td.turns.busyMs.p99, td.turns.floorMs.p99), 2)}`,
        verdict("turn p99 with tidy-ups running ÷ without", "≤ 1.3×"),
      ],
    );
  }
  out.push(`## AgentKit benchmark`, "");
  out.push(
    `options: ${Object.entries(o)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(
        " ",
      )} · bots run ${runtime === "compiled" ? "compiled (node dist/index.js)" : "under tsx (node --import tsx src/index.ts)"} · node ${results.machine.node} · ${results.machine.cpus} CPUs · load average ${results.machine.loadAverageAtStart.map((l) => l.toFixed(2)).join(" ")} at start, ${results.machine.loadAverageAtEnd.map((l) => l.toFixed(2)).join(" ")} at end`,
    "",
    `source: ${results.source.commit}${results.source.srcChanges.length > 0 ? ` with uncommitted changes in ${results.source.srcChanges.map((c) => c.slice(3)).join(", ")}` : ""}`,
    "",
  );
  if (rows.length > 0) out.push(table(["section", "metric", "AgentKit", "floor", "AgentKit ÷ floor", "target"], rows));
  if (o.floorTransport === "undici") {
    out.push(
      "",
      "The floors sent their model requests with undici's request, as AgentKit does (`--floor-transport undici`): the target's floor is a bot written the usual way, with the SDK's own fetch.",
    );
  }
  if (results.sharded || results.reconcileRedis) out.push(...(rows.length > 0 ? [""] : []), renderSharded(results, verdict));
  if (results.web) out.push(...(rows.length > 0 || results.sharded || results.reconcileRedis ? [""] : []), renderWeb(results.web));
  if (results.webTurns) out.push("", renderWebTurns(results.webTurns));
  if (ak || floor) {
    const routes = [...new Set([...Object.keys(ak?.restPerTurnByRoute ?? {}), ...Object.keys(floor?.restPerTurnByRoute ?? {})])];
    out.push("", "REST calls per turn by route (load phase):", "");
    out.push(
      table(
        ["route", "AgentKit", "floor"],
        routes.map((r) => [r, fmt(ak?.restPerTurnByRoute[r] ?? 0, 3), fmt(floor?.restPerTurnByRoute[r] ?? 0, 3)]),
      ),
    );
  }
  if (results.turnOverheadMetrics) out.push("", renderMetricsOn(ak, results.turnOverheadMetrics, floor));
  if (results.targets.length > 0) {
    out.push("", "Targets:", "");
    out.push(
      table(
        ["target", "value", "limit", ""],
        results.targets.map((t) => [t.name, `${fmt(t.value, 2)} ${t.unit}`, `${t.limit} ${t.unit}`, mark(t.ok)]),
      ),
    );
  }
  if (results.errors.length > 0) {
    out.push("", "Sections that failed:", "", ...results.errors.map((e) => `- ${e.section}: ${e.message}`));
  }
  const sh = results.sharded;
  const failures = [
    ...(ak?.failures ?? []),
    ...(sh
      ? [sh.floor, sh.single, sh.singleRedis, sh.sharded].flatMap((r) =>
          r.failures.map((f) => `${r.bot}${r.botProcesses > 1 ? ` ×${r.botProcesses}` : ""}: ${f}`),
        )
      : []),
    ...(results.turnOverheadMetrics?.failures ?? []),
    ...(floor?.failures ?? []),
    ...(results.floorDuties?.failures.map((f) => `floor with duties: ${f}`) ?? []),
    ...(ft?.failures ?? []),
    ...(ss?.failures ?? []),
  ];
  if (failures.length > 0) out.push("", `Turns that failed (${failures.length}):`, "", ...failures.slice(0, 20).map((f) => `- ${f}`));
  return out.join("\n");
}

/**
 * AgentKit beside the floor that does its per-turn duties (floor-bot.ts, FLOOR_DUTIES): how much of
 * the gap to the bare floor a bot with memory cannot avoid. No target: the target is the bare floor's.
 */
export function dutiesRows(s: string, ak: LoadResult | undefined, duties: LoadResult | undefined, pairs: LoadPair[] | undefined): Row[] {
  if (!duties) return [];
  // Its CPU is divided by the turns that completed: a failed turn is said, not left out quietly.
  const failed = duties.failures.length > 0 ? `; ${duties.failures.length} of its turns failed, see below` : "";
  const what = `bot CPU per turn against a floor with AgentKit's per-turn duties (a 10,399-character prompt, the conversation so far, one SQLite save before the answer${failed})`;
  const paired = (pairs ?? []).filter((p): p is LoadPair & { floorDuties: number } => p.floorDuties !== undefined);
  if (paired.length > 1) {
    const ratios = summarize(paired.map((p) => ratio(p.agentkit, p.floorDuties)));
    return [
      [
        s,
        `${what}, ${paired.length} load runs of each bot (ms, medians; the pairs' ratios, median (lowest – highest))`,
        fmt(summarize(paired.map((p) => p.agentkit)).p50),
        fmt(summarize(paired.map((p) => p.floorDuties)).p50),
        `${fmt(ratios.p50, 2)} (${fmt(ratios.min, 2)} – ${fmt(ratios.max, 2)})`,
        "",
      ],
    ];
  }
  return [[s, `${what} (ms)`, fmt(ak?.botCpuMsPerTurn), fmt(duties.botCpuMsPerTurn), ak ? fmt(ratio(ak.botCpuMsPerTurn, duties.botCpuMsPerTurn), 2) : "–", ""]];
}
