import { DiscordjsError, DiscordjsErrorCodes, GatewayCloseCodes } from "discord.js";
import { createEngine, type EngineParts } from "./engine/create-engine.js";
import { holdBotLock } from "./bot-lock.js";
import { ConfigError, type Config } from "./config.js";
import { createBot, GatewayRefused } from "./discord/bot.js";
import type { Logger } from "./lib/logger.js";
import { logServerNotice, logTightContext } from "./present/model-errors.js";
import type { WebServer } from "./web/server.js";

/** The one line a failed start prints: Discord's refusals name the setting to fix and where. */
export function startFailureLine(error: unknown): string {
  if (error instanceof ConfigError) return error.problems.join("; ");
  const tokenRefused =
    (error instanceof DiscordjsError && error.code === DiscordjsErrorCodes.TokenInvalid) ||
    (error instanceof GatewayRefused && error.code === GatewayCloseCodes.AuthenticationFailed);
  if (tokenRefused) return "Discord refused DISCORD_TOKEN: copy it again from the Developer Portal (Bot → Reset Token)";
  if (error instanceof GatewayRefused && error.code === GatewayCloseCodes.DisallowedIntents) {
    return "Discord refused the Message Content intent (4014): switch on Message Content Intent in the Developer Portal (Bot → Privileged Gateway Intents)";
  }
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
    return `${(error as Error).message}: another program uses that port; choose another WEB_PORT or METRICS_PORT`;
  return (error as Error).message;
}

/**
 * The web page's server, loaded only when WEB_PORT asks for it: Fastify and its plugins cost a bot
 * without the page about 180 ms of its start and 6 MB of heap its collector would walk at every turn.
 */
export async function serveWebIfSet(config: Config, parts: EngineParts, log: Logger): Promise<WebServer | undefined> {
  if (!config.web) return undefined;
  const { serveWeb } = await import("./web/server.js");
  return serveWeb(config, parts, log);
}

/**
 * One bot process: the whole bot, or one shard of it under the launcher (discord.js's Client
 * takes its shard from the environment the ShardingManager gives it). Stops gracefully on
 * SIGINT/SIGTERM: turns and closes under way finish, open sessions resume at the next start.
 */
export async function runBot(config: Config, log: Logger): Promise<void> {
  const releaseLock = await holdBotLock(config.home, config.shardId);
  // prom-client and the ops server are loaded only when METRICS_PORT asks for them, as the web page is.
  const ops = config.metrics && (await import("./ops/index.js"));
  const metrics = ops && ops.createMetrics({ shard: config.shardId });
  // The bot exists after the engine: a tidy-up finishing before it is ready leaves its notice for the next conversation.
  let bot: ReturnType<typeof createBot> | undefined;
  const parts = await createEngine(config, log, {
    telemetry: metrics?.telemetry,
    tidy: true,
    onTidied: (userId) => void bot?.tidied(userId),
    // What the model server refused (its own words), and what AgentKit does instead: for the process (once, with the fix) or that request.
    onModelNotice: (notice) => logServerNotice(log, notice),
  });
  if (parts.context.tight) logTightContext(log, parts.context);
  bot = createBot({ config, log, engine: parts.engine });
  // Before login, so a port in use stops the start before it spends a gateway identify; /healthz is 503 until the gateway is ready.
  const opsServer = ops && metrics && (await ops.startOps(config, { client: bot.client, store: parts.store, metrics }, log));
  // With shards the launcher serves the page; a shard does not.
  const web = config.shardId === undefined ? await serveWebIfSet(config, parts, log) : undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down; open sessions resume at the next start");
    await opsServer?.close();
    await web?.close();
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
