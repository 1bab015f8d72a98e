import { createHash } from "node:crypto";
import type Keyv from "keyv";
import type { SessionRecord } from "./session-record.js";
import type { SessionStatus } from "../lib/telemetry.js";

export const NAMESPACE = "agentkit";
export const SESSION = "session:";
const CHANNEL = "channel:";
const FLAG = "flag:";
const ITEM = "item:";
/** Set once a store holds the person index (stores saved before it get it at open). */
export const PERSON_INDEX_FLAG = "person-index-v1";
/** Records read per query or round trip when listing sessions. */
export const PAGE = 500;
/** How long ping() waits for an answer before the store counts as down (/healthz). */
export const PING_TIMEOUT_MS = 2_000;

/** In the order a session goes through them: a status only ever moves forward. */
export const SESSION_STATUSES = ["open", "closing", "pending-summary", "closed"] as const satisfies readonly SessionStatus[];
export const STATUS_RANK: Record<SessionStatus, number> = { open: 0, closing: 1, "pending-summary": 2, closed: 3 };

/** Channels known to have no session; cleared when it grows past this. */
const MAX_NEGATIVE = 20_000;

/** A save the store refused: another process has moved this session further along (it closed it, say). */
export class SessionMovedOnError extends Error {
  constructor(readonly sessionId: string) {
    // Only closes move a session on elsewhere: to the person, it has ended.
    super("This conversation has ended; start a new one.");
  }
}

/**
 * A save the store refused because the copy was read before the person forgot something (or
 * deleted everything): it may hold the forgotten text. The stale copy is dropped; what the store
 * holds now (forgotten, or nothing) is what the next read gives.
 */
export class SessionForgottenError extends Error {
  constructor(readonly sessionId: string) {
    super("This conversation changed elsewhere (something in it was forgotten); it was read again.");
  }
}

/** What the store did with a record it was asked to write. */
export type WriteVerdict = "written" | "moved-on" | "forgotten";

/**
 * The lowest epoch a record of a person must carry to be saved, given the person's epoch now:
 * the epoch itself, or while a forget runs (odd) the even one it stamps its copies with.
 */
export function neededEpoch(personEpoch: number): number {
  return personEpoch + (personEpoch % 2);
}

/**
 * What a person's forget epoch is kept under: a hash of their id, so that a person who deleted
 * everything leaves no id behind in the store (the epoch itself must stay, as their tombstone).
 */
export function epochKey(userId: string): string {
  let key = epochKeys.get(userId);
  if (key === undefined) {
    key = createHash("sha256").update(`agentkit-person:${userId}`).digest("hex").slice(0, 32);
    // Every turn asks (the forget stamp, the session's save): a hash made once per person, kept for the last few thousand.
    if (epochKeys.size >= EPOCH_KEYS_KEPT) epochKeys.clear();
    epochKeys.set(userId, key);
  }
  return key;
}

const EPOCH_KEYS_KEPT = 4_096;
const epochKeys = new Map<string, string>();

/**
 * What every session store does, whatever holds the records.
 *
 * What is cached, and why it is safe: the records of sessions this process has read or written
 * and not closed, and each channel's newest session. A session is driven by one process (the
 * shard that owns its channel), so a turn costs one write and no read. Another process may move
 * a session forward only through claimed work (start-up reconcile, idle and pending closes), and
 * a status only moves forward (open → closing → pending-summary → closed). So the store refuses a
 * save that would move a stored session back (SessionMovedOnError; the stale copy is dropped and
 * the next get reads the store), and `withStatus` selects by the stored status, giving the cached
 * copy only when it is at least as far along as the stored one.
 *
 * Forgetting reaches every process through the person's forget epoch, kept in the store: a
 * forget (or delete-all) moves it to an odd number while it runs and to the next even one when
 * done, and stamps the copies it writes with that even number. The store refuses, in the same
 * atomic step as the write, any record whose `epoch` is below it (SessionForgottenError): a copy
 * cached or read before the forget, or a session whose snapshot was taken before it. A removed
 * session needs no tombstone of its own: the person's epoch, which is never removed, is one for
 * every copy of it anywhere (it is kept under a hash of the person's id: epochKey).
 */
export abstract class SessionStoreBase {
  private closed = false;
  private readonly records = new Map<string, SessionRecord>();
  /** Channel id → newest session id, or null when the store has none. */
  private readonly channels = new Map<string, string | null>();

  protected constructor(protected readonly keyv: Keyv) {}

  /** Writes a record unless the stored one is further along, or the person forgot something since it was read. */
  protected abstract writeRecord(record: SessionRecord): Promise<WriteVerdict>;
  protected abstract deleteRecord(record: SessionRecord): Promise<void>;
  /** Stored records in one of these statuses, in rank order; one may come twice (it moved meanwhile). */
  protected abstract stored(statuses: readonly SessionStatus[]): AsyncGenerator<SessionRecord>;
  protected abstract disconnect(): Promise<void>;

  /** How many stored sessions are in each status (metrics), without reading the records. */
  abstract countByStatus(): Promise<Record<SessionStatus, number>>;
  /**
   * Work that must run once across processes: true when `owner` now holds `name` for `ttlMs`
   * (it was free or expired, or ours already and now renewed); false while another owner holds it.
   */
  abstract claim(name: string, owner: string, ttlMs: number, options?: { from?: string }): Promise<boolean>;
  /** Who holds a claim now, if anyone (to take it over from a process known to be dead: `claim(…, { from })`). */
  abstract holderOf(name: string): Promise<string | undefined>;
  /** Gives up a claim, only if `owner` still holds it. */
  abstract release(name: string, owner: string): Promise<void>;
  /** Resolves when the store answers within PING_TIMEOUT_MS; rejects otherwise (/healthz). */
  abstract ping(): Promise<void>;
  /** After a person's words were removed: drop what the backend keeps of deleted values. */
  abstract purge(): Promise<void>;
  /** The ids of a person's stored sessions, whatever their status, from the person index. */
  abstract sessionsOf(userId: string): Promise<string[]>;
  /** The person's forget epoch now: 0 until their first forget, odd while one runs. */
  abstract epochOf(userId: string): Promise<number>;
  /**
   * A forget (or delete-all) of a person starts: from now on the store refuses every record of
   * theirs that carries a lower epoch than the one returned, which the forget stamps its copies with.
   */
  abstract beginForget(userId: string): Promise<number>;
  /** The forget that began with `epoch` is done: copies stamped with it are the person's records from now on. */
  abstract endForget(userId: string, epoch: number): Promise<void>;
  /** Every person's forget epoch that is not 0, by epochKey (the forget stamps are made complete from it once). */
  abstract forgetEpochs(): Promise<{ key: string; epoch: number }[]>;
  /**
   * Which store this is, the same in every process that opens it and without a password (the
   * forget stamps say they are complete for one store), or undefined for one that lives and dies
   * with its process (`memory://`).
   */
  abstract readonly identity: string | undefined;

  /** A session's record as stored, through keyv (a store may read it in slices instead). */
  protected async readRecord(id: string): Promise<SessionRecord | undefined> {
    return (await this.keyv.get<SessionRecord>(SESSION + id)) ?? undefined;
  }

  /** The live record: only the session engine may change it, and must save it after. */
  async get(id: string): Promise<SessionRecord | undefined> {
    const cached = this.records.get(id);
    if (cached) return cached;
    const record = await this.readRecord(id);
    if (record && record.status !== "closed") this.records.set(id, record);
    return record;
  }

  /** The record as stored now, not as this process last saw it (work claimed from other processes). */
  async reload(id: string): Promise<SessionRecord | undefined> {
    this.records.delete(id);
    return this.get(id);
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
      const verdict = await this.writeRecord(record);
      if (verdict === "moved-on") throw new SessionMovedOnError(record.id);
      if (verdict === "forgotten") throw new SessionForgottenError(record.id);
      if (options.newest && !(await this.keyv.set(CHANNEL + channelId, record.id))) {
        throw new Error("the session store refused the write");
      }
    } catch (error) {
      // A new session stays in memory (its opener retries the write); for any other save,
      // memory may be ahead of the store now, or behind it: read it again next time.
      const refused = error instanceof SessionMovedOnError || error instanceof SessionForgottenError;
      if (!options.newest || refused) this.records.delete(record.id);
      if (error instanceof SessionForgottenError && options.newest && this.channels.get(channelId) === record.id) this.channels.delete(channelId);
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

  /** Every stored session in one of these states (start-up reconcile, pending closes), each once. */
  async *withStatus(statuses: readonly SessionStatus[]): AsyncGenerator<SessionRecord> {
    const wanted = SESSION_STATUSES.filter((s) => statuses.includes(s));
    const seen = new Set<string>();
    for await (const stored of this.stored(wanted)) {
      if (seen.has(stored.id)) continue;
      const record = this.newerOf(stored);
      if (!wanted.includes(record.status)) continue;
      seen.add(record.id);
      yield record;
    }
  }

  /**
   * Deletes a session and, if it is its channel's newest, the channel's pointer (a person deleting
   * their data, between beginForget and endForget so that no stale copy can bring it back).
   */
  async remove(record: SessionRecord): Promise<void> {
    this.records.delete(record.id);
    await this.deleteRecord(record);
    const channelId = record.channel.channelId;
    const newest = this.channels.get(channelId) ?? (await this.keyv.get<string>(CHANNEL + channelId));
    if (newest === record.id) {
      await this.keyv.delete(CHANNEL + channelId);
      this.channels.set(channelId, null);
    }
  }

  /** Store-wide facts such as a finished migration. */
  async hasFlag(name: string): Promise<boolean> {
    return (await this.keyv.get<boolean>(FLAG + name)) === true;
  }

  async setFlag(name: string): Promise<void> {
    if (!(await this.keyv.set(FLAG + name, true))) throw new Error("the session store refused the write");
  }

  /** A small value with an expiry that is not a session (the web page's sign-ins), for every process of this store. */
  async getItem<T>(key: string): Promise<T | undefined> {
    return (await this.keyv.get<T>(ITEM + key)) ?? undefined;
  }

  async setItem(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`an item's ttl must be a positive whole number of ms, not ${ttlMs}`);
    if (!(await this.keyv.set(ITEM + key, value, ttlMs))) throw new Error("the session store refused the write");
  }

  async deleteItem(key: string): Promise<void> {
    await this.keyv.delete(ITEM + key);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.disconnect();
  }

  /** The cached copy unless the stored one is further along (another process moved it on). */
  private newerOf(stored: SessionRecord): SessionRecord {
    const cached = this.records.get(stored.id);
    if (!cached) return stored;
    if (STATUS_RANK[stored.status] <= STATUS_RANK[cached.status]) return cached;
    this.records.delete(stored.id);
    return stored;
  }

  private remember(channelId: string, id: string | null): void {
    if (id === null && this.channels.size > MAX_NEGATIVE) this.channels.clear();
    this.channels.set(channelId, id);
  }
}

export function checkClaim(name: string, owner: string, ttlMs: number): void {
  if (name === "" || owner === "") throw new Error("a claim needs a name and an owner");
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`a claim's ttl must be a positive whole number of ms, not ${ttlMs}`);
}
