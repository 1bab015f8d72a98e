import { randomBytes } from "node:crypto";
import { open, stat, type FileHandle } from "node:fs/promises";
import { parseJsonInSlices } from "../lib/json-in-slices.js";
import { TimeSlices } from "../lib/time-slices.js";
import { writeText } from "../lib/text-writes.js";
import { openInFolder, writeFileAtomic } from "./atomic-write.js";
import { PRIVATE_FILE_MODE } from "../lib/private-files.js";
import { isSnowflake } from "../lib/snowflake.js";

/** Who changed memory: the model in a session, the person, or AgentKit itself. */
export type Actor =
  | { kind: "model"; session: string; title?: string }
  /** `userId`: who, when several people write one file (a server's notes). */
  | { kind: "person"; via?: "web"; userId?: string }
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
  /**
   * A removed section's neighbour before it then ("" when it was first): an undo puts it back after
   * that section, wherever it is now, as other changes since may have moved the positions.
   */
  follows?: string;
  /** A removed section's neighbour after it then ("" when it was last): used when the one before is gone. */
  precedes?: string;
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

/**
 * No write makes a line this long (an import, the largest change, is capped far below it), so a
 * longer one is junk a failing disk left: skipped unread, never turned into one huge string.
 */
const MAX_LINE_BYTES = 32 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

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
    await this.appendLine(await entryLine(entry, new TimeSlices()), true, { makeFolder: true });
  }

  /**
   * After the files are written. Not fsynced: if a crash loses it, the entry is checked against
   * the files at the next write and found done.
   */
  async markDone(id: string): Promise<void> {
    // After the entry's own line (or a tail repairTail mended), under the lock: the file ends a line.
    await this.appendLine(JSON.stringify({ done: id } satisfies MarkLine), false, { endsLine: true });
  }

  /** Marks an entry whose change never reached the files. */
  async voidEntry(id: string): Promise<void> {
    await this.appendLine(JSON.stringify({ void: id } satisfies MarkLine), true);
  }

  /** Every entry that happened, oldest first. */
  async entries(): Promise<JournalEntry[]> {
    return (await this.read()).entries;
  }

  /** The entries (voided ones left out), with the last one when it is not marked done: what a reader outside the lock sees. */
  async current(): Promise<{ entries: JournalEntry[]; unfinished: JournalEntry | undefined }> {
    const { entries, unfinished } = await this.read();
    return { entries, unfinished };
  }

  /** The last entry when neither done nor void follows it: a crash may have left it unfinished. */
  async unfinished(): Promise<JournalEntry | undefined> {
    return (await this.read()).unfinished;
  }

  async size(): Promise<number> {
    return (await stat(this.path).catch(() => undefined))?.size ?? 0;
  }

  /**
   * A crash in the middle of an append (or a failing disk) leaves a last line without its line
   * break; the next append would join it and both would be unreadable. A tail that is a whole
   * line gets its line break; anything else is cut off (it was never acknowledged). Works on
   * bytes: junk that is not UTF-8 must not move the cut.
   */
  async repairTail(): Promise<void> {
    const handle = await openIfExists(this.path, "r+");
    if (!handle) return;
    try {
      const { size } = await handle.stat();
      const tailStart = (await lastNewline(handle, size)) + 1;
      if (tailStart === size) return;
      const tailBytes = size - tailStart;
      if (tailBytes <= MAX_LINE_BYTES) {
        const tail = Buffer.alloc(tailBytes);
        await handle.read(tail, 0, tailBytes, tailStart);
        if ((await parseLine(tail.toString("utf8"))) !== undefined) {
          await handle.write("\n", size, "utf8");
          await handle.sync();
          return;
        }
      }
      await handle.truncate(tailStart);
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
    const slices = new TimeSlices();
    const lines: string[] = [];
    for (const entry of entries) lines.push(`${await entryLine(entry, slices)}\n`);
    const last = entries.at(-1);
    const done = last ? `${JSON.stringify({ done: last.id } satisfies MarkLine)}\n` : "";
    await writeFileAtomic(this.path, lines.join("") + done);
  }

  private async read(): Promise<{ entries: JournalEntry[]; unfinished: JournalEntry | undefined; marks: number }> {
    const entries: JournalEntry[] = [];
    const voided = new Set<string>();
    const finished = new Set<string>();
    let marks = 0;
    const slices = new TimeSlices();
    await forEachLine(this.path, async (line) => {
      // Junk (a line cut by a crash, a disk error, a hand edit) is not an entry: skipped.
      const parsed = await parseLine(line, slices);
      if (parsed === undefined) return;
      if ("changes" in parsed) {
        entries.push(parsed);
        return;
      }
      marks++;
      if (parsed.void) voided.add(parsed.void);
      if (parsed.done) finished.add(parsed.done);
    });
    const last = entries.at(-1);
    const unfinished = last && !voided.has(last.id) && !finished.has(last.id) ? last : undefined;
    return { entries: entries.filter((e) => !voided.has(e.id)), unfinished, marks };
  }

  /**
   * Appends one line; it starts on a line of its own even if the file ends in a torn line nothing
   * repaired. `endsLine`: the caller knows the file ends a line (it just appended one under the
   * lock), so its last byte is not read. `makeFolder`: only an entry, appended after the lock was
   * checked, may make the person's folder; a mark after it must not bring back a folder a
   * delete-all removed while this process stalled (it fails instead).
   */
  private async appendLine(line: string, sync: boolean, { endsLine = false, makeFolder = false } = {}): Promise<void> {
    const handle = makeFolder ? await openInFolder(this.path, "a+") : await open(this.path, "a+", PRIVATE_FILE_MODE);
    try {
      let size = 0;
      const last = Buffer.alloc(1);
      if (!endsLine) {
        size = (await handle.stat()).size;
        if (size > 0) await handle.read(last, 0, 1, size - 1);
      }
      await writeText(handle, `${size > 0 && last[0] !== NEWLINE ? "\n" : ""}${line}\n`);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

async function openIfExists(path: string, flags: string): Promise<FileHandle | undefined> {
  return open(path, flags).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
}

/** The offset of the last line break before `size`, or -1; read backwards a chunk at a time. */
async function lastNewline(handle: FileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, size));
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - buffer.length);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const at = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (at !== -1) return start + at;
    end = start;
  }
  return -1;
}

/**
 * Calls `visit` with each line of a file (the last one even without its line break), read a
 * chunk at a time so other work runs between chunks; a line over MAX_LINE_BYTES is skipped.
 */
async function forEachLine(path: string, visit: (line: string) => void | Promise<void>): Promise<void> {
  const handle = await openIfExists(path, "r");
  if (!handle) return;
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const take = (piece: Buffer) => {
      pendingBytes += piece.length;
      // Past the limit its bytes are only counted until the line ends.
      if (pendingBytes > MAX_LINE_BYTES) pending = [];
      else pending.push(Buffer.from(piece));
    };
    const endLine = async () => {
      const line = pendingBytes <= MAX_LINE_BYTES && pendingBytes > 0 ? Buffer.concat(pending).toString("utf8") : undefined;
      pending = [];
      pendingBytes = 0;
      if (line !== undefined) await visit(line);
    };
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE, start); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
        if (pendingBytes === 0) {
          if (at > start) await visit(chunk.toString("utf8", start, at));
        } else {
          take(chunk.subarray(start, at));
          await endLine();
        }
        start = at + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
    }
    await endLine();
  } finally {
    await handle.close();
  }
}

/** Lines longer than this are parsed in slices: JSON.parse of an import's entry (megabytes) would hold the loop. */
const SLICED_LINE_CHARS = 256 * 1024;

/** A journal line: an entry, a done/void mark, or undefined for anything else. */
async function parseLine(line: string, slices = new TimeSlices()): Promise<JournalEntry | MarkLine | undefined> {
  if (line.trim() === "") return undefined;
  let parsed: unknown;
  if (line.length > SLICED_LINE_CHARS) {
    const read = await parseJsonInSlices(line, { maxDepth: 16, slices });
    if (!read.ok) return undefined;
    parsed = read.value;
  } else {
    try {
      parsed = JSON.parse(line);
    } catch {
      return undefined;
    }
    await slices.pause();
  }
  return isEntry(parsed) || isMark(parsed) ? parsed : undefined;
}

/**
 * An entry as one JSON line, its changes written one at a time: an import's entry holds
 * megabytes, and one JSON.stringify of it would hold the loop.
 */
async function entryLine(entry: JournalEntry, slices: TimeSlices): Promise<string> {
  const { changes, ...rest } = entry;
  // `changes` goes last, so the head ends in `"changes":0}`; the changes replace that 0.
  const head = JSON.stringify({ ...rest, changes: 0 });
  const parts: string[] = [];
  for (const change of changes) {
    parts.push(JSON.stringify(change));
    await slices.pause();
  }
  return `${head.slice(0, -2)}[${parts.join(",")}]}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string | null => typeof value === "string" || value === null;

function isMark(value: unknown): value is MarkLine {
  return isObject(value) && !("changes" in value) && (typeof value.void === "string" || typeof value.done === "string");
}

function isActor(value: unknown): value is Actor {
  if (!isObject(value)) return false;
  if (value.kind === "model") return typeof value.session === "string" && (value.title === undefined || typeof value.title === "string");
  if (value.kind === "system") return typeof value.reason === "string";
  return value.kind === "person" && (value.via === undefined || value.via === "web") && (value.userId === undefined || isSnowflake(value.userId));
}

function isChange(value: unknown): value is SectionChange {
  return (
    isObject(value) &&
    typeof value.file === "string" &&
    typeof value.section === "string" &&
    Number.isInteger(value.position) &&
    (value.nth === undefined || Number.isInteger(value.nth)) &&
    (value.follows === undefined || typeof value.follows === "string") &&
    (value.precedes === undefined || typeof value.precedes === "string") &&
    isText(value.before) &&
    isText(value.after)
  );
}

/** Only a line every reader can use is an entry: history and undo read each field. */
function isEntry(value: unknown): value is JournalEntry {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    typeof value.at === "string" &&
    typeof value.op === "string" &&
    isActor(value.by) &&
    Array.isArray(value.changes) &&
    value.changes.every(isChange) &&
    (value.undoes === undefined || (Array.isArray(value.undoes) && value.undoes.every((id) => typeof id === "string"))) &&
    (value.forgotten === undefined || value.forgotten === true)
  );
}
