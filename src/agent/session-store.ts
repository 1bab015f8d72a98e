import KeyvSqlite from "@keyv/sqlite";
import Keyv from "keyv";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { SessionRecord, SessionStatus } from "./session-record.js";

const NAMESPACE = "agentkit";
const SESSION = "session:";
const CHANNEL = "channel:";
const FLAG = "flag:";
const PAGE = 500;
/** Channels known to have no session; cleared when it grows past this. */
const MAX_NEGATIVE = 20_000;

/**
 * Sessions persisted in keyv: SQLite in AGENTKIT_HOME by default, any keyv backend by URL.
 * A session is driven by one process, so the records this process has read or written are
 * kept in memory: a turn costs one write and no read.
 */
export class SessionStore {
  private closed = false;
  private readonly records = new Map<string, SessionRecord>();
  /** Channel id → newest session id, or null when the store has none. */
  private readonly channels = new Map<string, string | null>();

  private constructor(
    private readonly keyv: Keyv,
    private readonly sqlite: KeyvSqlite | undefined,
  ) {}

  static async open(home: string, url?: string): Promise<SessionStore> {
    if (url === undefined) {
      await mkdir(home, { recursive: true });
      return SessionStore.sqlite(`sqlite://${join(home, "sessions.sqlite")}`);
    }
    const scheme = url.split(":")[0]?.toLowerCase();
    if (scheme === "sqlite") return SessionStore.sqlite(url);
    return new SessionStore(await keyvFor(url), undefined);
  }

  private static async sqlite(uri: string): Promise<SessionStore> {
    const adapter = new KeyvSqlite({ uri, busyTimeout: 10_000 });
    // WAL without an fsync per commit: a killed process loses nothing (the WAL is in the OS
    // cache), only a power cut could; and a turn no longer waits on the disk. Awaited, so a
    // store closed right away does not close the database under them.
    await adapter.query("PRAGMA journal_mode=WAL");
    await adapter.query("PRAGMA synchronous=NORMAL");
    return new SessionStore(new Keyv({ store: adapter, namespace: NAMESPACE, throwOnErrors: true }), adapter);
  }

  /** The live record: only the session engine may change it, and must save it after. */
  async get(id: string): Promise<SessionRecord | undefined> {
    const cached = this.records.get(id);
    if (cached) return cached;
    const record = (await this.keyv.get<SessionRecord>(SESSION + id)) ?? undefined;
    if (record && record.status !== "closed") this.records.set(id, record);
    return record;
  }

  /**
   * Persists a record. Only a newly opened session (`newest`) moves its channel's pointer:
   * an older session finishing a delayed close must not take the channel back.
   */
  async save(record: SessionRecord, options: { newest?: boolean } = {}): Promise<void> {
    const channelId = record.channel.channelId;
    // Memory first, so a reader never sees an older state than the one being written.
    if (record.status === "closed") this.records.delete(record.id);
    else this.records.set(record.id, record);
    if (options.newest) this.remember(channelId, record.id);
    try {
      if (!(await this.keyv.set(SESSION + record.id, record))) throw new Error("the session store refused the write");
      if (options.newest) await this.keyv.set(CHANNEL + channelId, record.id);
    } catch (error) {
      // A new session stays in memory (its opener retries the write); for any other save,
      // memory may be ahead of the store now: read it again next time.
      if (!options.newest) this.records.delete(record.id);
      throw error;
    }
  }

  /** The newest session opened in a channel (thread or DM), whatever its status. */
  async latestIn(channelId: string): Promise<SessionRecord | undefined> {
    let id = this.channels.get(channelId);
    if (id === undefined) {
      id = (await this.keyv.get<string>(CHANNEL + channelId)) ?? null;
      this.remember(channelId, id);
    }
    return id === null ? undefined : this.get(id);
  }

  /** Every stored session in one of these states (start-up reconcile, pending closes). */
  async *withStatus(statuses: readonly SessionStatus[]): AsyncGenerator<SessionRecord> {
    if (!this.sqlite) {
      if (!this.keyv.iterator) throw new Error("this session store cannot list its sessions");
      for await (const [key, value] of this.keyv.iterator(undefined)) {
        const record = value as SessionRecord | undefined;
        if (typeof key === "string" && key.startsWith(SESSION) && record && statuses.includes(record.status)) yield record;
      }
      return;
    }
    // keyv's SQLite iterator pages with OFFSET (quadratic over 10,000 sessions) and parses
    // every record; paging by key and filtering on the status in SQL reads each row once.
    const first = `${NAMESPACE}:${SESSION}`;
    const end = `${NAMESPACE}:session;`;
    const marks = statuses.map(() => "?").join(",");
    let after = first;
    for (;;) {
      const rows = (await this.sqlite.query(
        `SELECT key, value FROM ${this.sqlite.opts.table} WHERE key > ? AND key < ? AND json_extract(value, '$.value.status') IN (${marks}) ORDER BY key LIMIT ${PAGE}`,
        after,
        end,
        ...statuses,
      )) as { key: string; value: string }[];
      for (const row of rows) {
        const id = row.key.slice(first.length);
        yield this.records.get(id) ?? (JSON.parse(row.value) as { value: SessionRecord }).value;
      }
      if (rows.length < PAGE) return;
      after = rows.at(-1)!.key;
    }
  }

  /** Deletes a session and, if it is its channel's newest, the channel's pointer (a person deleting their data). */
  async remove(record: SessionRecord): Promise<void> {
    this.records.delete(record.id);
    await this.keyv.delete(SESSION + record.id);
    const channelId = record.channel.channelId;
    const newest = this.channels.get(channelId) ?? (await this.keyv.get<string>(CHANNEL + channelId));
    if (newest === record.id) {
      await this.keyv.delete(CHANNEL + channelId);
      this.channels.set(channelId, null);
    }
  }

  /**
   * After a person's words or data were removed: SQLite keeps old versions of rows in free pages
   * and in its write-ahead log; a VACUUM and a truncating checkpoint leave none behind. Other
   * backends drop deleted values themselves.
   */
  async purge(): Promise<void> {
    if (!this.sqlite) return;
    await this.sqlite.query("VACUUM");
    await this.sqlite.query("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  /** Store-wide facts such as a finished migration. */
  async hasFlag(name: string): Promise<boolean> {
    return (await this.keyv.get<boolean>(FLAG + name)) === true;
  }

  async setFlag(name: string): Promise<void> {
    if (!(await this.keyv.set(FLAG + name, true))) throw new Error("the session store refused the write");
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.keyv.disconnect();
  }

  private remember(channelId: string, id: string | null): void {
    if (id === null && this.channels.size > MAX_NEGATIVE) this.channels.clear();
    this.channels.set(channelId, id);
  }
}

/** Adapters other than SQLite are optional packages, loaded only when their URL is used. */
async function keyvFor(url: string): Promise<Keyv> {
  const scheme = url.split(":")[0]?.toLowerCase();
  if (scheme === "memory") return new Keyv({ namespace: NAMESPACE, throwOnErrors: true });
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
    return new Keyv({ store: new module.default(url) as never, namespace: NAMESPACE, throwOnErrors: true });
  } catch (error) {
    throw new Error(`SESSION_STORE_URL needs the package ${adapter}: npm install ${adapter} (${(error as Error).message})`);
  }
}
