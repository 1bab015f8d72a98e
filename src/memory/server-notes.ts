import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { err, ok, type Result } from "../lib/result.js";
import { writeFileAtomic } from "./atomic-write.js";
import type { Actor, JournalEntry } from "./journal.js";
import { Journal } from "./journal.js";
import { commitWrites, reachedFiles, recoverJournal, type CommitOptions, type FileWrite } from "./journalled-write.js";
import { MemoryFile, readTextIfExistsSync } from "./memory-file.js";
import { withPersonLock } from "./person-lock.js";
import type { JournalledFiles } from "./undo.js";
import { isSnowflake } from "../lib/snowflake.js";

/** SERVER.md's cap: what one server's members share with the bot, in every conversation there. */
export const SERVER_NOTES_CAP = 2000;
export const SERVER_NOTES_LABEL = "SERVER.md";

/** Whether an id may name a server's folder: a Discord snowflake, digits only. */
export const isServerId = (id: string | undefined): id is string => isSnowflake(id);
/** A suggestion waits this long for a moderator's Save or Discard. */
const SUGGESTION_DAYS = 7;
/** At most this many suggestions wait at once per server: a chatty model cannot fill a disk. */
const MAX_SUGGESTIONS = 50;
/** And at most this many from the conversations of one person: one member cannot fill the moderators' queue. */
const MAX_SUGGESTIONS_PER_PERSON = 5;

/** A change the model suggested in a conversation, waiting for someone allowed to write. */
export interface Suggestion {
  id: string;
  createdAt: string;
  /** Who the model was talking with: in a thread with guests, the member whose turn it was. */
  userId: string;
  /** Whose conversation it was, when that is not `userId` (an invited member spoke): their forget reaches it too. */
  ownerId?: string;
  /** The conversation it came from: its receipt says what became of it. */
  sessionId?: string;
  section: string;
  content: string;
}

/** What became of a suggestion: a moderator's Save or Discard, or nothing yet. */
export type SuggestionState = "waiting" | "saved" | "discarded";

/** A suggestion a moderator answered, kept as long as a waiting one would be (for the conversation's receipt). */
interface Settled extends Suggestion {
  settled: Exclude<SuggestionState, "waiting">;
}

/** suggestions.json: what waits, and what was answered in the last SUGGESTION_DAYS. An older file is a bare list of waiting ones. */
interface SuggestionsFile {
  waiting: Suggestion[];
  settled: Settled[];
}

/** The answered suggestions kept, newest last: enough for the receipts of a week. */
const MAX_SETTLED = 200;

/**
 * One server's notes: guilds/<guild id>/SERVER.md under AGENTKIT_HOME, with its own journal
 * (history, undo) and lock. Loaded into the prompt of every conversation in that server only;
 * written by the people the front end allows (Manage Server, or SERVER_NOTES_ROLE_ID), never by
 * the model directly: it suggests, and a moderator saves.
 */
export class ServerNotes implements JournalledFiles {
  readonly dir: string;
  readonly journal: Journal;
  readonly notes: MemoryFile;

  private constructor(
    readonly home: string,
    readonly guildId: string,
    private readonly retention?: CommitOptions["retention"],
  ) {
    this.dir = join(home, "guilds", guildId);
    this.journal = new Journal(join(this.dir, "journal.jsonl"));
    this.notes = new MemoryFile(SERVER_NOTES_LABEL, join(this.dir, SERVER_NOTES_LABEL), SERVER_NOTES_CAP, {
      serialize: (work) => this.serialize(work),
      commit: (by, op, label, _path, text, from) => this.commit(by, op, [{ label, text, from }]),
    });
  }

  /** Refuses anything but a Discord snowflake before any path is built. */
  static of(home: string, guildId: string, retention?: CommitOptions["retention"]): ServerNotes {
    if (!isServerId(guildId)) throw new Error(`"${guildId}" is not a Discord server id`);
    return new ServerNotes(home, guildId, retention);
  }

  /** The notes as the prompt loads them; "" when the server has none. Synchronous, like a person's snapshot. */
  readSync(): string {
    return readTextIfExistsSync(this.notes.path) ?? "";
  }

  serialize<T>(work: () => Promise<T>): Promise<T> {
    return withPersonLock(this.dir, async () => {
      await recoverJournal(this.journal, (label) => this.pathOf(label));
      return work();
    });
  }

  pathOf(label: string): string {
    if (label !== SERVER_NOTES_LABEL) throw new Error(`a server's notes hold only ${SERVER_NOTES_LABEL}, not ${label}`);
    return this.notes.path;
  }

  commit(by: Actor, op: string, writes: FileWrite[], options: CommitOptions = {}): Promise<JournalEntry | undefined> {
    return commitWrites(this.journal, (label) => this.pathOf(label), by, op, writes, { ...(this.retention ? { retention: this.retention } : {}), ...options });
  }

  /** Every change history keeps, newest first. */
  async history(): Promise<JournalEntry[]> {
    const { entries, unfinished } = await this.journal.current();
    const shown = unfinished && !reachedFiles(unfinished, (label) => this.pathOf(label)) ? entries.filter((e) => e !== unfinished) : entries;
    return shown.reverse();
  }

  /** Keeps a suggestion for the moderators; refused when MAX_SUGGESTIONS wait already. */
  async suggest(suggestion: Omit<Suggestion, "id" | "createdAt">, now = new Date()): Promise<Result<Suggestion>> {
    return withPersonLock(this.dir, async () => {
      const file = this.readSuggestions(now);
      const waiting = file.waiting;
      if (waiting.length >= MAX_SUGGESTIONS) return err(`${MAX_SUGGESTIONS} suggestions already wait for the moderators`);
      if (waiting.filter((s) => s.userId === suggestion.userId).length >= MAX_SUGGESTIONS_PER_PERSON) {
        return err(
          `${MAX_SUGGESTIONS_PER_PERSON} suggestions from conversations with this person already wait for the moderators; mention it in your answer instead`,
        );
      }
      const kept: Suggestion = { id: randomBytes(6).toString("hex"), createdAt: now.toISOString(), ...suggestion };
      await this.writeSuggestions({ ...file, waiting: [...waiting, kept] });
      return ok(kept);
    });
  }

  /** Removes a suggestion (Save or Discard) and gives it back; undefined when it is gone already. */
  async takeSuggestion(id: string, outcome: Settled["settled"], now = new Date()): Promise<Suggestion | undefined> {
    return withPersonLock(this.dir, async () => {
      const file = this.readSuggestions(now);
      const found = file.waiting.find((s) => s.id === id);
      if (found) {
        const settled = [...file.settled, { ...found, settled: outcome }].slice(-MAX_SETTLED);
        await this.writeSuggestions({ waiting: file.waiting.filter((s) => s !== found), settled });
      }
      return found;
    });
  }

  /** Drops the suggestions, waiting or answered, `which` picks (what a person forgets, or all of theirs). */
  async dropSuggestions(which: (suggestion: Suggestion) => boolean, now = new Date()): Promise<void> {
    await withPersonLock(this.dir, async () => {
      const file = this.readSuggestions(now);
      const kept = { waiting: file.waiting.filter((s) => !which(s)), settled: file.settled.filter((s) => !which(s)) };
      if (kept.waiting.length !== file.waiting.length || kept.settled.length !== file.settled.length) await this.writeSuggestions(kept);
    });
  }

  /** The suggestions waiting for a moderator, oldest first. */
  suggestions(now = new Date()): Suggestion[] {
    return this.readSuggestions(now).waiting;
  }

  /** What the model suggested in one conversation, and what became of each (those of the last SUGGESTION_DAYS). */
  suggestionsOf(sessionId: string, now = new Date()): { suggestion: Suggestion; state: SuggestionState }[] {
    const file = this.readSuggestions(now);
    const all = [...file.waiting.map((s) => ({ suggestion: s, state: "waiting" as const })), ...file.settled.map((s) => ({ suggestion: s, state: s.settled }))];
    return all.filter((s) => s.suggestion.sessionId === sessionId).sort((a, b) => a.suggestion.createdAt.localeCompare(b.suggestion.createdAt));
  }

  private readSuggestions(now: Date): SuggestionsFile {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readTextIfExistsSync(join(this.dir, "suggestions.json")) ?? "[]");
    } catch {
      return { waiting: [], settled: [] };
    }
    const oldest = now.getTime() - SUGGESTION_DAYS * 86_400_000;
    const valid = (s: unknown): s is Suggestion => {
      const v = s as Partial<Suggestion> | null;
      return (
        typeof v?.id === "string" &&
        typeof v.section === "string" &&
        typeof v.content === "string" &&
        typeof v.createdAt === "string" &&
        Date.parse(v.createdAt) >= oldest
      );
    };
    const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
    if (Array.isArray(parsed)) return { waiting: parsed.filter(valid), settled: [] };
    const file = (parsed ?? {}) as Partial<Record<keyof SuggestionsFile, unknown>>;
    return {
      waiting: list(file.waiting).filter(valid),
      settled: list(file.settled).filter((s): s is Settled => valid(s) && ((s as Settled).settled === "saved" || (s as Settled).settled === "discarded")),
    };
  }

  private async writeSuggestions(file: SuggestionsFile): Promise<void> {
    await writeFileAtomic(join(this.dir, "suggestions.json"), `${JSON.stringify(file, null, 2)}\n`);
  }
}
