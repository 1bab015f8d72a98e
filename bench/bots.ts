import { botEnv } from "../tests/helpers/bot-env.js";
import type { FakeDiscord } from "../tests/fakes/fake-discord/index.js";
import type { BenchModel } from "./model-server.js";
import { delay, runTs, type ChildRun } from "./processes.js";

export type BotKind = "agentkit" | "floor";

export interface BotStartOptions {
  discord: FakeDiscord;
  model: BenchModel;
  /** AGENTKIT_HOME (AgentKit only). */
  home: string;
  logLevel?: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** How long login may take. */
  readyTimeoutMs?: number;
}

/** The same variables the e2e tests give the bot, plus the log level. */
export function agentKitEnv(discord: FakeDiscord, model: BenchModel, home: string, logLevel: string): Record<string, string> {
  return { ...botEnv(discord, model, home), LOG_LEVEL: logLevel };
}

/**
 * Starts a bot process and resolves once its gateway session is open and it had a moment to
 * finish start-up work (AgentKit reconciles its store after READY; with an empty store that is
 * a few milliseconds).
 */
export async function startBot(kind: BotKind, options: BotStartOptions): Promise<ChildRun> {
  const { discord, model, home } = options;
  const run =
    kind === "agentkit"
      ? runTs("src/index.ts", agentKitEnv(discord, model, home, options.logLevel ?? "warn"), options.nodeArgs)
      : runTs(
          "bench/floor-bot.ts",
          { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, OPENAI_BASE_URL: model.baseURL },
          options.nodeArgs,
        );
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (discord.openGatewaySessions === 0) {
    if (run.child.exitCode !== null) throw new Error(`${kind} bot exited during start-up:\n${run.output()}`);
    if (Date.now() > deadline) throw new Error(`${kind} bot did not log in:\n${run.output()}`);
    await delay(20);
  }
  await delay(500);
  return run;
}
