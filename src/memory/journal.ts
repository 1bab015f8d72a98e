import { randomBytes } from "node:crypto";
import { open, readFile, stat } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-write.js";
import { PRIVATE_FILE_MODE } from "../lib/private-files.js";

/** Who changed memory: the model in a session, the person, or AgentKit itself. */
export type Actor =
  | { kind: "model"; session: string; title?: string }
  | { kind: "person" }
  | { kind: "system"; reason: string };

/** One section of one file, before and after (null: the section did not exist / was removed). */
export interface SectionChange {
  /** The file's label, e.g. "USER.md", "daily/2026-12-02.md", "daily/archive/2026-11-30.md". */
  file: string;
  /** The section's name; "" for the text before the first heading. */
  section: string;
  /** The section's position among the file's sections before the change (where an undo puts it back). */
  position: number;
  /** For a name used by more than one section (a hand edit): which of them, counting from 0. */
  nth?: number;
  before: string | null;
  after: string | null;
}

export interface JournalEntry {
  id: string;
  /** ISO time. */
  at: string;
  by: Actor;
  /** What was done: add, replace, remove, edit, onboard, summary, condense, archive, undo, import, forget… */
  op: string;
  changes: SectionChange[];
  /** For an undo: the entries it took back. */
  undoes?: string[];
  /** Some of its text was forgotten since: it can no longer be undone. */
  forgotten?: true;
}

/** Later lines about an entry: its change reached the files (done), or never did (void). */
interface MarkLine {
  done?: string;
  void?: string;
}

export interface Retention {
  entries: number;
  days: number;
}

export const DEFAULT_RETENTION: Retention = { entries: 1000, days: 180 };

/** Sortable and short: milliseconds in base 36, then randomness. */
export function newEntryId(now: Date): string {
  return `${now.getTime().toString(36)}${randomBytes(3).toString("hex")}`;
}

/**
 * users/<id>/journal.jsonl: every change to a person's memory, one JSON line each, appended
 * and fsynced before the files are written (so no change can exist that history cannot show).
 * Callers hold the person's lock.
 */
export class Journal {
  constructor(readonly path: string) {}

  /** Before the files are written: the entry, fsynced. */
  async append(entry: JournalEntry): Promise<void> {
    await this.appendLine(JSON.stringify(entry), true);
  }

  /**
   * After the files are written. Not fsynced: if a crash loses it, the entry is checked against
   * the files at the next write and found done.
   */
  async markDone(id: string): Promise<void> {
    await this.appendLine(JSON.stringify({ done: id } satisfies MarkLine), false);
  }

  /** Marks an entry whose change never reached the files. */
  async voidEntry(id: string): Promise<void> {
    await this.appendLine(JSON.stringify({ void: id } satisfies MarkLine), true);
  }

  /** Every entry that happened, oldest first. */
  async entries(): Promise<JournalEntry[]> {
    return (await this.read()).entries;
  }

  /** The last entry when neither done nor void follows it: a crash may have left it unfinished. */
  async unfinished(): Promise<JournalEntry | undefined> {
    return (await this.read()).unfinished;
  }

  async size(): Promise<number> {
    return (await stat(this.path).catch(() => undefined))?.size ?? 0;
  }

  /**
   * A crash in the middle of an append leaves a last line without its line break; the next
   * append would join it and both would be unreadable. Cut it off (it was never acknowledged).
   */
  async repairTail(): Promise<void> {
    const text = await this.text();
    if (text === "" || text.endsWith("\n")) return;
    const handle = await open(this.path, "r+");
    try {
      await handle.truncate(Buffer.byteLength(text.slice(0, text.lastIndexOf("\n") + 1)));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Keeps the newest `entries` changes of the last `days` days; rewrites the file atomically. */
  async compact(retention: Retention, now: Date): Promise<number> {
    const { entries: all, marks } = await this.read();
    const oldest = now.getTime() - retention.days * 86_400_000;
    const kept = all.filter((e) => Date.parse(e.at) >= oldest).slice(-retention.entries);
    if (kept.length === all.length && marks <= 1) return 0;
    await this.replace(kept);
    return all.length - kept.length;
  }

  /** Rewrites every entry through `edit` (forget: texts that mention the words go). */
  async rewrite(edit: (entry: JournalEntry) => JournalEntry): Promise<void> {
    await this.replace((await this.entries()).map(edit));
  }

  private async replace(entries: JournalEntry[]): Promise<void> {
    const last = entries.at(-1);
    const done = last ? `${JSON.stringify({ done: last.id } satisfies MarkLine)}\n` : "";
    await writeFileAtomic(this.path, entries.map((e) => `${JSON.stringify(e)}\n`).join("") + done);
  }

  private async text(): Promise<string> {
    return readFile(this.path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
  }

  private async read(): Promise<{ entries: JournalEntry[]; unfinished: JournalEntry | undefined; marks: number }> {
    const entries: JournalEntry[] = [];
    const voided = new Set<string>();
    const finished = new Set<string>();
    let marks = 0;
    for (const line of (await this.text()).split("\n")) {
      if (line.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        // A line cut by a crash mid-append is not an entry.
        continue;
      }
      if (isMark(parsed)) {
        marks++;
        if (parsed.void) voided.add(parsed.void);
        if (parsed.done) finished.add(parsed.done);
      } else if (isEntry(parsed)) entries.push(parsed);
    }
    const last = entries.at(-1);
    const unfinished = last && !voided.has(last.id) && !finished.has(last.id) ? last : undefined;
    return { entries: entries.filter((e) => !voided.has(e.id)), unfinished, marks };
  }

  private async appendLine(line: string, sync: boolean): Promise<void> {
    const handle = await open(this.path, "a", PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(`${line}\n`, "utf8");
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function isMark(value: unknown): value is MarkLine {
  const m = value as MarkLine;
  return typeof value === "object" && value !== null && (typeof m.void === "string" || typeof m.done === "string");
}

function isEntry(value: unknown): value is JournalEntry {
  const e = value as JournalEntry;
  return typeof value === "object" && value !== null && typeof e.id === "string" && typeof e.at === "string" && Array.isArray(e.changes);
}
