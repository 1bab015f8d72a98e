import { ConfigError, loadConfig, type Config } from "./config.js";
import { createEngine } from "./engine/create-engine.js";
import { createLogger } from "./lib/logger.js";
import { keepFilesPrivate } from "./lib/private-files.js";
import { serveWeb } from "./web/server.js";

/**
 * `npm run web`: the web page alone, beside a bot that runs elsewhere, over the same
 * AGENTKIT_HOME and session store (a /memory web link the bot makes works here).
 */
async function main(): Promise<void> {
  keepFilesPrivate();
  let config: Config;
  try {
    config = loadConfig("web");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const log = createLogger({ level: config.log.level ?? "info", pretty: config.log.pretty ?? process.stdout.isTTY === true });
  const parts = await createEngine(config, log, { housekeeping: false });
  const web = await serveWeb(config, parts, log);
  // The bot makes the sign-in links: it must know this address, and nothing tells it but its own .env.
  console.log(
    `The web page is at ${config.publicUrl}. For /memory web in Discord to link here, the bot's .env needs PUBLIC_URL=${config.publicUrl} (unless the bot serves the page itself with WEB_PORT).`,
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await web?.close();
    await parts.close();
    log.flush();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(
    `The web page could not start: ${code === "EADDRINUSE" ? "WEB_PORT is in use by another program: choose another port" : (error as Error).message}`,
  );
  process.exit(1);
});
