import { hostname } from "node:os";
import type { Logger } from "../lib/logger.js";
import { localDate, localTime } from "../lib/time.js";
import type { MemoryStore } from "../memory/memory-store.js";
import type { ModelClient } from "../model/model-client.js";
import { ModelError } from "../model/model-error.js";
import { hasExchange, type SessionRecord } from "../sessions/session-record.js";
import { SessionForgottenError, SessionMovedOnError, type SessionStore } from "../sessions/session-store.js";
import { archiveConversation } from "./conversation-archive.js";
import { appendDailyEntry, entryHeading } from "./daily-entry.js";
import { maskSecretsInRecord } from "./mask-record.js";
import { summariseConversation } from "./summarise.js";

/**
 * Closing a session, the session engine's share of it: under a claim in the session store (one
 * process at a time, also when shards share the store), the transcript archived, the conversation
 * summarised into the daily log, old logs archived, the record marked closed. SessionEngine runs
 * it under the session's mutex and keeps the triggers (close, the pending retries).
 */

export type CloseOutcome = "closed" | "already-closed" | "empty" | "pending-summary";

/** How many times a close starts again from the store's copy after a forget changed the session under it. */
const CLOSE_ATTEMPTS = 3;

/**
 * How long a close may hold its claim: a summary and a condensed day are two model calls.
 * A process killed mid-close leaves the claim to expire, and the close is retried after.
 */
const CLOSE_LEASE_MS = 5 * 60_000;

/** A claim holder (`host:pid:tag`) that ran on this machine and whose process is gone. */
function deadOnThisHost(holder: string): boolean {
  const [host, pid] = holder.split(":");
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export interface ClosingDeps {
  store: SessionStore;
  model: ModelClient;
  log: Logger;
  /** This process as claims name it. */
  worker: string;
  clock: () => Date;
  contextTokens: () => number;
  currentEpoch(userId: string): Promise<number>;
  /** The person's memory as the session writes it (refused once a forget passed the session's copy). */
  sessionMemory(record: SessionRecord): MemoryStore;
  /** Whether the person was told, during the conversation, that their storage is full. */
  toldFull(sessionId: string): boolean;
  /** The conversation is archived (or refused for the quota): the engine's per-session counts go. */
  archived(sessionId: string): void;
  onClosed?: (userId: string) => void;
}

export class Closing {
  constructor(private readonly deps: ClosingDeps) {}

  /**
   * Runs a close under a claim in the session store, so one process at a time closes a session
   * even when several share the store (shards retrying pending closes while the owning shard
   * closes its thread). The record is read again from the store once the claim is held: another
   * process may have closed it meanwhile. "already-closed" while another process holds the claim.
   */
  /**
   * A claim, also taken over from a process on this machine that has died holding it (killed
   * mid-close): its restart closes the session at once instead of after the lease.
   */
  private async takeClaim(name: string): Promise<boolean> {
    if (await this.deps.store.claim(name, this.deps.worker, CLOSE_LEASE_MS)) return true;
    const holder = await this.deps.store.holderOf(name);
    if (!holder || !deadOnThisHost(holder)) return false;
    return this.deps.store.claim(name, this.deps.worker, CLOSE_LEASE_MS, { from: holder });
  }

  async claimed(id: string, work: (record: SessionRecord) => Promise<CloseOutcome>): Promise<CloseOutcome> {
    const claim = `close:${id}`;
    if (!(await this.takeClaim(claim))) return "already-closed";
    try {
      for (let attempt = 1; ; attempt++) {
        const record = await this.deps.store.reload(id);
        if (!record || record.status === "closed") return "already-closed";
        // A forget of this person under way finishes first; then the store's copy is the forgotten one.
        if ((record.epoch ?? 0) < (await this.deps.currentEpoch(record.userId))) {
          if (attempt >= CLOSE_ATTEMPTS) throw new SessionForgottenError(id);
          continue;
        }
        try {
          return await work(record);
        } catch (error) {
          // Forgotten while closing: what it wrote before, the forget took out; after, nothing was written. Again, from the store's copy.
          if (!(error instanceof SessionForgottenError) || attempt >= CLOSE_ATTEMPTS) throw error;
        }
      }
    } catch (error) {
      if (error instanceof SessionMovedOnError) return "already-closed";
      throw error;
    } finally {
      await this.deps.store.release(claim, this.deps.worker).catch(() => {});
    }
  }

  /** Summarises a closing session into the daily log and archives it; "pending-summary" when the model cannot. */
  async finish(record: SessionRecord): Promise<CloseOutcome> {
    const memory = this.deps.sessionMemory(record);
    const now = this.deps.clock();
    // From here on the session keeps no secret: its transcript, summary request and every save (design §9).
    await maskSecretsInRecord(record);
    if (!hasExchange(record)) {
      await this.markClosed(record, now);
      return "empty";
    }
    // Before the summary: the transcript needs no model, and a retried close rewrites the same file.
    // Refused for the quota only when the person was told while they talked; else kept (one conversation over it).
    const full = await archiveConversation(memory, record, { masked: true, quota: record.toldFull === true || this.deps.toldFull(record.id) });
    this.deps.archived(record.id);
    // Not kept word for word anywhere, as the person was told: the store drops its copy once the summary is made.
    if (full) record.notArchived = "storage-full";
    else delete record.notArchived;
    if (full)
      this.deps.log.warn(
        { sessionId: record.id, usedBytes: full.usedBytes, quotaBytes: full.quotaBytes },
        "conversation not archived: the person is over their storage quota",
      );
    // A summary kept from an earlier attempt: that attempt may have written the daily entry already.
    const retry = record.summary !== undefined;
    try {
      record.summary ??= await summariseConversation(
        this.deps.model,
        record,
        localDate(new Date(record.closeRequestedAt ?? now.toISOString()), memory.timeZone().zone),
        this.deps.contextTokens(),
      );
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      record.status = "pending-summary";
      await this.deps.store.save(record);
      this.deps.log.warn({ sessionId: record.id, err: error.message }, "summary pending: model unavailable");
      return "pending-summary";
    }
    await this.deps.store.save(record);
    const closedAt = new Date(record.closeRequestedAt ?? now.toISOString());
    const { zone } = memory.timeZone();
    await appendDailyEntry(
      memory,
      {
        date: localDate(closedAt, zone),
        // An older session that did not know its place is not marked public: its thread may have been private.
        heading: entryHeading(localTime(closedAt, zone), record.title, record.channel.visibility ?? "private"),
        summary: record.summary,
        retry,
        ...(record.channel.visibility === "public" && record.channel.guildId ? { publicIn: record.channel.guildId } : {}),
      },
      this.deps.model,
    );
    await memory.archiveOldDailies(now);
    await this.markClosed(record, now);
    this.deps.onClosed?.(record.userId);
    return "closed";
  }

  private async markClosed(record: SessionRecord, now: Date): Promise<void> {
    if (record.notArchived) {
      record.messages = [];
      delete record.parts;
      delete record.sourceIds;
      delete record.condensed;
    }
    record.status = "closed";
    record.closedAt = now.toISOString();
    await this.deps.store.save(record);
    this.deps.log.info({ sessionId: record.id, reason: record.closeReason }, "session closed");
  }
}
