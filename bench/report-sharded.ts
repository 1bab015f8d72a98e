import type { LoadResult } from "./load.js";
import type { ReconcileResult } from "./scale-reconcile.js";
import type { ShardedLoadResult } from "./sharded.js";
import { ratio, round } from "./stats.js";

export interface ShardedTargetInput {
  sharded?: ShardedLoadResult;
  reconcileRedis?: { single: ReconcileResult; sharded: ReconcileResult };
}

const fmt = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined || Number.isNaN(value) ? "–" : Number.isFinite(value) ? String(round(value, digits)) : "∞";

/** Target names of the sharded sections, checked in report.ts's checkTargets(). */
export function shardedTargets(results: ShardedTargetInput, add: (name: string, value: number | null, limit: number, unit: string) => void): void {
  const sh = results.sharded;
  if (sh) {
    const n = `${sh.shards} shards + Redis`;
    add(`${n}: to model p99 ÷ floor`, ratio(sh.sharded.toModelMs.p99, sh.floor.toModelMs.p99), 1.3, "×");
    add(`${n}: to final edit p99 ÷ floor`, ratio(sh.sharded.toFinalMs.p99, sh.floor.toFinalMs.p99), 1.3, "×");
    add(`${n}: REST calls per turn ÷ floor`, ratio(sh.sharded.restPerTurn, sh.floor.restPerTurn), 1.5, "×");
  }
  const rr = results.reconcileRedis;
  if (rr) {
    for (const [label, r] of [
      ["1 process", rr.single],
      [`${rr.sharded.options.botShards ?? 2} shards`, rr.sharded],
    ] as const) {
      add(`Redis, ${label}: start-up + reconcile of ${r.options.stored}`, r.totalMs ?? r.options.timeoutMs, 5000, "ms");
    }
  }
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The tables of `--only sharded,reconcile-redis`; `verdict(name, text)` appends ✅/❌ of a checked target. */
export function renderSharded(results: ShardedTargetInput, verdict: (name: string, text: string) => string): string {
  const out: string[] = [];
  const sh = results.sharded;
  if (sh) {
    const n = `${sh.shards} shards + Redis`;
    const runs: [string, LoadResult][] = [
      ["floor", sh.floor],
      ["AgentKit, 1 process (SQLite)", sh.single],
      ["AgentKit, 1 process (Redis)", sh.singleRedis],
      [`AgentKit, ${n}`, sh.sharded],
    ];
    const row = (metric: string, value: (r: LoadResult) => string, ratioOf?: (r: LoadResult) => number, target = ""): string[] => [
      metric,
      ...runs.map(([, r]) => value(r)),
      ratioOf ? fmt(ratio(ratioOf(sh.sharded), ratioOf(sh.floor)), 2) : "",
      target,
    ];
    const pair = (a: number, b: number, digits = 1) => `${fmt(a, digits)} / ${fmt(b, digits)}`;
    out.push(
      `### Sharded: ${sh.people} people × ${sh.turns} turns, spread over ${sh.sharded.guilds} guilds (one per shard), in every run`,
      "",
      table(
        ["metric", ...runs.map(([name]) => name), `${sh.shards} shards ÷ floor`, "target"],
        [
          row(
            "to model p50 / p99 (ms)",
            (r) => pair(r.toModelMs.p50, r.toModelMs.p99),
            (r) => r.toModelMs.p99,
            verdict(`${n}: to model p99 ÷ floor`, "p99 ≤ 1.3× floor"),
          ),
          row(
            "to final edit p50 / p99 (ms)",
            (r) => pair(r.toFinalMs.p50, r.toFinalMs.p99),
            (r) => r.toFinalMs.p99,
            verdict(`${n}: to final edit p99 ÷ floor`, "p99 ≤ 1.3× floor"),
          ),
          row(
            "REST calls per turn",
            (r) => fmt(r.restPerTurn, 2),
            (r) => r.restPerTurn,
            verdict(`${n}: REST calls per turn ÷ floor`, "≤ 1.5× floor"),
          ),
          row(
            "bot CPU per turn (ms, user+sys, all processes)",
            (r) => fmt(r.botCpuMsPerTurn),
            (r) => r.botCpuMsPerTurn,
          ),
          row(
            "peak RSS (MB, VmHWM summed over processes)",
            (r) => fmt(r.botPeakRssMb),
            (r) => r.botPeakRssMb,
          ),
          row("bot processes", (r) => String(r.botProcesses)),
          row("per process: peak RSS (MB) · CPU per turn (ms), launcher first", (r) =>
            r.botProcesses > 1 ? r.botProcessBreakdown.map((p) => `${fmt(p.peakRssMb, 0)} · ${fmt(p.cpuMsPerTurn)}`).join(", ") : "",
          ),
          row("turns completed / planned", (r) => `${r.turnsCompleted} / ${r.turnsPlanned}`),
          row("throughput (turns/s)", (r) => fmt(r.turnsPerSecond, 2)),
          row("peak REST requests in any 1 s", (r) => fmt(r.peakRestPerSecond, 0)),
          row("cold first turn: to model / to final (ms)", (r) => (r.coldTurn ? pair(r.coldTurn.toModelMs, r.coldTurn.toFinalMs, 0) : "–")),
        ],
      ),
    );
  }
  const rr = results.reconcileRedis;
  if (rr) {
    const shards = rr.sharded.options.botShards ?? 2;
    const cols: [string, ReconcileResult][] = [
      ["1 process, Redis", rr.single],
      [`${shards} shards, Redis`, rr.sharded],
    ];
    const row = (metric: string, value: (r: ReconcileResult) => string, target = ""): string[] => [metric, ...cols.map(([, r]) => value(r)), target];
    const stored = rr.single.options.stored;
    out.push(
      "",
      `### Reconcile of ${stored} stored sessions from Redis (threads over ${rr.single.options.spreadOverShards ?? 1} guilds, one per shard)`,
      "",
      table(
        ["metric", ...cols.map(([name]) => name), "target"],
        [
          row(
            "stored open sessions: active / archived / deleted (with exchange)",
            (r) => `${r.mix.active} / ${r.mix.archived} / ${r.mix.deleted} (${r.mix.withExchange})`,
          ),
          row("seeding through SessionStore.save() (s) · Redis used_memory (MB)", (r) => `${fmt(r.populateMs / 1000)} · ${fmt(r.storeMb)}`),
          row("spawn → logged in (ms; sharded: the last shard)", (r) => fmt(r.readyMs, 0)),
          row("spawn → all shards ready (launcher, ms)", (r) => (r.allShardsReadyMs === undefined ? "" : fmt(r.allShardsReadyMs, 0))),
          row(
            "spawn → sessions reconciled, ready (ms; sharded: the last shard)",
            (r) => (r.timedOut ? `> ${r.options.timeoutMs}` : fmt(r.totalMs, 0)),
            `≤ 5000 ms ${cols.map(([label, r]) => verdict(`Redis, ${label.split(",")[0]}: start-up + reconcile of ${r.options.stored}`, "").trim()).join(" ")}`,
          ),
          row("per shard: spawn → logged in / → reconciled (ms)", (r) =>
            r.perShard ? r.perShard.map((s) => `#${s.shard} ${fmt(s.readyMs, 0)} / ${fmt(s.totalMs, 0)}`).join(", ") : "",
          ),
          row("spawn → every start-up close done (ms)", (r) => (r.closesTimedOut ? `> ${r.options.timeoutMs}` : fmt(r.closesFinishedMs, 0))),
          row("to close / resumed", (r) => (r.outcome ? `${r.outcome.closed} / ${r.outcome.resumed}` : "–")),
          row("REST GET /channels/:id during start-up", (r) => fmt(r.restDuringStart["GET /channels/:channelId"] ?? 0, 0)),
          row("model calls (summaries) during start-up", (r) => fmt(r.modelCalls, 0)),
          row("peak RSS during start-up (MB, summed over processes)", (r) => fmt(r.peakRssMb)),
          row("a new mention 1 s after login: sent → answer (ms)", (r) => (r.probe.answeredMs === null ? "no answer" : fmt(r.probe.answeredMs, 0))),
        ],
      ),
    );
  }
  return out.join("\n");
}
