/**
 * `npm run bench [-- flags]`: drives the real bot process through the fake Discord and a bench
 * model on loopback, prints a Markdown table and writes the same figures to
 * bench/results/latest.json. See bench/README.md for what each figure measures.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compiledBuild, RUNTIMES, type Runtime } from "./bots.js";
import { measureFirstText } from "./first-text.js";
import { measureFloor, measureFloorWithDuties } from "./floor.js";
import type { LoadOptions } from "./load.js";
import { measureTurnOverheadWithMetrics } from "./metrics-on.js";
import { cleanupEverything, ROOT, withTimeout } from "./processes.js";
import { measureInjectionCheck } from "./injection-check.js";
import { measureInstructionCheck } from "./instruction-check.js";
import { measurePromptBuild } from "./prompt-build.js";
import { measureSessionSave } from "./session-save.js";
import { measureSecretCheck } from "./secret-check.js";
import { checkTargets, renderReport, type BenchResults, type LoadPair } from "./report.js";
import { measureReconcile } from "./scale-reconcile.js";
import { measureSessionsRss } from "./scale-sessions.js";
import { measureSharded } from "./sharded.js";
import { measureStartup } from "./startup.js";
import { measureTurnOverhead } from "./turn-overhead.js";
import { measureTurnCpu } from "./turn-cpu.js";
import { measureTidy } from "./tidy.js";
import { measureWeb } from "./web.js";
import { measureWebTurns } from "./web-turns.js";

const SECTIONS = [
  "startup",
  "turn-overhead",
  "floor",
  "floor-duties",
  "turn-cpu",
  "first-text",
  "scale-sessions",
  "scale-reconcile",
  "prompt-build",
  "session-save",
  "injection-check",
  "secret-check",
  "instruction-check",
  "tidy",
  "web-pages",
  "web-turns",
  "sharded",
  "reconcile-redis",
] as const;
type Section = (typeof SECTIONS)[number];
/** Run only when named with --only: each adds minutes (four load runs; two seedings of Redis and start-ups). */
const OPT_IN: readonly Section[] = ["sharded", "reconcile-redis"];
/** `--only scale` is the three scale sections. */
const GROUPS: Record<string, readonly Section[]> = {
  scale: ["scale-sessions", "scale-reconcile", "prompt-build", "secret-check"],
  compare: ["turn-overhead", "floor", "floor-duties", "turn-cpu", "session-save"],
  sharding: ["sharded", "reconcile-redis"],
  /** The page's own times, and other people's turns while the heaviest one is reloaded. */
  web: ["web-pages", "web-turns"],
};

const { values } = parseArgs({
  options: {
    people: { type: "string", default: "50" },
    turns: { type: "string", default: "5" },
    "ttft-ms": { type: "string", default: "0" },
    "tokens-per-second": { type: "string", default: "0" },
    "pause-ms": { type: "string", default: "3000" },
    "spread-ms": { type: "string", default: "5000" },
    "reply-words": { type: "string", default: "12" },
    sessions: { type: "string", default: "1000" },
    "session-concurrency": { type: "string", default: "10" },
    stored: { type: "string", default: "10000" },
    "archived-share": { type: "string", default: "0.2" },
    "deleted-share": { type: "string", default: "0.1" },
    "reconcile-timeout-ms": { type: "string", default: "240000" },
    "first-text-people": { type: "string", default: "10" },
    iterations: { type: "string", default: "2000" },
    runtime: { type: "string", default: "compiled" },
    "startup-runs": { type: "string", default: "3" },
    "cpu-rounds": { type: "string", default: "3" },
    "load-pairs": { type: "string", default: "1" },
    "floor-transport": { type: "string", default: "fetch" },
    shards: { type: "string", default: "2" },
    only: { type: "string" },
    metrics: { type: "boolean", default: false },
    "cpu-prof-dir": { type: "string" },
    "cpu-prof-interval": { type: "string", default: "1000" },
    "tidy-people": { type: "string", default: "10000" },
    "tidy-model-ms": { type: "string", default: "20" },
    "tidy-busy": { type: "string", default: "1000" },
    "tidy-busy-model-ms": { type: "string", default: "1000" },
    "web-requests": { type: "string", default: "200" },
    "web-messages": { type: "string", default: "10000" },
    out: { type: "string", default: join(ROOT, "bench", "results", "latest.json") },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (values.help) {
  console.log(`npm run bench -- [--people 50] [--turns 5] [--ttft-ms 0] [--tokens-per-second 0] [--pause-ms 3000]
  [--spread-ms 5000] [--reply-words 12] [--sessions 1000] [--session-concurrency 10] [--stored 10000]
  [--archived-share 0.2] [--deleted-share 0.1] [--reconcile-timeout-ms 240000] [--first-text-people 10]
  [--iterations 2000] [--tidy-people 10000] [--tidy-model-ms 20] [--tidy-busy 1000] [--tidy-busy-model-ms 1000] [--web-requests 200] [--web-messages 10000] [--runtime compiled|tsx] [--startup-runs 3] [--cpu-rounds 3] [--load-pairs 1] [--floor-transport fetch|undici] [--shards 2] [--only ${[...SECTIONS, ...Object.keys(GROUPS)].join("|")}[,…]]
  [--cpu-prof-dir /tmp/prof [--cpu-prof-interval µs]] [--out bench/results/latest.json]
  [--metrics]  turn-overhead runs AgentKit a second time with METRICS_PORT set, /metrics scraped every 5 s
  [--floor-transport undici]  the floors send their model requests as AgentKit does (undici's request), not with the SDK's fetch
  ${OPT_IN.join(", ")} run only when named in --only (or --only sharding)`);
  process.exit(0);
}

function num(name: keyof typeof values): number {
  const raw = values[name];
  const value = Number(raw);
  if (typeof raw !== "string" || !Number.isFinite(value) || value < 0) {
    console.error(`--${name} must be a number ≥ 0 (got ${String(raw)})`);
    process.exit(2);
  }
  return value;
}

const only = new Set<Section>();
for (const name of (values.only ?? SECTIONS.filter((s) => !OPT_IN.includes(s)).join(","))
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean)) {
  const group = GROUPS[name];
  if (group) group.forEach((s) => only.add(s));
  else if ((SECTIONS as readonly string[]).includes(name)) only.add(name as Section);
  else {
    console.error(`--only: unknown section "${name}" (${[...SECTIONS, ...Object.keys(GROUPS)].join(", ")})`);
    process.exit(2);
  }
}

if (!(RUNTIMES as readonly string[]).includes(values.runtime)) {
  console.error(`--runtime must be ${RUNTIMES.join(" or ")} (got ${values.runtime})`);
  process.exit(2);
}
/** How every section but startup (which runs both) starts the bots: compiled, as production does. */
const runtime = values.runtime as Runtime;

const people = Math.max(1, Math.round(num("people")));
const turns = Math.max(1, Math.round(num("turns")));
const load: LoadOptions = {
  people,
  turns,
  pauseMs: num("pause-ms"),
  spreadMs: num("spread-ms"),
  ttftMs: num("ttft-ms"),
  tokensPerSecond: num("tokens-per-second"),
  replyWords: Math.max(3, Math.round(num("reply-words"))),
  turnTimeoutMs: 30_000,
  runtime,
};

process.on("exit", cleanupEverything);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    cleanupEverything();
    process.exit(130);
  });
}

const results: BenchResults = {
  startedAt: new Date().toISOString(),
  finishedAt: "",
  options: {
    people,
    turns,
    ttftMs: load.ttftMs,
    tokensPerSecond: load.tokensPerSecond,
    pauseMs: load.pauseMs,
    spreadMs: load.spreadMs,
    replyWords: load.replyWords,
    sessions: num("sessions"),
    stored: num("stored"),
    runtime,
    only: [...only].join(","),
    metrics: values.metrics,
    floorTransport: values["floor-transport"],
    ...(only.has("sharded") || only.has("reconcile-redis") ? { shards: Math.max(2, Math.round(num("shards"))) } : {}),
  },
  source: sourceVersion(),
  machine: { node: process.version, cpus: cpus().length, platform: process.platform, loadAverageAtStart: loadavg(), loadAverageAtEnd: [] },
  targets: [],
  errors: [],
};

/** Which code was measured: others edit src/ while benchmarks run. Read-only git calls. */
function sourceVersion(): { commit: string; srcChanges: string[] } {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" });
    const srcChanges = git("status", "--porcelain", "--", "src").split("\n").filter(Boolean);
    return { commit: git("rev-parse", "--short", "HEAD").trim(), srcChanges };
  } catch {
    return { commit: "unknown", srcChanges: [] };
  }
}

async function section(name: Section, hardLimitMs: number, work: () => Promise<void>): Promise<void> {
  if (!only.has(name)) return;
  const started = Date.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    await withTimeout(name, hardLimitMs, work());
    process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const message = (error as Error).message.split("\n").slice(0, 6).join(" ⏎ ");
    results.errors.push({ section: name, message });
    process.stderr.write(`bench: ${name} failed: ${message}\n`);
    // A failed section may leave its bot running; the next one starts clean.
    cleanupEverything();
  }
}

// A load run's length: the spread, the turns with their pauses, and slack for slow turns.
const loadLimitMs = load.spreadMs + load.turns * (load.pauseMs + load.turnTimeoutMs) + 60_000;
const cpuProfDir = values["cpu-prof-dir"];

const nodeArgs = cpuProfDir
  ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`, `--cpu-prof-interval=${Math.max(50, Math.round(num("cpu-prof-interval")))}`]
  : undefined;
if (cpuProfDir) await mkdir(cpuProfDir, { recursive: true });
const profiled = { runtime, ...(nodeArgs ? { nodeArgs } : {}) };
// `--floor-transport undici`: the floors send their model requests as AgentKit does (src/model/model-fetch.ts).
const floorTransport = values["floor-transport"];
if (floorTransport !== "fetch" && floorTransport !== "undici") throw new Error("--floor-transport is fetch or undici");
const floorOnly = floorTransport === "undici" ? { env: { FLOOR_TRANSPORT: "undici" } } : {};

// Build before the clocks start; a build that fails stops the bench.
/** Sections timed in this process: they need no bot. */
const IN_PROCESS: readonly Section[] = ["prompt-build", "session-save", "injection-check", "secret-check", "instruction-check", "tidy", "web-pages"];
const startsBots = [...only].some((name) => !IN_PROCESS.includes(name));
if (startsBots && (runtime === "compiled" || only.has("startup"))) {
  const started = Date.now();
  process.stderr.write("bench: building (npm run build into a temp dir)…\n");
  try {
    await compiledBuild();
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exit(1);
  }
  process.stderr.write(`bench: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

await section("startup", 10 * 60_000, async () => {
  results.startup = await measureStartup({ runs: Math.max(1, Math.round(num("startup-runs"))) });
});

await section("turn-overhead", (values.metrics ? 2 : 1) * loadLimitMs, async () => {
  results.turnOverhead = await measureTurnOverhead({ ...load, ...profiled });
  if (values.metrics) results.turnOverheadMetrics = await measureTurnOverheadWithMetrics({ ...load, ...profiled });
});
await section("floor", loadLimitMs, async () => {
  results.floor = await measureFloor({ ...load, ...profiled, ...floorOnly });
});
await section("floor-duties", loadLimitMs, async () => {
  results.floorDuties = await measureFloorWithDuties({ ...load, ...profiled, ...floorOnly });
});
// --load-pairs N: the load N−1 times more on each bot, fresh processes each time, which goes first
// alternating; a bot process keeps its own luck for life (performance.md), so one pair's CPU ratio moves.
const loadPairs = Math.max(1, Math.round(num("load-pairs")));
if (loadPairs > 1 && results.turnOverhead && results.floor) {
  const withDuties = results.floorDuties !== undefined;
  // A run in which no turn completed has no CPU per turn (NaN): its pair is left out.
  const measured = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);
  const first = { agentkit: results.turnOverhead.botCpuMsPerTurn, floor: results.floor.botCpuMsPerTurn, floorDuties: results.floorDuties?.botCpuMsPerTurn };
  const pairs: LoadPair[] = [];
  const keep = ({ agentkit, floor, floorDuties }: { agentkit?: number; floor?: number; floorDuties?: number }) => {
    if (measured(agentkit) && measured(floor)) pairs.push({ agentkit, floor, ...(measured(floorDuties) ? { floorDuties } : {}) });
  };
  keep(first);
  for (let pair = 1; pair < loadPairs; pair++) {
    let agentkit: number | undefined;
    let floor: number | undefined;
    let floorDuties: number | undefined;
    const runAgentKit = () =>
      section("turn-overhead", loadLimitMs, async () => void (agentkit = (await measureTurnOverhead({ ...load, ...profiled })).botCpuMsPerTurn));
    const runFloor = () =>
      section("floor", loadLimitMs, async () => void (floor = (await measureFloor({ ...load, ...profiled, ...floorOnly })).botCpuMsPerTurn));
    const runDuties = async () => {
      if (withDuties)
        await section(
          "floor-duties",
          loadLimitMs,
          async () => void (floorDuties = (await measureFloorWithDuties({ ...load, ...profiled, ...floorOnly })).botCpuMsPerTurn),
        );
    };
    // Each floor goes before the other in half the pairs, and before AgentKit in half.
    if (pair % 2 === 1) await runDuties().then(runFloor).then(runAgentKit);
    else await runAgentKit().then(runFloor).then(runDuties);
    keep({ agentkit, floor, floorDuties });
  }
  results.loadPairs = pairs;
}
await section("turn-cpu", 10 * 60_000, async () => {
  results.turnCpu = await measureTurnCpu({
    openings: 60,
    laterPeople: 8,
    laterTurns: 15,
    rounds: Math.max(1, Math.round(num("cpu-rounds"))),
    turnTimeoutMs: 30_000,
    ...profiled,
  });
});
await section("first-text", 120_000, async () => {
  results.firstText = await measureFirstText({
    people: Math.max(1, Math.round(num("first-text-people"))),
    turns: 2,
    tokens: 80,
    tokensPerSecond: 40,
    ttftMs: load.ttftMs,
    turnTimeoutMs: 30_000,
    ...profiled,
  });
});
await section("scale-sessions", 20 * 60_000, async () => {
  const sessions = {
    sessions: Math.max(1, Math.round(num("sessions"))),
    concurrency: Math.max(1, Math.round(num("session-concurrency"))),
    turnTimeoutMs: 60_000,
  };
  results.sessions = await measureSessionsRss({ bot: "agentkit", ...sessions, ...profiled });
  results.sessionsFloor = await measureSessionsRss({ bot: "floor", ...sessions, runtime });
});
const reconcileTimeoutMs = num("reconcile-timeout-ms");
/** The stored sessions both reconcile sections start from. */
const reconcileBase = {
  stored: Math.max(1, Math.round(num("stored"))),
  archivedShare: num("archived-share"),
  deletedShare: num("deleted-share"),
  exchangeShare: 0.5,
  sessionsPerPerson: 5,
  timeoutMs: reconcileTimeoutMs,
  ...profiled,
};
await section("scale-reconcile", reconcileTimeoutMs + 5 * 60_000, async () => {
  results.reconcile = await measureReconcile(reconcileBase);
});
const shards = Math.max(2, Math.round(num("shards")));
await section("sharded", 4 * loadLimitMs, async () => {
  results.sharded = await measureSharded({ ...load, ...profiled, shards });
});
await section("reconcile-redis", 2 * (reconcileTimeoutMs + 5 * 60_000), async () => {
  const base = {
    ...reconcileBase,
    store: "redis" as const,
    spreadOverShards: shards,
  };
  process.stderr.write("bench: reconcile-redis: one process…\n");
  const single = await measureReconcile(base);
  process.stderr.write(`bench: reconcile-redis: ${shards} shards…\n`);
  const sharded = await measureReconcile({ ...base, botShards: shards });
  results.reconcileRedis = { single, sharded };
});
await section("prompt-build", 5 * 60_000, async () => {
  const iterations = Math.max(10, Math.round(num("iterations")));
  results.promptBuild = await measurePromptBuild({ iterations, warmup: Math.min(500, Math.ceil(iterations / 10)) });
});
await section("session-save", 5 * 60_000, async () => {
  results.sessionSave = await measureSessionSave({ sessions: 50, turns: 10, rounds: 5, promptChars: 10_399 });
});
await section("injection-check", 60_000, async () => {
  const iterations = Math.max(100, Math.round(num("iterations")) * 5);
  results.injectionCheck = measureInjectionCheck({ iterations, warmup: Math.min(1000, Math.ceil(iterations / 10)) });
});
await section("secret-check", 5 * 60_000, async () => {
  const iterations = Math.max(10, Math.round(num("iterations")));
  results.secretCheck = measureSecretCheck({ iterations, warmup: Math.min(500, Math.ceil(iterations / 10)) });
});
await section("instruction-check", 5 * 60_000, async () => {
  const iterations = Math.max(10, Math.round(num("iterations")));
  results.instructionCheck = measureInstructionCheck({ iterations, warmup: Math.min(500, Math.ceil(iterations / 10)) });
});
await section("tidy", 30 * 60_000, async () => {
  results.tidy = await measureTidy({
    people: Math.max(1, Math.round(num("tidy-people"))),
    modelMs: num("tidy-model-ms"),
    concurrency: 2,
    busyRuns: Math.max(1, Math.round(num("tidy-busy"))),
    busyModelMs: num("tidy-busy-model-ms"),
    turns: 400,
  });
});
await section("web-pages", 10 * 60_000, async () => {
  results.web = await measureWeb({
    requests: Math.max(20, Math.round(num("web-requests"))),
    block: 20,
    warmup: 20,
    messages: Math.max(730, Math.round(num("web-messages"))), // two a day at least
    days: 365,
    journalEntries: 1000,
  });
});
// Other people's turns: 20 people, 10 turns a second apart, in each of nine runs (three of each kind, a fresh bot each).
const webTurnsLoad = { ...load, ...profiled, people: Math.min(load.people, 20), turns: 10, pauseMs: 1000 };
await section("web-turns", 9 * (webTurnsLoad.spreadMs + webTurnsLoad.turns * (webTurnsLoad.pauseMs + webTurnsLoad.turnTimeoutMs) + 60_000), async () => {
  results.webTurns = await measureWebTurns({ load: webTurnsLoad, rounds: 3 });
});

results.finishedAt = new Date().toISOString();
results.machine.loadAverageAtEnd = loadavg();
results.targets = checkTargets(results);
await mkdir(join(values.out, ".."), { recursive: true });
await writeFile(values.out, `${JSON.stringify(results, null, 2)}\n`);
console.log(renderReport(results));
console.log(`\nJSON: ${values.out}`);
cleanupEverything();
process.exit(results.errors.length > 0 ? 1 : 0);
