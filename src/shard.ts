import { loadConfig } from "./config.js";
import { keepFilesPrivate } from "./lib/private-files.js";
import { createLogger } from "./lib/logger.js";
import { runBot, startFailureLine } from "./run-bot.js";

/** One shard's process, spawned by the launcher (src/launcher.ts) through discord.js's ShardingManager. */
async function main(): Promise<void> {
  keepFilesPrivate();
  const config = loadConfig("discord");
  const log = createLogger({ level: config.log.level ?? "info", pretty: config.log.pretty ?? process.stdout.isTTY === true }).child({ shard: config.shardId });
  await runBot(config, log);
}

main().catch((error: unknown) => {
  console.error(`AgentKit shard could not start: ${startFailureLine(error)}`);
  process.exit(1);
});
