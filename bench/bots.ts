import { rmSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { botEnv } from "../tests/helpers/bot-env.js";
import { buildCompiled } from "../tests/helpers/compiled-build.js";
import type { FakeDiscord } from "../tests/fakes/fake-discord/index.js";
import type { BenchModel } from "./model-server.js";
import { delay, ROOT, runJs, runTs, type ChildRun } from "./processes.js";

export type BotKind = "agentkit" | "floor";
/** tsx: `node --import tsx src/index.ts` (development); compiled: `node dist/index.js` (production, `npm start`). */
export type Runtime = "tsx" | "compiled";
export const RUNTIMES: readonly Runtime[] = ["tsx", "compiled"];

export interface BotStartOptions {
  discord: FakeDiscord;
  model: BenchModel;
  /** AGENTKIT_HOME (AgentKit only). */
  home: string;
  /** Default compiled, as production runs. */
  runtime?: Runtime;
  logLevel?: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** Extra environment for the bot: AgentKit's METRICS_PORT, the floor's FLOOR_DUTIES. */
  env?: Record<string, string>;
  /** How long login may take. */
  readyTimeoutMs?: number;
  /** Gateway sessions to wait for: the shard count when SHARD_COUNT is set (default 1). */
  gatewaySessions?: number;
}

export interface StartedBot extends ChildRun {
  /** Epoch ms the fake Discord was first seen with the bot's gateway session open (polled every 5 ms). */
  loggedInAt: number;
}

/** The same variables the e2e tests give the bot, plus the log level. */
function agentKitEnv(discord: FakeDiscord, model: BenchModel, home: string, logLevel: string): Record<string, string> {
  return { ...botEnv(discord, model, home), LOG_LEVEL: logLevel };
}

let build: Promise<string> | undefined;

/**
 * Builds once per bench run, in a temp dir laid out as the Docker image (package.json, a link to
 * node_modules, dist/): `npm run build` for AgentKit, and floor-bot.ts transpiled to
 * bench/floor-bot.js so the floor runs as plain JavaScript too. Removed when the bench exits.
 */
export function compiledBuild(): Promise<string> {
  build ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentkit-bench-compiled-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    await buildCompiled(dir);
    const floor = await readFile(join(ROOT, "bench", "floor-bot.ts"), "utf8");
    const { outputText } = ts.transpileModule(floor, {
      fileName: "floor-bot.ts",
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    });
    await mkdir(join(dir, "bench"));
    await writeFile(join(dir, "bench", "floor-bot.js"), outputText);
    return dir;
  })();
  return build;
}

function spawnBot(kind: BotKind, runtime: Runtime, dir: string | undefined, options: BotStartOptions): ChildRun {
  const { discord, model, home } = options;
  const env =
    kind === "agentkit"
      ? { ...agentKitEnv(discord, model, home, options.logLevel ?? "warn"), ...options.env }
      : { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, OPENAI_BASE_URL: model.baseURL, FLOOR_HOME: home, ...options.env };
  if (runtime === "tsx") return runTs(kind === "agentkit" ? "src/index.ts" : "bench/floor-bot.ts", env, options.nodeArgs);
  return runJs(kind === "agentkit" ? "dist/index.js" : "bench/floor-bot.js", dir!, env, options.nodeArgs);
}

/**
 * Starts a bot process and resolves once its gateway session is open and it had a moment to
 * finish start-up work (AgentKit reconciles its store after READY; with an empty store that is
 * a few milliseconds).
 */
export async function startBot(kind: BotKind, options: BotStartOptions): Promise<StartedBot> {
  const runtime = options.runtime ?? "compiled";
  const dir = runtime === "compiled" ? await compiledBuild() : undefined;
  const run = spawnBot(kind, runtime, dir, options);
  const { discord } = options;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (discord.openGatewaySessions < (options.gatewaySessions ?? 1)) {
    if (run.child.exitCode !== null) throw new Error(`${kind} bot (${runtime}) exited during start-up:\n${run.output()}`);
    if (Date.now() > deadline) throw new Error(`${kind} bot (${runtime}) did not log in:\n${run.output()}`);
    await delay(5);
  }
  const loggedInAt = Date.now();
  await delay(500);
  return { ...run, loggedInAt };
}
