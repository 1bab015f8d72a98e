import { afterThisTest } from "./cleanup.js";
import type { SessionRecord } from "../../src/sessions/session-record.js";
import type { SessionStatus } from "../../src/lib/telemetry.js";
import { SessionStore } from "../../src/sessions/session-store.js";
import type { RedisOptions } from "./redis-process.js";
import { startRedisServer, type RedisServer } from "./redis-server.js";
import { makeTempHome } from "./temp-home.js";

/** One place sessions are kept; each open() is another process's store on it. */
export interface StorePlace {
  open(): Promise<SessionStore>;
  redis?: RedisServer;
}

/** Stores are closed after the test (before the server and the home go). */
async function opened(store: Promise<SessionStore>): Promise<SessionStore> {
  const ready = await store;
  afterThisTest(() => ready.close());
  return ready;
}

export async function sqlitePlace(): Promise<StorePlace> {
  const home = await makeTempHome();
  return { open: () => opened(SessionStore.open(home)) };
}

export async function redisPlace(options: RedisOptions = {}): Promise<StorePlace> {
  const home = await makeTempHome();
  const redis = await startRedisServer(options);
  return { open: () => opened(SessionStore.open(home, redis.url)), redis };
}

export function sessionRecord(id: string, options: { channelId?: string; status?: SessionStatus; userId?: string } = {}): SessionRecord {
  const at = "2026-12-02T10:00:00.000Z";
  return {
    id,
    userId: options.userId ?? "111",
    displayName: "Alice",
    locale: "en-US",
    title: `talk ${id}`,
    channel: { platform: "discord", channelId: options.channelId ?? `ch-${id}`, guildId: "800", description: "a thread" },
    systemPrompt: "You are AgentKit.",
    messages: [{ role: "user", content: `hello from ${id}` }],
    status: options.status ?? "open",
    openedAt: at,
    lastActivityAt: at,
    usage: [],
  };
}

export async function collect(records: AsyncIterable<SessionRecord>): Promise<SessionRecord[]> {
  const all: SessionRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

export const idsOf = (records: SessionRecord[]): string[] => records.map((r) => r.id).sort();
