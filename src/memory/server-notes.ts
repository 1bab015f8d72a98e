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

/** SERVER.md's cap: what one server's members share with the bot, in every conversation there. */
export const SERVER_NOTES_CAP = 2000;
export const SERVER_NOTES_LABEL = "SERVER.md";

const SNOWFLAKE = /^\d{1,20}$/;
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
  /** Who the model was talking with. */
  userId: string;
  section: string;
  content: string;
}

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
    if (!SNOWFLAKE.test(guildId)) throw new Error(`"${guildId}" is not a Discord server id`);
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
      const waiting = this.suggestions(now);
      if (waiting.length >= MAX_SUGGESTIONS) return err(`${MAX_SUGGESTIONS} suggestions already wait for the moderators`);
      if (waiting.filter((s) => s.userId === suggestion.userId).length >= MAX_SUGGESTIONS_PER_PERSON) {
        return err(`${MAX_SUGGESTIONS_PER_PERSON} suggestions from conversations with this person already wait for the moderators; mention it in your answer instead`);
      }
      const kept: Suggestion = { id: randomBytes(6).toString("hex"), createdAt: now.toISOString(), ...suggestion };
      await this.writeSuggestions([...waiting, kept]);
      return ok(kept);
    });
  }

  /** Removes a suggestion and gives it back (Save or Discard); undefined when it is gone already. */
  async takeSuggestion(id: string, now = new Date()): Promise<Suggestion | undefined> {
    return withPersonLock(this.dir, async () => {
      const waiting = this.suggestions(now);
      const found = waiting.find((s) => s.id === id);
      if (found) await this.writeSuggestions(waiting.filter((s) => s !== found));
      return found;
    });
  }

  suggestions(now = new Date()): Suggestion[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readTextIfExistsSync(join(this.dir, "suggestions.json")) ?? "[]");
    } catch {
      return [];
    }
    const oldest = now.getTime() - SUGGESTION_DAYS * 86_400_000;
    return Array.isArray(parsed)
      ? (parsed as Suggestion[]).filter((s) => typeof s?.id === "string" && typeof s.section === "string" && typeof s.content === "string" && Date.parse(s.createdAt) >= oldest)
      : [];
  }

  private async writeSuggestions(suggestions: Suggestion[]): Promise<void> {
    await writeFileAtomic(join(this.dir, "suggestions.json"), `${JSON.stringify(suggestions, null, 2)}\n`);
  }
}
