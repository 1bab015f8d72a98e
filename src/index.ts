import { createEngine } from "./agent/create-engine.js";
import { ConfigError, loadConfig } from "./config.js";
import { createBot } from "./discord/bot.js";
import { createLogger } from "./logger.js";

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig("discord");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`Configuration: ${problem}`);
    process.exit(1);
  }
  const log = createLogger({ level: config.log.level ?? "info", pretty: config.log.pretty });
  const parts = await createEngine(config, log);
  const { engine } = parts;
  const bot = createBot({ config, log, engine });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down; open sessions resume at the next start");
    await bot.stop();
    await parts.close();
    log.flush();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  await bot.start();
}

main().catch((error: unknown) => {
  console.error(`AgentKit could not start: ${(error as Error).message}`);
  process.exit(1);
});
