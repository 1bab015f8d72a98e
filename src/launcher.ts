import { REST, Routes, ShardingManager, type Shard } from "discord.js";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "./config.js";
import type { Logger } from "./lib/logger.js";

export interface Launcher {
  manager: ShardingManager;
  /** Stops every shard with SIGTERM (each finishes its turns and closes) and waits for them. */
  stop(): Promise<void>;
}

/** How long a shard may take from spawn to ready (login and reconcile) before the manager gives up. */
const READY_TIMEOUT_MS = 60_000;

/** What Discord recommends for this bot (GET /gateway/bot), through DISCORD_API_URL when set. */
async function recommendedShards(discord: NonNullable<Config["discord"]>): Promise<number> {
  const rest = new REST(discord.apiUrl ? { api: discord.apiUrl } : {}).setToken(discord.token);
  const answer = (await rest.get(Routes.gatewayBot())) as { shards: number };
  return Math.max(1, answer.shards);
}

/**
 * `SHARD_COUNT` set: this process runs no bot itself; discord.js's ShardingManager runs one
 * process per shard (src/shard.ts) and restarts a shard that dies. Each shard's Client reads
 * its shard id and count from the environment the manager gives it, which is why the
 * launcher, not the Client, owns SHARD_COUNT.
 */
export async function launchShards(config: Config, log: Logger): Promise<Launcher> {
  const discord = config.discord;
  if (!discord || config.shardCount === undefined) throw new Error("SHARD_COUNT and the Discord settings are needed to shard");
  const count = config.shardCount === "auto" ? await recommendedShards(discord) : config.shardCount;
  // The shard entry next to this file: shard.js when compiled, shard.ts under tsx (whose loader flags are in execArgv).
  const file = fileURLToPath(new URL(`./shard${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
  const manager = new ShardingManager(file, {
    totalShards: count,
    token: discord.token,
    mode: "process",
    respawn: true,
    execArgv: process.execArgv,
  });
  manager.on("shardCreate", (shard: Shard) => {
    log.info({ shard: shard.id, of: count }, "shard starting");
    shard.on("death", () => log.warn({ shard: shard.id }, "shard process ended; the manager starts it again"));
    shard.on("error", (error) => log.error({ shard: shard.id, err: String(error) }, "shard error"));
  });
  await manager.spawn({ amount: count, delay: config.shardSpawnDelayMs, timeout: READY_TIMEOUT_MS });
  log.info({ shards: count }, "all shards ready");
  return {
    manager,
    async stop() {
      manager.respawn = false;
      await Promise.all(
        [...manager.shards.values()].map(async (shard) => {
          const child = shard.process;
          if (!child || child.exitCode !== null) return;
          const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
          child.kill("SIGTERM");
          await exited;
        }),
      );
    },
  };
}
