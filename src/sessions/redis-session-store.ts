import { createClient, type RedisClientType } from "@keyv/redis";
import Keyv from "keyv";
import { BEGIN_FORGET, CLAIM, DELETE_RECORD, END_FORGET, INDEX_PERSON, RELEASE, SAVE_RECORD } from "./redis-scripts.js";
import type { SessionRecord } from "./session-record.js";
import type { SessionStatus } from "../lib/telemetry.js";
import {
  NAMESPACE,
  PAGE,
  PERSON_INDEX_FLAG,
  PING_TIMEOUT_MS,
  SESSION,
  SESSION_STATUSES,
  STATUS_RANK,
  SessionStoreBase,
  checkClaim,
  epochKey,
  type WriteVerdict,
} from "./session-store-base.js";
import { TimedKeyvRedis, timed } from "./timed-keyv-redis.js";
import { withTimeout } from "../lib/with-timeout.js";

const CONNECT_TIMEOUT_MS = 2_000;
/** How long opening the store waits for Redis before start-up fails with a clear error. */
const OPEN_TIMEOUT_MS = 5_000;
const STATUS = "status:";
const CLAIM_KEY = "claim:";
const PERSON = "person:";
const EPOCH = "epoch:";
/** How long purge() waits for Redis to rewrite its append-only file. */
const AOF_REWRITE_MS = 120_000;
const AOF_POLL_MS = 50;

/**
 * Sessions in Redis (`SESSION_STORE_URL=redis://…` or `rediss://…`), shared by every process of
 * the bot. Records, channel pointers and flags are keyv values under keyv's namespace
 * (`agentkit::session:<id>` …); beside them a set of session ids per status
 * (`agentkit::status:<status>`), changed in the same Lua script as the record, so listing by
 * status reads its sets and never scans the keyspace (only the forget stamps' completion, once per
 * home, scans the epoch keys); a set of session ids per person
 * (`agentkit::person:<userId>`, the person index forget and delete-all read), changed in the same
 * script; each person's forget epoch (`agentkit::epoch:<epochKey(userId)>`, checked by that script: see
 * SessionStoreBase); and claims (`agentkit::claim:<name>`).
 *
 * While Redis is down every call rejects at once (no offline queue), or after COMMAND_TIMEOUT_MS
 * when the server hangs; the client keeps reconnecting in the background, so the same store
 * works again when Redis is back.
 */
export class RedisSessionStore extends SessionStoreBase {
  private constructor(
    keyv: Keyv,
    private readonly adapter: TimedKeyvRedis,
    private readonly client: RedisClientType,
    readonly identity: string,
  ) {
    super(keyv);
  }

  static async open(url: string): Promise<RedisSessionStore> {
    let connected = false;
    const client: RedisClientType = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        // Once up, never gives up: back within a second of Redis coming back. Before that, a few
        // tries, so a wrong URL fails start-up at once.
        reconnectStrategy: (retries: number, cause: Error) => (connected || retries < 3 ? Math.min(50 * 2 ** retries, 1_000) : cause),
      },
    });
    // Failures reach the callers as rejections; without a listener a lost connection would end the process.
    client.on("error", () => {});
    try {
      await withTimeout(client.connect(), OPEN_TIMEOUT_MS);
      connected = true;
    } catch (error) {
      if (client.isOpen) client.destroy();
      throw new Error(`SESSION_STORE_URL: cannot reach Redis at ${hostOf(url)} (${(error as Error).message})`);
    }
    const adapter = new TimedKeyvRedis(client, { namespace: NAMESPACE, throwOnErrors: true });
    // keyv leaves the prefix to the adapter (`agentkit::key`), as @keyv/redis's createKeyv does.
    const keyv = new Keyv({ store: adapter, namespace: NAMESPACE, useKeyPrefix: false, throwOnErrors: true });
    const store = new RedisSessionStore(keyv, adapter, client, `redis:${whereOf(url)}`);
    try {
      await store.indexPeople();
    } catch (error) {
      await store.close();
      throw new Error(`SESSION_STORE_URL: could not build the person index in Redis at ${hostOf(url)} (${(error as Error).message})`);
    }
    return store;
  }

  /**
   * A store saved before the person index gets it, once: every stored record's id joins its
   * person's set (several processes may do it at once; adding is idempotent).
   */
  private async indexPeople(): Promise<void> {
    if (await this.hasFlag(PERSON_INDEX_FLAG)) return;
    for await (const record of this.stored(SESSION_STATUSES)) {
      await timed(this.client.eval(INDEX_PERSON, { keys: [this.key(SESSION + record.id), this.key(PERSON + record.userId)], arguments: [record.id] }));
    }
    await this.setFlag(PERSON_INDEX_FLAG);
  }

  protected async writeRecord(record: SessionRecord): Promise<WriteVerdict> {
    const value = await this.keyv.serializeData({ value: record });
    const stored = await timed(
      this.client.eval(SAVE_RECORD, {
        keys: [this.key(SESSION + record.id), ...this.statusKeys(), this.key(PERSON + record.userId), this.key(EPOCH + epochKey(record.userId))],
        arguments: [record.id, String(value), String(STATUS_RANK[record.status]), String(record.epoch ?? 0)],
      }),
    );
    const verdict = Number(stored);
    return verdict === -1 ? "written" : verdict === -2 ? "forgotten" : "moved-on";
  }

  protected async deleteRecord(record: SessionRecord): Promise<void> {
    await timed(
      this.client.eval(DELETE_RECORD, {
        keys: [this.key(SESSION + record.id), ...this.statusKeys(), this.key(PERSON + record.userId)],
        arguments: [record.id],
      }),
    );
  }

  async sessionsOf(userId: string): Promise<string[]> {
    return timed(this.client.sMembers(this.key(PERSON + userId)));
  }

  async epochOf(userId: string): Promise<number> {
    return Number((await timed(this.client.get(this.key(EPOCH + epochKey(userId))))) ?? 0);
  }

  async beginForget(userId: string): Promise<number> {
    return Number(await timed(this.client.eval(BEGIN_FORGET, { keys: [this.key(EPOCH + epochKey(userId))] }))) + 1;
  }

  async endForget(userId: string, epoch: number): Promise<void> {
    await timed(this.client.eval(END_FORGET, { keys: [this.key(EPOCH + epochKey(userId))], arguments: [String(epoch)] }));
  }

  async forgetEpochs(): Promise<{ key: string; epoch: number }[]> {
    const prefix = this.key(EPOCH);
    const out: { key: string; epoch: number }[] = [];
    // Once per home and store (ForgetStamps): the epoch keys a page at a time, each call bounded like every other.
    let cursor = "0";
    do {
      const reply = await timed(this.client.scan(cursor, { MATCH: `${prefix}*`, COUNT: PAGE }));
      cursor = String(reply.cursor);
      if (reply.keys.length === 0) continue;
      const values = await timed(this.client.mGet(reply.keys));
      reply.keys.forEach((key, i) => {
        const epoch = Number(values[i] ?? 0);
        if (epoch !== 0) out.push({ key: key.slice(prefix.length), epoch });
      });
    } while (cursor !== "0");
    return out;
  }

  protected async *stored(statuses: readonly SessionStatus[]): AsyncGenerator<SessionRecord> {
    for (const status of statuses) {
      let cursor = "0";
      do {
        const reply = await timed(this.client.sScan(this.key(STATUS + status), cursor, { COUNT: PAGE }));
        cursor = String(reply.cursor);
        if (reply.members.length === 0) continue;
        const records = await this.keyv.getMany<SessionRecord>(reply.members.map((id) => SESSION + id));
        // A record may have moved on between the two reads: it is in a later set by now.
        for (const record of records) if (record?.status === status) yield record;
      } while (cursor !== "0");
    }
  }

  async countByStatus(): Promise<Record<SessionStatus, number>> {
    const counts = await timed(Promise.all(SESSION_STATUSES.map((status) => this.client.sCard(this.key(STATUS + status)))));
    return { open: counts[0]!, closing: counts[1]!, "pending-summary": counts[2]!, closed: counts[3]! };
  }

  async claim(name: string, owner: string, ttlMs: number, options: { from?: string } = {}): Promise<boolean> {
    checkClaim(name, owner, ttlMs);
    // Expiry by Redis's clock, one clock for every process.
    const held = await timed(this.client.eval(CLAIM, { keys: [this.key(CLAIM_KEY + name)], arguments: [owner, String(ttlMs), options.from ?? ""] }));
    return Number(held) === 1;
  }

  async holderOf(name: string): Promise<string | undefined> {
    return (await timed(this.client.get(this.key(CLAIM_KEY + name)))) ?? undefined;
  }

  async release(name: string, owner: string): Promise<void> {
    await timed(this.client.eval(RELEASE, { keys: [this.key(CLAIM_KEY + name)], arguments: [owner] }));
  }

  async ping(): Promise<void> {
    await withTimeout(this.client.ping(), PING_TIMEOUT_MS, `the session store (Redis) did not answer within ${PING_TIMEOUT_MS} ms`);
  }

  /**
   * Redis drops a deleted value from memory at once, but its append-only file keeps every write
   * ever made until it is rewritten: rewrite it, and wait until the rewrite is done (Redis then
   * deletes the old files). Without an append-only file there is nothing to do here.
   */
  async purge(): Promise<void> {
    if (!/^aof_enabled:1\b/m.test(await this.persistence())) return;
    const deadline = Date.now() + AOF_REWRITE_MS;
    // A rewrite already running may have copied the data before the words went: let it finish, then start ours.
    for (;;) {
      await this.aofRewriteDone(deadline);
      try {
        await timed(this.client.bgRewriteAof());
        break;
      } catch (error) {
        if (!/in progress/i.test((error as Error).message)) throw error;
      }
    }
    const info = await this.aofRewriteDone(deadline);
    if (!/^aof_last_bgrewrite_status:ok\b/m.test(info)) throw new Error("Redis could not rewrite its append-only file");
  }

  /** Resolves with INFO persistence once no rewrite of the append-only file runs or waits to run. */
  private async aofRewriteDone(deadline: number): Promise<string> {
    for (;;) {
      const info = await this.persistence();
      if (/^aof_rewrite_in_progress:0\b/m.test(info) && /^aof_rewrite_scheduled:0\b/m.test(info)) return info;
      if (Date.now() > deadline) throw new Error(`Redis did not finish rewriting its append-only file within ${AOF_REWRITE_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, AOF_POLL_MS));
    }
  }

  private async persistence(): Promise<string> {
    return timed(this.client.info("persistence"));
  }

  protected async disconnect(): Promise<void> {
    // A graceful close waits for the answers to calls in flight, which a down or hung Redis never gives.
    const answering =
      this.client.isReady &&
      (await this.ping().then(
        () => true,
        () => false,
      ));
    if (answering) await this.client.close();
    else if (this.client.isOpen) this.client.destroy();
  }

  /** A key under keyv's namespace, as the adapter writes its own. */
  private key(name: string): string {
    return this.adapter.createKeyPrefix(name, this.adapter.namespace);
  }

  private statusKeys(): string[] {
    return SESSION_STATUSES.map((status) => this.key(STATUS + status));
  }
}

/** The server and database a URL names, without user or password: the same for every process using it. */
function whereOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/^\/$/, "") || "/0"}`;
}

/** Where the URL points, without its password. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "an unreadable URL";
  }
}
