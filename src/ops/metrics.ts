import { RESTEvents, type REST } from "discord.js";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import {
  DROP_REASONS,
  TIDY_KINDS,
  type MemoryWriteResult,
  type ModelOutcome,
  type SessionStatus,
  type Telemetry,
  type TidyRunOutcome,
  type TurnOutcome,
} from "../lib/telemetry.js";
import { withTimeout } from "../lib/with-timeout.js";

/** What the sessions gauge reads at scrape time (SessionStore). */
export interface SessionCounts {
  countByStatus(): Promise<Record<SessionStatus, number>>;
}

export interface Metrics {
  /** Its own registry: nothing else in the process (or a test) adds to it. */
  registry: Registry;
  /** For createEngine: counts turns, model requests, tokens and memory writes. */
  telemetry: Telemetry;
  /** Sessions by status, read from the store when Prometheus scrapes, never on a turn. */
  countSessions(store: SessionCounts): void;
  /** Counts Discord's 429 answers and the requests discord.js held back for a rate limit. */
  watchDiscordRest(rest: REST): void;
}

export interface MetricsOptions {
  /** In a shard's process: every series carries `shard="<id>"`. */
  shard?: number | undefined;
  /** How long a scrape waits for the session store's counts. */
  storeTimeoutMs?: number;
}

// Records, so a new outcome, result or status fails to compile until it is listed here.
const TURN_OUTCOMES: Record<TurnOutcome, true> = { ok: true, stopped: true, error: true };
const MODEL_OUTCOMES: Record<ModelOutcome, true> = {
  ok: true,
  stopped: true,
  unreachable: true,
  auth: true,
  "rate-limit": true,
  server: true,
  "bad-response": true,
  timeout: true,
  refused: true,
  "wrong-base-url": true,
};
const WRITE_RESULTS: Record<MemoryWriteResult, true> = {
  saved: true,
  unchanged: true,
  pending: true,
  "over-cap": true,
  unsafe: true,
  secret: true,
  other: true,
};
const STATUSES: Record<SessionStatus, true> = { open: true, closing: true, "pending-summary": true, closed: true };
const SCOPES = ["user", "global", "shared"] as const;
const TOKEN_TYPES = ["in", "out", "cached"] as const;

const TIDY_OUTCOMES: readonly TidyRunOutcome[] = [
  "done",
  "proposed",
  "nothing",
  "no-news",
  "failed-model",
  "failed-not-a-plan",
  "failed-over-cap",
  "failed-changed",
];

/** From a millisecond to two minutes: AgentKit's own part is milliseconds, the model's seconds. */
const TURN_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The Prometheus side of Telemetry. Label values are fixed words: never a person's id or text. */
export function createMetrics({ shard, storeTimeoutMs = 2000 }: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (shard !== undefined) registry.setDefaultLabels({ shard: String(shard) });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const turns = new Counter({
    name: "agentkit_turns_total",
    help: "Turns finished, by outcome (error: the model failed or the session could not be saved).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const turnSeconds = new Histogram({
    name: "agentkit_turn_seconds",
    help: "Time of one turn inside the engine: part=model waiting on model requests, part=own everything else (tools, memory, saving).",
    labelNames: ["part"] as const,
    buckets: TURN_BUCKETS,
    registers,
  });
  const modelRequests = new Counter({
    name: "agentkit_model_requests_total",
    help: "Model requests (turn rounds and summaries), by final outcome after the SDK's retries.",
    labelNames: ["outcome"] as const,
    registers,
  });
  const tokens = new Counter({
    name: "agentkit_model_tokens_total",
    help: "Tokens the model server reported: in (prompt, cached included), out (completion), cached (prompt tokens served from its cache).",
    labelNames: ["type"] as const,
    registers,
  });
  const memoryWrites = new Counter({
    name: "agentkit_memory_writes_total",
    help: "Memory writes the model asked for, by result: saved, unchanged, pending (waits for the person's OK), or refused (over-cap, unsafe, secret, other).",
    labelNames: ["result"] as const,
    registers,
  });
  const rest429 = new Counter({
    name: "agentkit_discord_rest_429_total",
    help: "Discord REST answers with status 429, by the scope Discord gave.",
    labelNames: ["scope"] as const,
    registers,
  });
  const restWaits = new Counter({
    name: "agentkit_discord_rate_limit_waits_total",
    help: "REST requests discord.js held back to stay within a rate limit (global: the 50/s limit).",
    labelNames: ["global"] as const,
    registers,
  });
  const tidyRuns = new Counter({
    name: "agentkit_tidy_runs_total",
    help: "Nightly tidy-up runs, by outcome: done, proposed (tidy_up:ask), nothing (no change passed), no-news (nothing said since the last run), failed-model, failed-not-a-plan, failed-over-cap, failed-changed (memory edited or forgotten while the model worked).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const tidyOperations = new Counter({
    name: "agentkit_tidy_operations_total",
    help: "Operations tidy-ups applied, by kind (merge, replace, remove, move).",
    labelNames: ["kind"] as const,
    registers,
  });
  const tidyDropped = new Counter({
    name: "agentkit_tidy_dropped_total",
    help: "Operations of a tidy-up's plan that code dropped, by the check that dropped them (quote, person-written, bounded-loss, soul, secret, unsafe, relative-date, not-found, invalid).",
    labelNames: ["check"] as const,
    registers,
  });
  // Every series exists from the start at 0, so rate() and alerts see the first event.
  for (const outcome of TIDY_OUTCOMES) tidyRuns.inc({ outcome }, 0);
  for (const kind of TIDY_KINDS) tidyOperations.inc({ kind }, 0);
  for (const check of DROP_REASONS) tidyDropped.inc({ check }, 0);
  for (const outcome of Object.keys(TURN_OUTCOMES)) turns.inc({ outcome }, 0);
  for (const part of ["own", "model"]) turnSeconds.zero({ part });
  for (const outcome of Object.keys(MODEL_OUTCOMES)) modelRequests.inc({ outcome }, 0);
  for (const type of TOKEN_TYPES) tokens.inc({ type }, 0);
  for (const result of Object.keys(WRITE_RESULTS)) memoryWrites.inc({ result }, 0);
  for (const scope of SCOPES) rest429.inc({ scope }, 0);
  for (const global of ["true", "false"]) restWaits.inc({ global }, 0);

  const telemetry: Telemetry = {
    turn(outcome, ownMs, modelMs) {
      turns.inc({ outcome });
      turnSeconds.observe({ part: "own" }, Math.max(0, ownMs) / 1000);
      turnSeconds.observe({ part: "model" }, modelMs / 1000);
    },
    modelRequest(outcome) {
      modelRequests.inc({ outcome });
    },
    tokens(usage) {
      tokens.inc({ type: "in" }, usage.promptTokens);
      tokens.inc({ type: "out" }, usage.completionTokens);
      tokens.inc({ type: "cached" }, usage.cachedTokens);
    },
    memoryWrite(result) {
      memoryWrites.inc({ result });
    },
    tidyRun(outcome, applied, dropped) {
      tidyRuns.inc({ outcome });
      // Only known words become labels: a series per unknown word is never made.
      for (const kind of TIDY_KINDS) if (applied[kind]) tidyOperations.inc({ kind }, applied[kind]);
      for (const check of DROP_REASONS) if (dropped[check]) tidyDropped.inc({ check }, dropped[check]);
    },
  };

  return {
    registry,
    telemetry,
    countSessions(store) {
      // One store query per scrape, shared by both gauges (prom-client collects them side by side).
      let reading: Promise<Record<SessionStatus, number> | undefined> | undefined;
      const counts = () =>
        (reading ??= withTimeout(store.countByStatus(), storeTimeoutMs)
          .catch(() => undefined)
          .finally(() => (reading = undefined)));
      new Gauge({
        name: "agentkit_sessions",
        help: "Stored sessions by status, read from the session store at scrape time (pending-summary: closes waiting for the model to summarise).",
        labelNames: ["status"] as const,
        registers,
        async collect() {
          const now = await counts();
          this.reset();
          if (now) for (const status of Object.keys(STATUSES) as SessionStatus[]) this.set({ status }, now[status] ?? 0);
        },
      });
      new Gauge({
        name: "agentkit_session_store_up",
        help: "1 when the session store answered this scrape's count (within the timeout), else 0 and no session counts.",
        registers,
        async collect() {
          this.set((await counts()) ? 1 : 0);
        },
      });
    },
    watchDiscordRest(rest) {
      rest.on(RESTEvents.Response, (_request, response) => {
        if (response.status !== 429) return;
        const scope = response.headers.get("x-ratelimit-scope");
        rest429.inc({ scope: scope === "global" || scope === "shared" ? scope : "user" });
      });
      rest.on(RESTEvents.RateLimited, (info) => restWaits.inc({ global: String(info.global) }));
    },
  };
}
