import { createEngine } from "./agent/create-engine.js";
import { holdBotLock } from "./bot-lock.js";
import type { Config } from "./config.js";
import { createBot } from "./discord/bot.js";
import type { Logger } from "./lib/logger.js";
import { createMetrics, startOps } from "./ops/index.js";

/**
 * One bot process: the whole bot, or one shard of it under the launcher (discord.js's Client
 * takes its shard from the environment the ShardingManager gives it). Stops gracefully on
 * SIGINT/SIGTERM: turns and closes under way finish, open sessions resume at the next start.
 */
export async function runBot(config: Config, log: Logger): Promise<void> {
  const releaseLock = await holdBotLock(config.home, config.shardId);
  const metrics = config.metrics && createMetrics({ shard: config.shardId });
  const parts = await createEngine(config, log, { telemetry: metrics?.telemetry });
  const bot = createBot({ config, log, engine: parts.engine });
  // Before login, so a port in use stops the start before it spends a gateway identify; /healthz is 503 until the gateway is ready.
  const ops = metrics && (await startOps(config, { client: bot.client, store: parts.store, metrics }, log));
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down; open sessions resume at the next start");
    await ops?.close();
    await bot.stop();
    await parts.close();
    await releaseLock().catch(() => {});
    log.flush();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  await bot.start();
}
