import KeyvSqlite from "@keyv/sqlite";
import Keyv from "keyv";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { SessionRecord } from "./session-record.js";

const SESSION = "session:";
const CHANNEL = "channel:";

/** Sessions persisted in keyv: SQLite in AGENTKIT_HOME by default, any keyv backend by URL. */
export class SessionStore {
  private closed = false;

  private constructor(private readonly keyv: Keyv) {}

  static async open(home: string, url?: string): Promise<SessionStore> {
    if (url === undefined) {
      await mkdir(home, { recursive: true });
      return new SessionStore(sqlite(`sqlite://${join(home, "sessions.sqlite")}`));
    }
    return new SessionStore(await keyvFor(url));
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return (await this.keyv.get<SessionRecord>(SESSION + id)) ?? undefined;
  }

  /** Channels whose index already points at their newest session (saves one write per turn). */
  private readonly indexed = new Map<string, string>();

  async save(record: SessionRecord): Promise<void> {
    await this.keyv.set(SESSION + record.id, record);
    const channelId = record.channel.channelId;
    if (this.indexed.get(channelId) === record.id) return;
    await this.keyv.set(CHANNEL + channelId, record.id);
    this.indexed.set(channelId, record.id);
  }

  /** The newest session opened in a channel (thread or DM), whatever its status. */
  async latestIn(channelId: string): Promise<SessionRecord | undefined> {
    const id = await this.keyv.get<string>(CHANNEL + channelId);
    return id ? this.get(id) : undefined;
  }

  /** Every stored session (used at start-up to reconcile). */
  async *all(): AsyncGenerator<SessionRecord> {
    if (!this.keyv.iterator) throw new Error("this session store cannot list its sessions");
    for await (const [key, value] of this.keyv.iterator(undefined)) {
      if (typeof key === "string" && key.startsWith(SESSION) && value) yield value as SessionRecord;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.keyv.disconnect();
  }
}

function sqlite(uri: string): Keyv {
  const adapter = new KeyvSqlite({ uri, busyTimeout: 10_000 });
  // WAL without an fsync per commit: a killed process loses nothing (the WAL is in the OS
  // cache), only a power cut could; and a turn no longer waits on the disk.
  void adapter.query("PRAGMA journal_mode=WAL").then(() => adapter.query("PRAGMA synchronous=NORMAL"));
  return new Keyv({ store: adapter, namespace: "agentkit" });
}

/** Adapters other than SQLite are optional packages, loaded only when their URL is used. */
async function keyvFor(url: string): Promise<Keyv> {
  const scheme = url.split(":")[0]?.toLowerCase();
  if (scheme === "sqlite") return sqlite(url);
  if (scheme === "memory") return new Keyv({ namespace: "agentkit" });
  const adapters: Record<string, string> = {
    redis: "@keyv/redis",
    rediss: "@keyv/redis",
    postgres: "@keyv/postgres",
    postgresql: "@keyv/postgres",
    mysql: "@keyv/mysql",
    mongodb: "@keyv/mongo",
  };
  const adapter = scheme ? adapters[scheme] : undefined;
  if (!adapter) throw new Error(`SESSION_STORE_URL: unsupported scheme "${scheme}" (sqlite://path, redis://host, postgres://…)`);
  try {
    const module = (await import(adapter)) as { default: new (url: string) => ConstructorParameters<typeof Keyv>[0] };
    return new Keyv({ store: new module.default(url) as never, namespace: "agentkit" });
  } catch (error) {
    throw new Error(`SESSION_STORE_URL needs the package ${adapter}: npm install ${adapter} (${(error as Error).message})`);
  }
}
