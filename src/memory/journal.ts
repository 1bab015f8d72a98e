import { randomBytes } from "node:crypto";
import { open, readFile, stat } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-write.js";

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
}

/** A later line that says an entry's change never reached the files (a crash between the two writes). */
interface VoidLine {
  void: string;
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

  async append(entry: JournalEntry): Promise<void> {
    await this.appendLine(JSON.stringify(entry));
  }

  /** Marks an entry whose change never reached the files. */
  async voidEntry(id: string): Promise<void> {
    await this.appendLine(JSON.stringify({ void: id } satisfies VoidLine));
  }

  /** Every entry that happened, oldest first. */
  async entries(): Promise<JournalEntry[]> {
    const text = await readFile(this.path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    const entries: JournalEntry[] = [];
    const voided = new Set<string>();
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        // A line cut by a crash mid-append is not an entry.
        continue;
      }
      if (isVoid(parsed)) voided.add(parsed.void);
      else if (isEntry(parsed)) entries.push(parsed);
    }
    return entries.filter((e) => !voided.has(e.id));
  }

  /** The last line's entry if it is one (what a crash may have left unfinished). */
  async last(): Promise<JournalEntry | undefined> {
    const entries = await this.entries();
    return entries.at(-1);
  }

  async size(): Promise<number> {
    return (await stat(this.path).catch(() => undefined))?.size ?? 0;
  }

  /** Keeps the newest `entries` changes of the last `days` days; rewrites the file atomically. */
  async compact(retention: Retention, now: Date): Promise<number> {
    const all = await this.entries();
    const oldest = now.getTime() - retention.days * 86_400_000;
    const kept = all.filter((e) => Date.parse(e.at) >= oldest).slice(-retention.entries);
    if (kept.length === all.length && !(await this.hasVoidLines())) return 0;
    await writeFileAtomic(this.path, kept.map((e) => `${JSON.stringify(e)}\n`).join(""));
    return all.length - kept.length;
  }

  /** Rewrites every entry through `edit` (forget: texts that mention the words go). */
  async rewrite(edit: (entry: JournalEntry) => JournalEntry): Promise<void> {
    const entries = (await this.entries()).map(edit);
    await writeFileAtomic(this.path, entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
  }

  private async hasVoidLines(): Promise<boolean> {
    const text = await readFile(this.path, "utf8").catch(() => "");
    return text.includes('{"void":');
  }

  private async appendLine(line: string): Promise<void> {
    const handle = await open(this.path, "a", 0o600);
    try {
      await handle.writeFile(`${line}\n`, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function isVoid(value: unknown): value is VoidLine {
  return typeof value === "object" && value !== null && typeof (value as VoidLine).void === "string";
}

function isEntry(value: unknown): value is JournalEntry {
  const e = value as JournalEntry;
  return typeof value === "object" && value !== null && typeof e.id === "string" && typeof e.at === "string" && Array.isArray(e.changes);
}
