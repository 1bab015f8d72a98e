import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { BackgroundWork } from "../lib/background-work.js";
import { KeyedMutex } from "../lib/keyed-mutex.js";
import { Forgetting, type ForgetResult } from "./forgetting.js";
import { Closing, type CloseOutcome } from "./close-session.js";
import type { Logger } from "../lib/logger.js";
import type { JournalEntry } from "../memory/journal.js";
import { modelWriter } from "../memory/memory-file.js";
import { removeLeftoverTemporaryFilesOfEveryone } from "../memory/temporary-files.js";
import { undoable } from "../memory/undo.js";
import { MemoryStore, type MemoryStoreOptions } from "../memory/memory-store.js";
import { storageUsage, type StorageFull, type StorageUsage } from "../memory/storage-quota.js";
import { buildSystemPrompt } from "../memory/system-prompt.js";
import { isServerId, ServerNotes, type Suggestion } from "../memory/server-notes.js";
import { entriesOfServer } from "../memory/public-entries.js";
import type { SessionWords } from "./tools/voices.js";
import type { MemoryChange, ProposedChange, SourceRef } from "../memory/changes.js";
import { runTurn, storedMessage, type TurnInput, type TurnLimits, type TurnMessage, type TurnOutput, type TurnTiming } from "./agent-loop.js";
import { partsOf, type MessagePart, type PartSpan } from "../lib/provenance.js";
import { baseInstructions } from "./base-instructions.js";
import { condenseChat, chatSize, overBudget, requestContext } from "./chat-context.js";
import { chatBudget, promptLimit, type ChatBudget } from "./context-budget.js";
import { DEFAULT_CONTEXT_TOKENS } from "../lib/tokens.js";
import { archiveClosedSessions } from "./conversation-archive.js";
import type { ModelClient } from "../model/model-client.js";
import { noTelemetry, type Telemetry, type TokenUsage, type TurnOutcome } from "../lib/telemetry.js";
import { guestName, hasExchange, isPublicPlace, publicPlaceOf, type Guest, type SessionPlace, type SessionRecord } from "../sessions/session-record.js";
import { SessionForgottenError, type SessionStore } from "../sessions/session-store.js";
import { neededEpoch } from "../sessions/session-store-base.js";
import { readTidyState, takeTidyNotice, type TidyReport } from "../memory/tidy/tidy-state.js";
import { TIDY_SESSION } from "./tidy/tidy-up.js";
import { cutChars } from "../lib/text.js";
import { MESSAGE_PLACE } from "../lib/snowflake.js";
import { FILE_TABLE } from "../memory/file-kinds.js";

export interface SessionEngineDeps {
  home: string;
  memory: MemoryStoreOptions;
  model: ModelClient;
  store: SessionStore;
  log: Logger;
  /** Characters of history sent verbatim before older exchanges are condensed. */
  historyBudgetChars: number;
  /** The model's context in tokens (OPENAI_CONTEXT_TOKENS): bounds the frozen prompt and the history too. */
  contextTokens?: number;
  clock?: () => Date;
  /** Told how each turn went and what became of the model's memory writes (metrics). */
  telemetry?: Telemetry;
  /** Told after a conversation's close wrote its summary (the tidy-up looks at how full the files are). */
  onClosed?: (userId: string) => void;
}

export interface OpenRequest {
  userId: string;
  displayName: string;
  locale: string | undefined;
  title: string;
  place: SessionPlace;
  /** Members the owner invited into the thread (SessionRecord.guests). */
  guests?: Guest[];
}

export interface TurnResult {
  /** Where the memory the answer may rest on came from (memory_search's results), at most three. */
  sources: SourceRef[];
  /** The first turn of a conversation after a tidy-up: what it did, to tell the person once. */
  tidied?: TidyReport;
  text: string;
  changes: MemoryChange[];
  proposals: ProposedChange[];
  /** Changes to the server's notes the model suggested, for the front end to put before the moderators. */
  suggestions: Suggestion[];
  usage: TokenUsage;
  /** Stopped by the person: `text` is what was shown, and what the history keeps. */
  stopped: boolean;
  /** What this model or server could not take in this turn (tools, images): the front end says so once. */
  limits: TurnLimits;
}

export interface TurnOptions {
  onDelta?: (text: string) => void;
  /** Where the person's message is on the platform (Discord: "<channel id>/<message id>"), kept with the conversation. */
  sourceId?: string;
  /** Aborting it stops the answer (the Stop button). */
  signal?: AbortSignal;
}

export type SessionSummary = Pick<SessionRecord, "id" | "userId" | "status" | "title" | "locale" | "guests">;

export type { CloseOutcome };

export class SessionClosedError extends Error {
  constructor(readonly sessionId: string) {
    super("This conversation has ended; start a new one.");
  }
}

/**
 * A turn during which the person forgot something (in another process, say): the turn was made
 * from the conversation as it was before, so its exchange was not kept. The session goes on
 * from the forgotten copy.
 */
export class TurnForgottenError extends Error {
  constructor(readonly sessionId: string) {
    super("Something in this conversation was forgotten while the answer was being written, so that exchange was not kept.");
  }
}

/** How long a turn trusts a measure of the person's storage (storageFull). */
const STORAGE_CHECK_MS = 60_000;

/** What a session's words take in the session store, about: its messages' text as UTF-8 (an image's data is not kept with the conversation). */
function recordBytes(record: SessionRecord): number {
  return record.messages.reduce((sum, message) => sum + messageBytes(message), 0);
}

/** One message's words in bytes, counted once per message object (a stored message is never changed in place). */
function messageBytes(message: SessionRecord["messages"][number]): number {
  if (typeof message !== "object" || message === null) return 0;
  let bytes = countedBytes.get(message);
  if (bytes === undefined) {
    const content: unknown = message.content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((part: { type?: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : "")).join("")
          : "";
    bytes = Buffer.byteLength(text);
    countedBytes.set(message, bytes);
  }
  return bytes;
}

const countedBytes = new WeakMap<object, number>();

/** Opens, runs and closes sessions; the front ends (Discord, terminal) sit on top. */
export class SessionEngine {
  /** Turns, clears and closes of one session run one at a time. */
  private readonly sessions = new KeyedMutex();
  private readonly background: BackgroundWork;
  /** First saves of sessions just opened, not yet on disk. */
  private readonly opening = new Map<string, Promise<void>>();
  private readonly storageChecks = new Map<string, { at: number; usage: StorageUsage }>();
  private readonly budgets = new WeakMap<SessionRecord, { prompt: string; budget: ChatBudget }>();
  /** Sessions of this process: what their words take (after their last turn), and whether the person heard they are over the quota. */
  private readonly sessionBytes = new Map<string, number>();
  private readonly toldFull = new Set<string>();
  private readonly clock: () => Date;
  /** Who holds a claim in the shared session store: this process. */
  /** This process as claims name it (closes, tidy-ups). */
  readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly telemetry: Telemetry;
  /** Forget, delete a conversation, delete everything, and the forget epoch (engine/forgetting.ts). */
  private readonly forgetting: Forgetting;
  /** A close under its claim in the session store: summary, daily entry, archive (engine/close-session.ts). */
  private readonly closing: Closing;

  constructor(private readonly deps: SessionEngineDeps) {
    this.forgetting = new Forgetting({
      store: deps.store,
      home: deps.home,
      log: deps.log,
      clock: () => this.clock(),
      memoryOf: (userId) => this.memoryOf(userId),
      serverNotesOf: (guildId) => this.serverNotesOf(guildId),
      inBackground: (work, failure) => this.inBackground(work, failure),
    });
    this.clock = deps.clock ?? (() => new Date());
    this.telemetry = deps.telemetry ?? noTelemetry;
    this.closing = new Closing({
      store: deps.store,
      model: deps.model,
      log: deps.log,
      worker: this.worker,
      clock: () => this.clock(),
      contextTokens: () => this.contextTokens,
      currentEpoch: (userId) => this.currentEpoch(userId),
      sessionMemory: (record) => this.sessionMemory(record),
      toldFull: (id) => this.toldFull.has(id),
      archived: (id) => {
        this.toldFull.delete(id);
        this.sessionBytes.delete(id);
      },
      ...(deps.onClosed ? { onClosed: deps.onClosed } : {}),
    });
    this.background = new BackgroundWork((failure, error) => deps.log.error({ err: String(error) }, failure));
  }

  private get contextTokens(): number {
    return this.deps.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  }

  /**
   * What the chat may take beside the frozen prompt, worked out once per prompt: every turn asks
   * twice, and the estimate reads the whole 10 KB. Kept with the record (it goes when the record
   * does), for the prompt it was made from (a close masks the prompt into a new string).
   */
  private budgetOf(record: SessionRecord): ChatBudget {
    const known = this.budgets.get(record);
    if (known && known.prompt === record.systemPrompt) return known.budget;
    const budget = chatBudget(record.systemPrompt, this.contextTokens, this.deps.historyBudgetChars);
    this.budgets.set(record, { prompt: record.systemPrompt, budget });
    return budget;
  }

  /** A person's memory; `locale` is the language of the conversation or screen (a missing SOUL.md reads as the default persona in it). */
  memoryOf(userId: string, locale?: string): MemoryStore {
    return MemoryStore.forUser(this.deps.home, userId, this.memoryOptions(locale));
  }

  private memoryOptions(locale: string | undefined): MemoryStoreOptions {
    return locale === undefined ? this.deps.memory : { ...this.deps.memory, locale };
  }

  /**
   * Whether the person is at or over their storage quota, counting the words of the session they
   * talk in (kept in the session store until its close archives them). Asked every turn, so their
   * folder is measured at most once a minute a person in this process; imports and closes measure afresh.
   */
  async storageFull(userId: string, sessionId?: string): Promise<StorageFull | undefined> {
    const now = Date.now();
    let known = this.storageChecks.get(userId);
    if (!known || now - known.at >= STORAGE_CHECK_MS) {
      // A folder that cannot be read is not taken for an empty one, nor does it fail the turn: no answer.
      const usage = await storageUsage(this.memoryOf(userId)).catch((error: unknown) => {
        this.deps.log.warn({ userId, err: String(error) }, "storage not measured");
        return undefined;
      });
      if (!usage) return undefined;
      known = { at: now, usage };
      this.storageChecks.set(userId, known);
      // Old measures go: the map holds the people of the last minute.
      for (const [id, check] of this.storageChecks) if (now - check.at >= STORAGE_CHECK_MS) this.storageChecks.delete(id);
    }
    const { usage } = known;
    if (usage.quotaBytes === undefined) return undefined;
    // The words of the session so far, as its last turn left them (no extra read of the store a turn).
    const usedBytes = usage.usedBytes + (sessionId === undefined ? 0 : (this.sessionBytes.get(sessionId) ?? 0));
    if (usedBytes < usage.quotaBytes) return undefined;
    // The front ends say it the first time they hear it: from now on the close may leave this conversation unarchived.
    if (sessionId !== undefined) this.toldFull.add(sessionId);
    return { kind: "storage-full", usedBytes, quotaBytes: usage.quotaBytes, addsBytes: 0 };
  }

  /** A server's notes (guilds/<id>/SERVER.md), with their journal and the model's suggestions. */
  serverNotesOf(guildId: string): ServerNotes {
    return ServerNotes.of(this.deps.home, guildId, this.deps.memory.journalRetention);
  }

  /** Snapshots the person's memory into a system prompt that stays fixed for the whole session. */
  async open(request: OpenRequest): Promise<SessionRecord> {
    // settings.json read once for the opening, as for a turn: the snapshot's time zone, the default
    // persona's language and a public place's private sections all ask.
    const memory = MemoryStore.forTurnOf(this.deps.home, request.userId, this.memoryOptions(request.locale));
    // Read before the snapshot: if the person forgets something after it, the store refuses this record.
    const epoch = await this.currentEpoch(request.userId);
    const now = this.clock();
    const snapshot = await memory.snapshot(now);
    // A server's notes reach the conversations of that server only.
    const guildId = request.place.guildId;
    if (isServerId(guildId)) snapshot.serverNotes = this.serverNotesOf(guildId).readSync();
    for (const warning of snapshot.warnings) this.deps.log.warn({ userId: request.userId }, warning);
    const base = baseInstructions({ place: request.place, title: request.title, displayName: request.displayName, snapshot });
    const systemPrompt = buildSystemPrompt(snapshot, base, {
      ...(isPublicPlace(request.place)
        ? { publicPlace: { privateSections: memory.readSettings().privateSections, entryHere: entriesOfServer(memory.dir, guildId) } }
        : {}),
      warn: (message) => this.deps.log.warn({ userId: request.userId }, message),
      maxTokens: promptLimit(this.contextTokens),
    });
    const record: SessionRecord = {
      id: randomUUID(),
      userId: request.userId,
      displayName: request.displayName,
      locale: request.locale,
      title: request.title,
      channel: request.place,
      ...(request.guests?.length ? { guests: request.guests } : {}),
      systemPrompt,
      messages: [],
      status: "open",
      openedAt: now.toISOString(),
      lastActivityAt: now.toISOString(),
      usage: [],
      epoch,
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
    const { id, userId, status, title, locale, guests } = record;
    return { id, userId, status, title, locale, ...(guests ? { guests } : {}) };
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
  async turn(id: string, input: string | TurnMessage, { onDelta, signal, sourceId }: TurnOptions = {}): Promise<TurnResult> {
    const message = typeof input === "string" ? { text: input } : input;
    const result = await this.sessions.run(id, async () => {
      const record = await this.current(id);
      if (record.status !== "open") throw new SessionClosedError(id);
      // From here to the save is the turn's time: model requests, and AgentKit's own work around them.
      const started = performance.now();
      const timing: TurnTiming = { modelMs: 0 };
      let outcome: TurnOutcome = "error";
      const first = !hasExchange(record);
      try {
        // Before the request, not only after the turn: turns back to back leave no idle moment to condense in.
        const budget = this.budgetOf(record);
        let size = chatSize(record);
        if (overBudget(size, message.text, budget) && (await this.condenseNow(record, timing))) size = chatSize(record);
        // The message takes what the history leaves of the budget; the stored history keeps it whole.
        const maxMessageTokens = Math.max(256, budget.tokens - size.tokens);
        const output = await runTurn(this.turnInput(record, message, maxMessageTokens, timing, onDelta, signal));
        keepExchange(record, output, sourceId, this.clock());
        if (this.toldFull.has(id)) record.toldFull = true;
        this.sessionBytes.set(id, recordBytes(record));
        await this.firstSaveDone(id);
        await this.deps.store.save(record).catch(async (error: unknown) => {
          if (!(error instanceof SessionForgottenError)) throw error;
          // Forgotten meanwhile: the store keeps the forgotten copy; this exchange was made from the old one.
          const stored = await this.deps.store.reload(id);
          throw stored?.status === "open" ? new TurnForgottenError(id) : new SessionClosedError(id);
        });
        outcome = output.stopped ? "stopped" : "ok";
        // The tidy-up's notice, with the owner's first answer of a conversation.
        const tidied = first && !message.from ? await this.tidyNoticeFor(record) : undefined;
        return { record, output, tidied };
      } finally {
        this.telemetry.turn(outcome, performance.now() - started - timing.modelMs, timing.modelMs);
      }
    });
    // Measuring the history is left until the reply has been shown.
    setImmediate(() => {
      const size = chatSize(result.record);
      const budget = this.budgetOf(result.record);
      if (size.chars > budget.chars || size.tokens > budget.tokens) void this.condense(id);
    });
    const { output, tidied } = result;
    // tidy_up:ask: the run's proposals wait with this answer's, to be saved or discarded the same way.
    const proposals = tidied?.proposals ? [...output.proposals, ...this.tidyProposals(result.record.userId)] : output.proposals;
    return {
      text: output.text,
      changes: output.changes,
      proposals,
      suggestions: output.suggestions,
      usage: output.usage,
      stopped: output.stopped,
      sources: output.sources,
      limits: output.limits,
      ...(tidied ? { tidied } : {}),
    };
  }

  /**
   * What runTurn is given for a turn of this record. Kept out of turn()'s body, as are
   * keepExchange and tidyNoticeFor: V8 compiles an async function whole, with what it inlines, and a
   * session's turn is one of the first things it compiles (performance.md).
   */
  private turnInput(
    record: SessionRecord,
    message: TurnMessage,
    maxMessageTokens: number,
    timing: TurnTiming,
    onDelta: TurnOptions["onDelta"],
    signal: AbortSignal | undefined,
  ): TurnInput {
    return {
      maxMessageTokens,
      model: this.deps.model,
      memory: this.sessionMemory(record),
      context: requestContext(record),
      message,
      now: this.clock(),
      writer: modelWriter(record.id, record.title),
      timing,
      onMemoryWrite: (written) => this.telemetry.memoryWrite(written),
      platform: record.channel.platform,
      publicPlace: publicPlaceOf(record.channel),
      words: lazyWords(() => sessionWords(record, message)),
      ...(message.from ? { guestTurn: true } : {}),
      ...(isServerId(record.channel.guildId)
        ? {
            server: {
              notes: this.serverNotesOf(record.channel.guildId),
              userId: record.userId,
              sessionId: record.id,
              ...(message.from ? { guestId: message.from.userId } : {}),
            },
          }
        : {}),
      ...(onDelta ? { onDelta } : {}),
      ...(signal ? { signal } : {}),
    };
  }

  /**
   * Told once, with the first answer of the next conversation: a notice sent by DM is gone by then,
   * one that could not be (DMs closed, the bot was away) is shown here instead. Never to a guest
   * (the caller asks only for the owner's turn); where others read it, without its example (a line
   * of the owner's memory) and only when it waits for no Save (its proposals quote memory too; they
   * wait for a place that is not public).
   */
  private async tidyNoticeFor(record: SessionRecord): Promise<TidyReport | undefined> {
    const publicPlace = isPublicPlace(record.channel);
    const dir = this.memoryOf(record.userId).dir;
    // One look when there is nothing to tell (most first turns); taking it reads again, under the lock.
    const waiting = readTidyState(dir).notice;
    if (!waiting || (publicPlace && waiting.proposals)) return undefined;
    const notice = await takeTidyNotice(dir);
    return notice && publicPlace ? { ...notice, example: undefined } : notice;
  }

  private tidyProposals(userId: string): ProposedChange[] {
    return (
      this.memoryOf(userId)
        .listProposals(this.clock())
        .filter((p) => p.session === TIDY_SESSION)
        // The last night's: older ones wait in the terminal's /save list and expire after 7 days.
        .slice(-3)
        .map((p) => ({
          file: FILE_TABLE[p.file].label,
          section: p.section,
          proposal: p.id,
          summary: p.tool === "memory_remove" ? "−" : `~ “${cutChars((p.newText ?? p.content ?? "").replace(/\s+/g, " ").trim(), 80)}”`,
        }))
    );
  }

  /** Drops the conversation so far; the snapshot (system prompt) and the memory files stay. */
  async clear(id: string): Promise<void> {
    await this.sessions.run(id, async () => {
      await this.firstSaveDone(id);
      const record = await this.current(id);
      record.messages = [];
      delete record.sourceIds;
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
      return this.closing.claimed(id, async (record) => {
        if (record.status === "open") {
          record.status = "closing";
          record.closeReason = reason;
          record.closeRequestedAt = this.clock().toISOString();
          await this.deps.store.save(record);
        }
        return this.closing.finish(record);
      });
    });
  }

  /** Retries every close that is pending or was interrupted (start-up and periodically). */
  async retryPendingCloses(): Promise<{ closed: number; pending: number }> {
    const waiting: string[] = [];
    for await (const record of this.deps.store.withStatus(["pending-summary", "closing"])) waiting.push(record.id);
    let closed = 0;
    for (const id of waiting) {
      // One close that fails (a disk error, say) must not stop the others or the bot.
      const outcome = await this.sessions
        .run(id, () => this.closing.claimed(id, async (record) => (record.status === "open" ? "already-closed" : this.closing.finish(record))))
        .catch((error: unknown) => {
          this.deps.log.error({ err: String(error), sessionId: id }, "a pending close failed; it will be retried");
          return "failed" as const;
        });
      if (outcome === "closed" || outcome === "empty") closed++;
    }
    return { closed, pending: waiting.length - closed };
  }

  /** How many of a person's stored sessions mention the words (the forget preview). */
  sessionsMentioning(userId: string, hit: (text: string) => boolean): Promise<number> {
    return this.forgetting.sessionsMentioning(userId, hit);
  }

  /** Forgets words everywhere a person's text is kept (engine/forgetting.ts). */
  forget(userId: string, words: string): Promise<ForgetResult> {
    return this.forgetting.forget(userId, words);
  }

  /** Deletes one archived conversation, the forget way (engine/forgetting.ts). False: no such conversation. */
  deleteConversation(userId: string, fileName: string): Promise<boolean> {
    return this.forgetting.deleteConversation(userId, fileName);
  }

  /** Deletes every session of a person, their files and their index (/memory delete-all; engine/forgetting.ts). */
  deleteEverything(userId: string): Promise<void> {
    return this.forgetting.deleteEverything(userId);
  }

  /** The person's forget epoch now, once no forget of theirs runs (engine/forgetting.ts). */
  private currentEpoch(userId: string): Promise<number> {
    return this.forgetting.currentEpoch(userId);
  }

  /** Removes the temporary files writers killed mid-write left in people's folders (start-up). */
  async removeLeftoverFiles(): Promise<number> {
    return removeLeftoverTemporaryFilesOfEveryone(this.deps.home);
  }

  /** What the model changed in memory during a session and is not undone yet, oldest first (the receipt). */
  async memoryChangesOf(sessionId: string, userId: string): Promise<JournalEntry[]> {
    const entries = [...(await this.memoryOf(userId).history())].reverse();
    return undoable(entries)
      .reverse()
      .filter((e) => e.by.kind === "model" && e.by.session === sessionId);
  }

  /** What the model suggested for the server's notes during a session, and what the moderators did with it (the receipt). */
  suggestionsOf(record: Pick<SessionRecord, "id" | "channel">): ReturnType<ServerNotes["suggestionsOf"]> {
    const guildId = record.channel.guildId;
    return isServerId(guildId) ? this.serverNotesOf(guildId).suggestionsOf(record.id, this.clock()) : [];
  }

  async *openSessions(): AsyncGenerator<SessionRecord> {
    yield* this.deps.store.withStatus(["open"]);
  }

  private async condense(id: string): Promise<void> {
    await this.sessions
      .run(id, async () => {
        const record = await this.require(id);
        if (record.status !== "open") return;
        const condensed = await condenseChat(this.deps.model, record, this.budgetOf(record));
        if (!condensed) return;
        record.condensed = condensed;
        await this.deps.store.save(record);
      })
      .catch((error: unknown) => this.deps.log.warn({ sessionId: id, err: String(error) }, "history not condensed"));
  }

  /** Condenses the history of a turn about to go over budget (true when it did); if the model cannot, the turn goes ahead as it is. */
  private async condenseNow(record: SessionRecord, timing: TurnTiming): Promise<boolean> {
    const asking = performance.now();
    try {
      const condensed = await condenseChat(this.deps.model, record, this.budgetOf(record));
      if (!condensed) return false;
      record.condensed = condensed;
      await this.firstSaveDone(record.id);
      await this.deps.store.save(record);
      return true;
    } catch (error) {
      this.deps.log.warn({ sessionId: record.id, err: String(error) }, "history not condensed before the request");
      return false;
    } finally {
      timing.modelMs += performance.now() - asking;
    }
  }

  /**
   * Waits for a new session's first save (open() starts it while the first request goes to the
   * model); writes it again (channel pointer included) if it failed. Every later save waits for it;
   * a caller that reads the store directly (a test, a second view of the session) may too.
   */
  async firstSaveDone(id: string): Promise<void> {
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

  /**
   * The live record, read again from the store when the person forgot something since this
   * process read it (in another process, say): the stale copy would bring the words back.
   */
  private async current(id: string): Promise<SessionRecord> {
    const record = await this.require(id);
    if ((record.epoch ?? 0) >= (await this.currentEpoch(record.userId))) return record;
    // A session just opened may not be in the store yet: read again once its first save is there.
    await this.firstSaveDone(id);
    const stored = await this.deps.store.reload(id);
    if (!stored) throw new SessionClosedError(id);
    return stored;
  }

  /**
   * The person's memory as a session writes it: under the lock, each write is refused when the
   * person forgot something after the session's copy was read (the write may repeat the words).
   */
  private sessionMemory(record: SessionRecord): MemoryStore {
    const { store } = this.deps;
    return MemoryStore.forTurnOf(this.deps.home, record.userId, {
      ...this.deps.memory,
      locale: record.locale,
      guard: async () => {
        if ((record.epoch ?? 0) < neededEpoch(await store.epochOf(record.userId))) throw new SessionForgottenError(record.id);
      },
    });
  }
}

/** A turn's exchange kept in its record: the messages, where the person's message came from, its parts, the usage and the time. */
function keepExchange(record: SessionRecord, output: TurnOutput, sourceId: string | undefined, now: Date): void {
  if (sourceId !== undefined && MESSAGE_PLACE.test(sourceId)) record.sourceIds = { ...record.sourceIds, [String(record.messages.length)]: sourceId };
  record.parts = { ...record.parts, [String(record.messages.length)]: output.spans };
  record.messages.push(...output.messages);
  record.usage.push(output.usage);
  record.lastActivityAt = now.toISOString();
}

/**
 * A stored message's parts, made once per message and its spans: every turn asks for those of the
 * whole conversation. A stored message is never changed in place (masking and forgetting make new
 * ones), and the parts are only read.
 */
function storedParts(message: object, text: string, spans: readonly PartSpan[] | undefined): readonly MessagePart[] {
  const kept = keptParts.get(message);
  if (kept && kept.spans === spans && kept.text === text) return kept.parts;
  const parts = partsOf(text, spans);
  keptParts.set(message, { text, spans, parts });
  return parts;
}

const keptParts = new WeakMap<object, { text: string; spans: readonly PartSpan[] | undefined; parts: readonly MessagePart[] }>();

/**
 * The session's words, gathered at the first write that asks for them: most turns write nothing,
 * and gathering reads every message since the condensed summary. The record does not change while
 * its turn runs (the turn's messages are added after it), so this is what gathering first would give.
 */
function lazyWords(gather: () => SessionWords): SessionWords {
  let words: SessionWords | undefined;
  const get = () => (words ??= gather());
  return {
    get typed() {
      return get().typed;
    },
    get others() {
      return get().others;
    },
  };
}

/**
 * What the model has before it in a session, by whose words it is (ToolContext.words): the parts of
 * the messages since the condensed summary and of this turn's, by their stored origins.
 */
function sessionWords(record: SessionRecord, message: TurnMessage): SessionWords {
  // The name the person goes by is theirs: they chose it.
  const typed: string[] = [record.displayName];
  const others: MessagePart[] = [];
  const add = (parts: readonly MessagePart[], guest: boolean) => {
    for (const part of parts) part.origin === "typed" && !guest ? typed.push(part.text) : others.push(part);
  };
  const from = record.condensed?.upTo ?? 0;
  for (const [index, m] of record.messages.entries()) {
    if (index < from || typeof m.content !== "string" || m.content === "") continue;
    if (m.role === "user") add(storedParts(m, m.content, record.parts?.[String(index)]), m.name?.startsWith(guestName("")) === true);
    else if (m.role === "assistant") others.push({ origin: "assistant", text: m.content });
    else if (m.role === "tool") others.push({ origin: "tool", text: m.content });
  }
  const stored = storedMessage(message);
  add(partsOf(stored.message.content as string, stored.spans), message.from !== undefined);
  return { typed, others };
}
