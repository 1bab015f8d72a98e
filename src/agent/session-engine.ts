import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { BackgroundWork } from "../background-work.js";
import { KeyedMutex } from "../keyed-mutex.js";
import type { Logger } from "../logger.js";
import type { JournalEntry } from "../memory/journal.js";
import { modelWriter } from "../memory/memory-file.js";
import { forgottenName, scrub } from "../memory/forget.js";
import { undoable } from "../memory/undo.js";
import { MemoryStore, type MemoryStoreOptions } from "../memory/memory-store.js";
import { buildSystemPrompt } from "../memory/system-prompt.js";
import { localDate, localTime } from "../memory/time.js";
import type { MemoryChange, PendingChange } from "../tools/execute-tool.js";
import { runTurn, type TurnMessage, type TurnTiming } from "./agent-loop.js";
import { baseInstructions } from "./base-instructions.js";
import { condenseHistory, historyChars, overBudget, requestContext } from "./history.js";
import { archiveClosedSessions, archiveConversation } from "./conversation-archive.js";
import { maskSecretsInRecord } from "./mask-record.js";
import { appendDailyEntry, entryHeading } from "./daily-entry.js";
import { ModelError, type ModelClient, type TokenUsage } from "./model-client.js";
import { hasExchange, type SessionPlace, type SessionRecord } from "./session-record.js";
import { SessionMovedOnError, type SessionStore } from "./session-store.js";
import { summariseConversation } from "./summarise.js";
import { noTelemetry, type Telemetry, type TurnOutcome } from "./telemetry.js";

export interface SessionEngineDeps {
  home: string;
  memory: MemoryStoreOptions;
  model: ModelClient;
  store: SessionStore;
  log: Logger;
  /** Characters of history sent verbatim before older exchanges are condensed. */
  historyBudgetChars: number;
  clock?: () => Date;
  /** Told how each turn went and what became of the model's memory writes (metrics). */
  telemetry?: Telemetry;
}

export interface OpenRequest {
  userId: string;
  displayName: string;
  locale: string | undefined;
  title: string;
  place: SessionPlace;
}

export interface TurnResult {
  text: string;
  changes: MemoryChange[];
  proposals: PendingChange[];
  usage: TokenUsage;
  /** Stopped by the person: `text` is what was shown, and what the history keeps. */
  stopped: boolean;
}

export interface TurnOptions {
  onDelta?: (text: string) => void;
  /** Aborting it stops the answer (the Stop button). */
  signal?: AbortSignal;
}

export type SessionSummary = Pick<SessionRecord, "id" | "userId" | "status" | "title" | "locale">;

export type CloseOutcome = "closed" | "already-closed" | "empty" | "pending-summary";

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

export class SessionClosedError extends Error {
  constructor(readonly sessionId: string) {
    super("This conversation has ended; start a new one.");
  }
}

/** Opens, runs and closes sessions; the front ends (Discord, terminal) sit on top. */
export class SessionEngine {
  /** Turns, clears and closes of one session run one at a time. */
  private readonly sessions = new KeyedMutex();
  private readonly background: BackgroundWork;
  /** First saves of sessions just opened, not yet on disk. */
  private readonly opening = new Map<string, Promise<void>>();
  private readonly clock: () => Date;
  /** Who holds a claim in the shared session store: this process. */
  private readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly telemetry: Telemetry;

  constructor(private readonly deps: SessionEngineDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.telemetry = deps.telemetry ?? noTelemetry;
    this.background = new BackgroundWork((failure, error) => deps.log.error({ err: String(error) }, failure));
  }

  memoryOf(userId: string): MemoryStore {
    return MemoryStore.forUser(this.deps.home, userId, this.deps.memory);
  }

  /** Snapshots the person's memory into a system prompt that stays fixed for the whole session. */
  async open(request: OpenRequest): Promise<SessionRecord> {
    const memory = this.memoryOf(request.userId);
    const now = this.clock();
    const snapshot = await memory.snapshot(now);
    if (snapshot.soulMissing) {
      // A first session: the prompt gets the default persona now; SOUL.md is written off the reply's path.
      snapshot.soul = await memory.defaultSoul(request.locale);
      this.inBackground(memory.ensureDefaults(request.locale), "could not write the default SOUL.md");
    }
    for (const warning of snapshot.warnings) this.deps.log.warn({ userId: request.userId }, warning);
    const base = baseInstructions({ place: request.place, title: request.title, displayName: request.displayName, snapshot });
    const systemPrompt = buildSystemPrompt(snapshot, base, {
      warn: (message) => this.deps.log.warn({ userId: request.userId }, message),
    });
    const record: SessionRecord = {
      id: randomUUID(),
      userId: request.userId,
      displayName: request.displayName,
      locale: request.locale,
      title: request.title,
      channel: request.place,
      systemPrompt,
      messages: [],
      status: "open",
      openedAt: now.toISOString(),
      lastActivityAt: now.toISOString(),
      usage: [],
    };
    // Written while the first request goes to the model; every later save of the session waits
    // for it (firstSaveDone), and writes it again if it failed.
    const saved = this.deps.store.save(record, { newest: true });
    this.opening.set(record.id, saved);
    this.inBackground(saved, "could not save a new session; retrying with its first turn");
    this.deps.log.info({ sessionId: record.id, userId: record.userId }, "session opened");
    return record;
  }

  /** A copy of a session's record. */
  async get(id: string): Promise<SessionRecord | undefined> {
    const record = await this.deps.store.get(id);
    return record && structuredClone(record);
  }

  /** A copy of the newest session of a thread or DM channel, whatever its status. */
  async latestIn(channelId: string): Promise<SessionRecord | undefined> {
    const record = await this.deps.store.latestIn(channelId);
    return record && structuredClone(record);
  }

  /** Who owns the newest session of a channel and its state: what routing a message needs, cheaply. */
  async sessionIn(channelId: string): Promise<SessionSummary | undefined> {
    const record = await this.deps.store.latestIn(channelId);
    if (!record) return undefined;
    const { id, userId, status, title, locale } = record;
    return { id, userId, status, title, locale };
  }

  /** Waits for writes started in the background (before a shutdown), and for the recall index to follow them. */
  async settle(): Promise<void> {
    await this.background.settle();
    // The index follows the files; embeddings may take minutes and resume at the next start.
    await this.deps.memory.recall?.settle({ embeddings: false });
  }

  /**
   * Writes out the transcripts of sessions that closed before conversations were archived
   * (once per session store). Returns how many were written.
   */
  async archiveEarlierConversations(): Promise<number> {
    return archiveClosedSessions(this.deps.store, (userId) => this.memoryOf(userId));
  }

  /**
   * Runs one turn. A failed turn leaves the stored history exactly as it was; a stopped one
   * keeps what was shown. `input` is the person's text, or their text with images.
   */
  async turn(id: string, input: string | TurnMessage, { onDelta, signal }: TurnOptions = {}): Promise<TurnResult> {
    const message = typeof input === "string" ? { text: input } : input;
    const result = await this.sessions.run(id, async () => {
      const record = await this.require(id);
      if (record.status !== "open") throw new SessionClosedError(id);
      // From here to the save is the turn's time: model requests, and AgentKit's own work around them.
      const started = performance.now();
      const timing: TurnTiming = { modelMs: 0 };
      let outcome: TurnOutcome = "error";
      try {
        // Before the request, not only after the turn: turns back to back leave no idle moment to condense in.
        if (overBudget(record, message.text, this.deps.historyBudgetChars)) await this.condenseNow(record, timing);
        const output = await runTurn({
          model: this.deps.model,
          memory: this.memoryOf(record.userId),
          context: requestContext(record),
          message,
          now: this.clock(),
          writer: modelWriter(record.id, record.title),
          timing,
          onMemoryWrite: (written) => this.telemetry.memoryWrite(written),
          platform: record.channel.platform,
          ...(onDelta ? { onDelta } : {}),
          ...(signal ? { signal } : {}),
        });
        record.messages.push(...output.messages);
        record.usage.push(output.usage);
        record.lastActivityAt = this.clock().toISOString();
        await this.firstSaveDone(id);
        await this.deps.store.save(record);
        outcome = output.stopped ? "stopped" : "ok";
        return { record, output };
      } finally {
        this.telemetry.turn(outcome, performance.now() - started - timing.modelMs, timing.modelMs);
      }
    });
    // Measuring the history is left until the reply has been shown.
    setImmediate(() => {
      if (historyChars(result.record) > this.deps.historyBudgetChars) void this.condense(id);
    });
    const { output } = result;
    return { text: output.text, changes: output.changes, proposals: output.proposals, usage: output.usage, stopped: output.stopped };
  }

  /** Drops the conversation so far; the snapshot (system prompt) and the memory files stay. */
  async clear(id: string): Promise<void> {
    await this.sessions.run(id, async () => {
      const record = await this.require(id);
      await this.firstSaveDone(id);
      record.messages = [];
      delete record.condensed;
      await this.deps.store.save(record);
    });
  }

  /**
   * Closes exactly once, whatever mix of triggers arrives: summarises the conversation into
   * today's daily log and archives old logs. If the model is down the session waits as
   * pending-summary and is retried later.
   */
  async close(id: string, reason: string): Promise<CloseOutcome> {
    return this.sessions.run(id, async () => {
      await this.firstSaveDone(id);
      return this.closeClaimed(id, async (record) => {
        if (record.status === "open") {
          record.status = "closing";
          record.closeReason = reason;
          record.closeRequestedAt = this.clock().toISOString();
          await this.deps.store.save(record);
        }
        return this.finishClose(record);
      });
    });
  }

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
    if (await this.deps.store.claim(name, this.worker, CLOSE_LEASE_MS)) return true;
    const holder = await this.deps.store.holderOf(name);
    if (!holder || !deadOnThisHost(holder)) return false;
    return this.deps.store.claim(name, this.worker, CLOSE_LEASE_MS, { from: holder });
  }

  private async closeClaimed(id: string, work: (record: SessionRecord) => Promise<CloseOutcome>): Promise<CloseOutcome> {
    const claim = `close:${id}`;
    if (!(await this.takeClaim(claim))) return "already-closed";
    try {
      const record = await this.deps.store.reload(id);
      if (!record || record.status === "closed") return "already-closed";
      return await work(record);
    } catch (error) {
      if (error instanceof SessionMovedOnError) return "already-closed";
      throw error;
    } finally {
      await this.deps.store.release(claim, this.worker).catch(() => {});
    }
  }

  /** Retries every close that is pending or was interrupted (start-up and periodically). */
  async retryPendingCloses(): Promise<{ closed: number; pending: number }> {
    const waiting: string[] = [];
    for await (const record of this.deps.store.withStatus(["pending-summary", "closing"])) waiting.push(record.id);
    let closed = 0;
    for (const id of waiting) {
      // One close that fails (a disk error, say) must not stop the others or the bot.
      const outcome = await this.sessions
        .run(id, () => this.closeClaimed(id, async (record) => (record.status === "open" ? "already-closed" : this.finishClose(record))))
        .catch((error: unknown) => {
          this.deps.log.error({ err: String(error), sessionId: id }, "a pending close failed; it will be retried");
          return "failed" as const;
        });
      if (outcome === "closed" || outcome === "empty") closed++;
    }
    return { closed, pending: waiting.length - closed };
  }

  /** Every stored session of a person, whatever its state. */
  private async sessionsOf(userId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const record of this.deps.store.withStatus(["open", "closing", "pending-summary", "closed"])) {
      if (record.userId === userId) ids.push(record.id);
    }
    return ids;
  }

  /** How many of a person's stored sessions mention the words (the forget preview). */
  async sessionsMentioning(userId: string, hit: (text: string) => boolean): Promise<number> {
    let count = 0;
    for (const id of await this.sessionsOf(userId)) {
      const record = await this.deps.store.get(id);
      if (record && hit(JSON.stringify(record))) count++;
    }
    return count;
  }

  /**
   * Takes text that mentions the words out of a person's stored sessions (history, summaries,
   * frozen prompts): forgetting reaches the session store too. Returns how many changed.
   */
  async forgetInSessions(userId: string, hit: (text: string) => boolean): Promise<number> {
    let changed = 0;
    for (const id of await this.sessionsOf(userId)) {
      await this.sessions.run(id, async () => {
        const record = await this.deps.store.get(id);
        if (!record) return;
        const before = JSON.stringify(record);
        record.messages = record.messages.map((m) => forgetIn(m, hit));
        if (record.summary !== undefined) record.summary = scrub(record.summary, hit) ?? "";
        if (record.condensed) record.condensed.summary = scrub(record.condensed.summary, hit) ?? "";
        record.systemPrompt = scrub(record.systemPrompt, hit) ?? "";
        // The same rule as for the conversation file: a title or place that mentions the words renames it.
        const titled = hit(record.title) || hit(record.channel.description) || hit(record.conversationFile ?? "");
        if (titled && record.conversationFile) record.conversationFile = forgottenName(record.conversationFile);
        if (hit(record.title)) record.title = "[forgotten]";
        if (hit(record.channel.description)) record.channel = { ...record.channel, description: "[forgotten]" };
        if (JSON.stringify(record) === before) return;
        await this.deps.store.save(record);
        changed++;
      });
    }
    if (changed > 0) await this.deps.store.purge();
    return changed;
  }

  /** Deletes every session of a person, their files and their index (/memory delete-all). */
  async deleteEverything(userId: string): Promise<void> {
    for (const id of await this.sessionsOf(userId)) {
      await this.sessions.run(id, async () => {
        const record = await this.deps.store.get(id);
        if (record) await this.deps.store.remove(record);
      });
    }
    await this.deps.store.purge();
    await this.memoryOf(userId).deleteEverything();
  }

  /** What the model changed in memory during a session and is not undone yet, oldest first (the receipt). */
  async memoryChangesOf(sessionId: string, userId: string): Promise<JournalEntry[]> {
    const entries = [...(await this.memoryOf(userId).history())].reverse();
    return undoable(entries)
      .reverse()
      .filter((e) => e.by.kind === "model" && e.by.session === sessionId);
  }

  async *openSessions(): AsyncGenerator<SessionRecord> {
    yield* this.deps.store.withStatus(["open"]);
  }

  private async finishClose(record: SessionRecord): Promise<CloseOutcome> {
    const memory = this.memoryOf(record.userId);
    const now = this.clock();
    // From here on the session keeps no secret: its transcript, summary request and every save (design §9).
    maskSecretsInRecord(record);
    if (!hasExchange(record)) {
      await this.markClosed(record, now);
      return "empty";
    }
    // Before the summary: the transcript needs no model, and a retried close rewrites the same file.
    await archiveConversation(memory, record);
    // A summary kept from an earlier attempt: that attempt may have written the daily entry already.
    const retry = record.summary !== undefined;
    try {
      record.summary ??= await summariseConversation(this.deps.model, record);
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
        heading: entryHeading(localTime(closedAt, zone), record.title),
        summary: record.summary,
        retry,
      },
      this.deps.model,
    );
    await memory.archiveOldDailies(now);
    await this.markClosed(record, now);
    return "closed";
  }

  private async markClosed(record: SessionRecord, now: Date): Promise<void> {
    record.status = "closed";
    record.closedAt = now.toISOString();
    await this.deps.store.save(record);
    this.deps.log.info({ sessionId: record.id, reason: record.closeReason }, "session closed");
  }

  private async condense(id: string): Promise<void> {
    await this.sessions
      .run(id, async () => {
        const record = await this.require(id);
        if (record.status !== "open") return;
        const condensed = await condenseHistory(this.deps.model, record, this.deps.historyBudgetChars);
        if (!condensed) return;
        record.condensed = condensed;
        await this.deps.store.save(record);
      })
      .catch((error: unknown) => this.deps.log.warn({ sessionId: id, err: String(error) }, "history not condensed"));
  }

  /** Condenses the history of a turn about to go over budget; if the model cannot, the turn goes ahead as it is. */
  private async condenseNow(record: SessionRecord, timing: TurnTiming): Promise<void> {
    const asking = performance.now();
    try {
      const condensed = await condenseHistory(this.deps.model, record, this.deps.historyBudgetChars);
      if (!condensed) return;
      record.condensed = condensed;
      await this.firstSaveDone(record.id);
      await this.deps.store.save(record);
    } catch (error) {
      this.deps.log.warn({ sessionId: record.id, err: String(error) }, "history not condensed before the request");
    } finally {
      timing.modelMs += performance.now() - asking;
    }
  }

  /** Waits for a new session's first save; writes it again (channel pointer included) if it failed. */
  private async firstSaveDone(id: string): Promise<void> {
    const pending = this.opening.get(id);
    if (!pending) return;
    try {
      await pending;
    } catch {
      const record = await this.deps.store.get(id);
      const retry = record ? this.deps.store.save(record, { newest: true }) : Promise.resolve();
      // Until a write succeeds, the next save of the session tries again.
      this.opening.set(id, retry);
      retry.catch(() => {});
      await retry;
    }
    this.opening.delete(id);
  }

  /** Runs work off the caller's path; settle() waits for it, a failure is logged. */
  inBackground(work: Promise<unknown>, failure: string): void {
    this.background.add(work, failure);
  }

  private async require(id: string): Promise<SessionRecord> {
    const record = await this.deps.store.get(id);
    if (!record) throw new SessionClosedError(id);
    return record;
  }
}

/** A message with what mentions the words taken out: its text, and a tool call's arguments. */
function forgetIn(message: ChatCompletionMessageParam, hit: (text: string) => boolean): ChatCompletionMessageParam {
  let out = message;
  if (typeof out.content === "string" && hit(out.content)) out = { ...out, content: "[forgotten]" } as ChatCompletionMessageParam;
  if (out.role === "assistant" && out.tool_calls?.some((c) => c.type === "function" && hit(c.function.arguments))) {
    out = {
      ...out,
      tool_calls: out.tool_calls.map((c) => (c.type === "function" && hit(c.function.arguments) ? { ...c, function: { ...c.function, arguments: '{"forgotten":true}' } } : c)),
    };
  }
  return out;
}
