import { ConfigError, loadConfig, type Config } from "./config.js";
import { launchShards } from "./launcher.js";
import { keepFilesPrivate } from "./lib/private-files.js";
import { createLogger } from "./lib/logger.js";
import { runBot, serveWebIfSet, startFailureLine } from "./run-bot.js";
import { createEngine } from "./engine/create-engine.js";

/** `npm start`: the bot in this process, or with SHARD_COUNT set, a launcher of one process per shard. */
async function main(): Promise<void> {
  keepFilesPrivate();
  let config: Config;
  try {
    config = loadConfig("discord");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const log = createLogger({ level: config.log.level ?? "info", pretty: config.log.pretty ?? process.stdout.isTTY === true });
  if (config.shardCount === undefined) {
    await runBot(config, log);
    return;
  }
  // With shards the launcher serves the web page, over the same home and session store as the shards.
  const page = config.web ? await createEngine(config, log, { housekeeping: false }) : undefined;
  const web = page && (await serveWebIfSet(config, page, log));
  const launcher = await launchShards(config, log);
  const shutdown = (signal: string) => {
    log.info({ signal }, "stopping every shard");
    void Promise.all([launcher.stop(), web?.close(), page?.close()]).then(() => {
      log.flush();
      process.exit(0);
    });
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(`AgentKit could not start: ${startFailureLine(error)}`);
  process.exit(1);
});
