import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { err, ok, type Result } from "../lib/result.js";
import { roomFor, type StorageFull } from "./storage-quota.js";
import { writeFileAtomic } from "./atomic-write.js";
import { MemoryFile, readTextIfExistsSync, type FileOwner } from "./memory-file.js";
import { defaultPersona, renderPersona } from "./persona.js";
import { withPersonLock } from "./person-lock.js";
import { dateOfConversation, renderConversation, type ConversationLog } from "./conversation-log.js";
import type { SyncReport } from "./recall/person-index.js";
import type { Recall, RecallHit, SearchOptions } from "./recall/recall.js";
import { unarchived } from "./daily-archive.js";
import { Proposals, type Proposal } from "./proposal-store.js";
import { Journal, type Actor, type JournalEntry, type Retention } from "./journal.js";
import { commitWrites, reachedFiles, recoverJournal, type CommitOptions, type FileWrite } from "./journalled-write.js";
import { dateOfLog, isLocalDate, isValidTimeZone, localDate, localTime, recentDates, systemTimeZone } from "../lib/time.js";
import {
  CAPS,
  type FileKind,
  hasPrivateSections,
  PRIVATE_SECTION_KINDS,
  WHOLE_FILE_KINDS,
  WHOLE_FILE_LABELS,
  FILE_TABLE,
  type WholeFileKind,
} from "./file-kinds.js";
import { isPrivateSection } from "./visibility.js";
import { isSnowflake } from "../lib/snowflake.js";
import type { Settings } from "./settings.js";
import { markPrivate, saveSettings, settingsFromDisk, settingsGeneration } from "./person-settings.js";

export { dateOfLog };

/** Each one-file kind's text by kind (FILE_TABLE: soul, user, memory), and the rest a prompt is made of. */
export type MemorySnapshot = Record<WholeFileKind, string> & {
  takenAt: string;
  timeZone: string;
  localDate: string;
  localTime: string;
  /** Oldest first; days without a log are left out. */
  dailies: { date: string; text: string }[];
  warnings: string[];
  /** The server's SERVER.md, for a conversation in a server (set by the session's opener). */
  serverNotes?: string;
};

export interface MemoryStoreOptions {
  /** AGENTKIT_TIMEZONE: used when the person has not chosen a zone. */
  defaultTimeZone?: string | undefined;
  /** How many days of logs the snapshot loads (yesterday and today by default). */
  dailyDays?: number;
  /** The recall index of everyone under this home; told after every write. */
  recall?: Recall | undefined;
  /** How much history the journal keeps (default: the last 1,000 changes of the last 180 days). */
  journalRetention?: Retention | undefined;
  /**
   * Run under the person's lock before each write through serialize; throwing refuses the write.
   * The session engine's check that a session's copy is not older than the person's latest forget.
   */
  guard?: (() => Promise<void>) | undefined;
  /** STORAGE_QUOTA_MB in bytes: what an import, a conversation or a file may take the person's memory up to (storage-quota.ts). None: no quota. */
  quotaBytes?: number | undefined;
  /**
   * The language of the conversation or screen this store serves (a Discord locale, the browser's):
   * a missing SOUL.md reads as the default persona in the person's chosen language, else in this one.
   */
  locale?: string | undefined;
}

const DEFAULT_PERSONA: Actor = { kind: "system", reason: "default persona" };

const SYSTEM_ARCHIVE: Actor = { kind: "system", reason: "moved old logs to the archive" };

/** All memory of one person: users/<id>/ under AGENTKIT_HOME. */
export class MemoryStore {
  readonly dir: string;
  /** The one-file kinds' files, by kind (FILE_TABLE); `soul`, `user` and `memory` name three of them. */
  private readonly files: Record<WholeFileKind, MemoryFile>;
  readonly journal: Journal;
  private readonly proposals: Proposals;
  private readonly dailyDays: number;
  /**
   * The settings as read once for a turn (forTurnOf), at the turn's first look ("unread" until
   * then: most turns write nothing and never look): this store's reads use them until a save in
   * this process changes them.
   */
  private turnSettings: { settings: Settings; generation: number } | "unread" | undefined;

  private constructor(
    readonly home: string,
    readonly userId: string,
    private readonly options: MemoryStoreOptions,
  ) {
    this.dir = join(home, "users", userId);
    this.dailyDays = options.dailyDays ?? 2;
    this.journal = new Journal(join(this.dir, "journal.jsonl"));
    this.proposals = new Proposals(this.dir);
    const whole = (kind: WholeFileKind) => this.fileAt(FILE_TABLE[kind].label, join(this.dir, FILE_TABLE[kind].label), FILE_TABLE[kind].cap);
    this.files = Object.fromEntries(WHOLE_FILE_KINDS.map((kind) => [kind, whole(kind)])) as Record<WholeFileKind, MemoryFile>;
    // SOUL.md alone reads as a default when missing (the persona every person starts with).
    this.files.soul = new MemoryFile(FILE_TABLE.soul.label, join(this.dir, FILE_TABLE.soul.label), FILE_TABLE.soul.cap, this.owner(), {
      text: () => this.defaultSoul(),
      by: DEFAULT_PERSONA,
      op: "persona",
    });
  }

  get soul(): MemoryFile {
    return this.files.soul;
  }

  get user(): MemoryFile {
    return this.files.user;
  }

  get memory(): MemoryFile {
    return this.files.memory;
  }

  /** The language of the conversation or screen this store serves (MemoryStoreOptions.locale). */
  get locale(): string | undefined {
    return this.options.locale;
  }

  /** The same person's memory for another conversation's language (a proposal saved elsewhere than it was made). */
  inLocale(locale: string): MemoryStore {
    return MemoryStore.forUser(this.home, this.userId, { ...this.options, locale });
  }

  /** Refuses anything but a Discord snowflake before any path is built. */
  static open(home: string, userId: string, options: MemoryStoreOptions = {}): Result<MemoryStore> {
    if (!isSnowflake(userId)) return err(`"${userId}" is not a Discord user id (digits only, up to 20)`);
    return ok(new MemoryStore(home, userId, options));
  }

  /** Like open(), for callers whose id is already known to be valid. */
  static forUser(home: string, userId: string, options: MemoryStoreOptions = {}): MemoryStore {
    const store = MemoryStore.open(home, userId, options);
    if (!store.ok) throw new Error(store.error);
    return store.value;
  }

  /** Runs work while holding this person's write lock; the recall index follows the writes. */
  async serialize<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await withPersonLock(this.dir, async () => {
        await recoverJournal(this.journal, (label) => this.pathOf(label));
        await this.options.guard?.();
        return work();
      });
    } finally {
      // The write has happened: an unreadable settings.json must not make it look failed.
      if (this.options.recall) this.options.recall.touch(this, this.safeTimeZone());
    }
  }

  /** The person's storage quota in bytes, if any (storage-quota.ts measures against it). */
  get quotaBytes(): number | undefined {
    return this.options.quotaBytes;
  }

  /** The person's recall index: derived from the files, outside their folder, safe to delete. */
  get indexPath(): string {
    return join(this.home, "index", `${this.userId}.sqlite`);
  }

  get conversationsDir(): string {
    return join(this.dir, "conversations");
  }

  /**
   * Writes a closed conversation's transcript (conversations/<name>), replacing an earlier copy;
   * with `quota`, refused (nothing written) when what it adds would take the person past their storage quota.
   */
  async writeConversation(name: string, log: ConversationLog, options: { quota?: boolean } = {}): Promise<StorageFull | undefined> {
    if (!isConversationName(name)) throw new Error(`"${name}" is not a conversation file name`);
    const path = join(this.conversationsDir, name);
    const text = renderConversation(log);
    const before = readTextIfExistsSync(path);
    // The same text again (a retried close) leaves the file, and the index built from it, alone.
    if (before === text) return undefined;
    const full = options.quota ? await roomFor(this, Buffer.byteLength(text) - (before === undefined ? 0 : Buffer.byteLength(before))) : undefined;
    if (full) return full;
    await this.serialize(() => writeFileAtomic(path, text));
    return undefined;
  }

  async hasConversation(name: string): Promise<boolean> {
    return isConversationName(name) && exists(join(this.conversationsDir, name));
  }

  /** Removes a conversation file; the caller holds the person's lock (SessionEngine.deleteConversation). */
  async removeConversation(name: string): Promise<void> {
    if (!isConversationName(name)) throw new Error(`"${name}" is not a conversation file name`);
    await rm(join(this.conversationsDir, name), { force: true });
  }

  /** The texts of the files whose sections can be marked private (USER.md, MEMORY.md), for their section names. */
  async privateSectionTexts(): Promise<string[]> {
    return Promise.all(PRIVATE_SECTION_KINDS.map((kind) => this.files[kind].read()));
  }

  /** Everything the person ever told the bot, best matches first. */
  async search(query: string, options: SearchOptions = {}): Promise<RecallHit[]> {
    return this.recall().search(this, this.timeZone().zone, query, options);
  }

  /**
   * A search from a public place of the server `guildId`: what was said in DMs, private threads
   * and another server's threads, the daily logs and the sections marked private are left out.
   * `heldBack`: how many of the results the same search would have given in private were left out;
   * `held`: those results (of the first 50), for a check that must know what they say, never for the model.
   */
  async searchInPublic(
    query: string,
    guildId: string | undefined,
    options: SearchOptions = {},
  ): Promise<{ hits: RecallHit[]; heldBack: number; held: RecallHit[] }> {
    const limit = Math.max(1, Math.min(options.limit ?? 10, 50));
    const privateSections = this.readSettings().privateSections;
    const sharedHere = (hit: RecallHit) => hit.sharedIn === "*" || (guildId !== undefined && hit.sharedIn === guildId);
    const isPrivate = (hit: RecallHit) => !sharedHere(hit) || (hasPrivateSections(hit.source) && isPrivateSection(hit.title, privateSections));
    const all = await this.search(query, { ...options, limit: 50 });
    return { hits: all.filter((hit) => !isPrivate(hit)).slice(0, limit), heldBack: all.slice(0, limit).filter(isPrivate).length, held: all.filter(isPrivate) };
  }

  /** Brings the recall index up to date now, embeddings included (the operator CLI). */
  async updateIndex(options: { purge?: boolean } = {}): Promise<void> {
    return this.recall().update(this, this.timeZone().zone, options);
  }

  /** Rebuilds the person's recall index from their files. */
  async reindex(): Promise<SyncReport> {
    return this.recall().reindex(this, this.timeZone().zone);
  }

  private recall(): Recall {
    if (!this.options.recall) throw new Error("search is not available here (no recall index)");
    return this.options.recall;
  }

  daily(date: string): MemoryFile {
    // The date becomes part of a path: nothing but yyyy-MM-dd may get there.
    if (!isLocalDate(date)) throw new Error(`"${date}" is not a date (yyyy-MM-dd)`);
    return this.fileAt(`daily/${date}.md`, join(this.dir, "daily", `${date}.md`), CAPS.daily);
  }

  get archiveDir(): string {
    return join(this.dir, "daily", "archive");
  }

  /** The file of a kind; `daily` is today's log in the person's zone. */
  file(kind: FileKind, now: Date = new Date()): MemoryFile {
    if (kind === "daily") return this.daily(localDate(now, this.timeZone().zone));
    return this.files[kind];
  }

  /**
   * settings.json, or the copy this store was made with for a turn (forTurn). A save made in this
   * process meanwhile (/memory settings, the terminal's /settings) is read at once: "ask before
   * saving" applies to the very next write of a turn under way.
   */
  readSettings(): Settings {
    const cached = this.turnSettings;
    if (cached === "unread") {
      // The generation before the read: a save between the two is seen as newer at the next check.
      const generation = settingsGeneration(this.dir);
      const settings = this.settingsFromDisk();
      this.turnSettings = { settings, generation };
      return settings;
    }
    if (cached && cached.generation === settingsGeneration(this.dir)) return cached.settings;
    return this.settingsFromDisk();
  }

  /** This person's memory for one turn: settings.json read once, at the turn's first look, and that copy used by every write of the turn. */
  forTurn(): MemoryStore {
    return MemoryStore.forTurnOf(this.home, this.userId, this.options);
  }

  /** The same as forUser(…).forTurn(), made once: a session asks for it every turn. */
  static forTurnOf(home: string, userId: string, options: MemoryStoreOptions = {}): MemoryStore {
    const store = MemoryStore.forUser(home, userId, options);
    store.turnSettings = "unread";
    return store;
  }

  /** settings.json as it is on disk now (person-settings.ts). */
  private settingsFromDisk(): Settings {
    return settingsFromDisk(this.dir);
  }

  /** Merges settings; an unknown time zone name is refused and nothing is written. */
  saveSettings(patch: Settings): Promise<Result<Settings, { problem: "timezone"; value: string }>> {
    return saveSettings(this.dir, patch);
  }

  /**
   * Marks a section private (kept out of public places) or not, by name, for USER.md and MEMORY.md.
   * "too-many" when MAX_PRIVATE_SECTIONS are marked already; "unchanged" when it already was so.
   */
  markPrivate(section: string, isPrivate: boolean): Promise<"changed" | "unchanged" | "too-many"> {
    return markPrivate(this.dir, section, isPrivate);
  }

  /** The person's zone, else AGENTKIT_TIMEZONE, else the system zone. */
  timeZone(): { zone: string; warning?: string } {
    const settings = this.readSettings();
    const fallback = this.options.defaultTimeZone ?? systemTimeZone();
    const chosen = settings.timezone;
    if (chosen === undefined) return { zone: fallback };
    if (isValidTimeZone(chosen)) return { zone: chosen };
    return {
      zone: fallback,
      warning: `settings.json of user ${this.userId} names an unknown time zone "${chosen}"; using ${fallback}`,
    };
  }

  /** The language the person chose in their settings; a settings file that cannot be read chooses none. */
  private chosenLocale(): string | undefined {
    try {
      return this.readSettings().locale;
    } catch {
      return undefined;
    }
  }

  private safeTimeZone(): string {
    try {
      return this.timeZone().zone;
    } catch {
      return this.options.defaultTimeZone ?? systemTimeZone();
    }
  }

  /**
   * What SOUL.md reads as while the person has none (nothing is written until its first change):
   * $AGENTKIT_HOME/SOUL.md, else the built-in persona in the person's chosen language, else in the
   * store's (the conversation's or the screen's).
   */
  defaultSoul(): string {
    const operatorSoul = readTextIfExistsSync(join(this.home, "SOUL.md"));
    if (operatorSoul) return operatorSoul;
    const locale = this.chosenLocale() ?? this.options.locale;
    return renderPersona(defaultPersona(locale), locale);
  }

  /**
   * Reads everything the system prompt needs, once. The reads are synchronous on purpose:
   * seven small files take ~0.1 ms that way, while seven thread-pool reads queue behind
   * other I/O and stretch the tail of opening a session to several milliseconds.
   */
  async snapshot(now: Date = new Date()): Promise<MemorySnapshot> {
    const { zone, warning } = this.timeZone();
    const dates = recentDates(now, zone, this.dailyDays);
    // A missing SOUL.md reads as the default persona; another missing file as empty.
    const read = (kind: WholeFileKind) => this.files[kind].readIfExistsSync() ?? (kind === "soul" ? this.defaultSoul() : "");
    const files = Object.fromEntries(WHOLE_FILE_KINDS.map((kind) => [kind, read(kind)])) as Record<WholeFileKind, string>;
    const logs = dates.map((date) => this.daily(date).readIfExistsSync() ?? "");
    return {
      takenAt: now.toISOString(),
      timeZone: zone,
      localDate: localDate(now, zone),
      localTime: localTime(now, zone),
      ...files,
      dailies: dates.flatMap((date, i) => (logs[i] ? [{ date, text: logs[i] }] : [])),
      warnings: warning ? [warning] : [],
    };
  }

  /** The date of the oldest log the snapshot loads; older logs belong in daily/archive/. */
  oldestRecentLog(now: Date = new Date()): string {
    const { zone } = this.timeZone();
    return recentDates(now, zone, this.dailyDays)[0] ?? localDate(now, zone);
  }

  /** Moves logs older than the snapshot window to daily/archive/ (never deletes). Returns the moved dates. */
  async archiveOldDailies(now: Date = new Date()): Promise<string[]> {
    const oldestKept = this.oldestRecentLog(now);
    return this.serialize(async () => {
      const names = await readdir(join(this.dir, "daily")).catch(() => [] as string[]);
      const dates = names.sort().flatMap((name) => {
        const date = dateOfLog(name);
        return date && date < oldestKept ? [date] : [];
      });
      // One journal entry for the move: each log goes, its entries join the archive (once each).
      const writes = dates.flatMap((date): FileWrite[] => [
        this.archiveWrite(date, readTextIfExistsSync(this.pathOf(`daily/${date}.md`)) ?? ""),
        { label: `daily/${date}.md`, text: null },
      ]);
      if (writes.length > 0) await this.commit(SYSTEM_ARCHIVE, "archive", writes, { now });
      return dates;
    });
  }

  /** The archived log of a date with the entries of `text` it lacks appended, verbatim (a write to commit). */
  archiveWrite(date: string, text: string): FileWrite {
    const label = `daily/archive/${date}.md`;
    const archive = readTextIfExistsSync(this.pathOf(label)) ?? "";
    return { label, text: archive + unarchived(archive, text) };
  }

  /** A file of this person by its label ("USER.md", "daily/2026-12-02.md", "daily/archive/…"), or an error. */
  pathOf(label: string): string {
    if (WHOLE_FILE_LABELS.includes(label)) return join(this.dir, label);
    const log = /^daily\/(archive\/)?(\d{4}-\d{2}-\d{2})\.md$/.exec(label);
    if (log && isLocalDate(log[2]!)) return join(this.dir, "daily", log[1] ? "archive" : "", `${log[2]}.md`);
    throw new Error(`"${label}" is not a memory file`);
  }

  /** Under serialize: journals, then writes (see commitWrites). */
  commit(by: Actor, op: string, writes: FileWrite[], options: CommitOptions = {}): Promise<JournalEntry | undefined> {
    return commitWrites(this.journal, (label) => this.pathOf(label), by, op, writes, {
      ...(this.options.journalRetention ? { retention: this.options.journalRetention } : {}),
      ...options,
    });
  }

  /** Deletes all of this person's files and their recall index (/memory delete-all). */
  async deleteEverything(): Promise<void> {
    await this.options.recall?.drop(this);
    await withPersonLock(this.dir, () => rm(this.dir, { recursive: true, force: true }));
    await rm(this.indexPath, { force: true });
  }

  /** A write waiting for the person's OK (ask before saving). */
  propose(proposal: Omit<Proposal, "id" | "createdAt">, now = new Date()): Promise<Proposal> {
    return this.serialize(() => this.proposals.add(proposal, now));
  }

  /** Drops waiting proposals (forgetting words they hold). Callers hold the lock. */
  async dropProposals(which: (proposal: Proposal) => boolean): Promise<void> {
    for (const proposal of this.proposals.list().filter(which)) await this.proposals.take(proposal.id);
  }

  /** The proposals waiting for the person's OK, oldest first. */
  listProposals(now = new Date()): Proposal[] {
    return this.proposals.list(now);
  }

  /** Takes a waiting proposal out, to save or discard it; undefined when gone or expired (7 days). */
  takeProposal(id: string, now = new Date()): Promise<Proposal | undefined> {
    return this.serialize(() => this.proposals.take(id, now));
  }

  /** Every change to this person's memory that history keeps, newest first. */
  async history(): Promise<JournalEntry[]> {
    // A read: it neither waits for the write lock nor wakes the recall index. The journal is
    // appended line by line and compacted by an atomic rename, so a read sees whole entries; a
    // last entry not marked done shows as the next write will settle it (recoverJournal).
    const { entries, unfinished } = await this.journal.current();
    const shown = unfinished && !reachedFiles(unfinished, (label) => this.pathOf(label)) ? entries.filter((e) => e !== unfinished) : entries;
    return shown.reverse();
  }

  private fileAt(label: string, path: string, cap: number): MemoryFile {
    return new MemoryFile(label, path, cap, this.owner());
  }

  private owner(): FileOwner {
    return {
      serialize: (work) => this.serialize(work),
      commit: (by, op, fileLabel, _path, text, from, now) => this.commit(by, op, [{ label: fileLabel, text, from }], now ? { now } : {}),
    };
  }
}

/** A file name of conversations/ (no folder, no way out of it). */
function isConversationName(name: string): boolean {
  return dateOfConversation(name) !== undefined && !/[/\\\0]/.test(name) && name !== "." && name !== "..";
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
