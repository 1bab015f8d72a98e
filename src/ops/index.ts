import type { Client } from "discord.js";
import type { Config } from "../config.js";
import type { Logger } from "../lib/logger.js";
import { healthCheck, type StorePing } from "./health.js";
import type { Metrics, SessionCounts } from "./metrics.js";
import { startOpsServer, type OpsServer } from "./ops-server.js";

export { createMetrics } from "./metrics.js";
export type { OpsServer } from "./ops-server.js";

export interface OpsParts {
  client: Client;
  store: StorePing & SessionCounts;
  metrics: Metrics;
}

/**
 * Health and metrics for this process on METRICS_HOST:METRICS_PORT; a shard serves on
 * METRICS_PORT + its id, so the shards of one machine do not collide.
 */
export async function startOps(config: Config, { client, store, metrics }: OpsParts, log: Logger): Promise<OpsServer> {
  const settings = config.metrics;
  if (!settings) throw new Error("METRICS_PORT is not set");
  metrics.countSessions(store);
  metrics.watchDiscordRest(client.rest);
  const { host } = settings;
  const port = settings.port + (config.shardId ?? 0);
  const server = await startOpsServer({ host, port, registry: metrics.registry, health: healthCheck({ client, store }) }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE" && error.code !== "EADDRNOTAVAIL") throw error;
      const problem = error.code === "EADDRINUSE" ? `port ${port} on ${host} is already in use` : `${host} is not an address of this machine`;
      throw new Error(`METRICS_PORT/METRICS_HOST: ${problem}; choose another (health and metrics start before the bot logs in).`);
    },
  );
  log.info({ url: server.url }, "health and metrics: /healthz, /metrics");
  return server;
}
