import { Status, type Client } from "discord.js";
import { withTimeout } from "../lib/with-timeout.js";

/** What /healthz needs of the session store (SessionStore). */
export interface StorePing {
  ping(): Promise<void>;
}

export type HealthReport = { ok: true; gateway: "ready"; gatewayPingMs: number; storeMs: number } | { ok: false; reason: string };

export interface HealthOptions {
  client: Client;
  store: StorePing;
  /** How long the store may take to answer before the bot counts as unhealthy. */
  storeTimeoutMs?: number;
}

/**
 * Healthy when every gateway shard of this process is connected (ready or resumed) and the
 * session store answers a ping in time. At most one ping is out at a time, so a store that hangs
 * (Redis gone, commands queued) is not sent one more per probe.
 */
export function healthCheck({ client, store, storeTimeoutMs = 2500 }: HealthOptions): () => Promise<HealthReport> {
  let pinging: Promise<void> | undefined;
  const ping = () => (pinging ??= store.ping().finally(() => (pinging = undefined)));
  return async () => {
    const reasons: string[] = [];
    const shards = [...client.ws.shards.values()];
    if (shards.length === 0 || shards.some((shard) => shard.status !== Status.Ready)) reasons.push("gateway disconnected");
    const started = performance.now();
    try {
      await withTimeout(ping(), storeTimeoutMs);
    } catch (error) {
      reasons.push(`session store not answering: ${(error as Error).message}`);
    }
    if (reasons.length > 0) return { ok: false, reason: reasons.join("; ") };
    return { ok: true, gateway: "ready", gatewayPingMs: client.ws.ping, storeMs: Math.round(performance.now() - started) };
  };
}
