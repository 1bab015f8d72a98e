import { rm } from "node:fs/promises";
import { FileChangedError, assertStillWritable, writeFileAtomic } from "./atomic-write.js";
import { TimeSlices } from "../lib/time-slices.js";
import { assertLockHeld } from "./person-lock.js";
import { type Journal, newEntryId, type Actor, type JournalEntry, type Retention, type SectionChange } from "./journal.js";
import { readTextIfExistsSync } from "./memory-file.js";
import { diffSections, sameSection, sectionText, setSection } from "./section-changes.js";

/** A file's new text (null deletes it), by its label. */
export interface FileWrite {
  label: string;
  text: string | null;
  /**
   * The text the write was made from (null: no file), when it was read before commitWrites: the
   * write is abandoned if the file holds anything else by then.
   */
  from?: string | null;
}

export interface CommitOptions {
  now?: Date;
  undoes?: string[];
  retention?: Retention;
}

/** Journal sizes this process has checked for an unfinished last entry, by journal path. */
const verified = new Map<string, number>();
/** Commits since the last compaction, by journal path. */
const sinceCompaction = new Map<string, number>();
const COMPACT_EVERY = 50;

/**
 * Under the person's lock: journals the sections a set of writes changes, fsyncs the journal,
 * then writes the files. A crash in between leaves a journal entry whose change is not in the
 * files; `recoverJournal` settles it at the next write. Returns undefined when nothing changes.
 */
export async function commitWrites(
  journal: Journal,
  pathOf: (label: string) => string,
  by: Actor,
  op: string,
  writes: FileWrite[],
  options: CommitOptions = {},
): Promise<JournalEntry | undefined> {
  const now = options.now ?? new Date();
  // A write hands over the text it read under this lock, and the change is worked out from it.
  // Before the journal line, each such file must still hold it (a hand edit, or a lock lost in a
  // stall, while a forget planned over many files): otherwise nothing is journalled and no file
  // of the change is touched. The check is made again just before each rename (writeFile).
  const read = writes.map((w) => (w.from !== undefined ? w.from : (readTextIfExistsSync(pathOf(w.label)) ?? null)));
  const changed = writes.findIndex((w) => w.from !== undefined && (readTextIfExistsSync(pathOf(w.label)) ?? null) !== w.from);
  if (changed >= 0) throw new FileChangedError(pathOf(writes[changed]!.label));
  // File by file, handing the loop back between them: an import writes thousands of sections.
  const slices = new TimeSlices();
  const changes: SectionChange[] = [];
  for (const [i, w] of writes.entries()) {
    for (const change of diffSections(w.label, read[i]!, w.text)) changes.push(change);
    await slices.pause();
  }
  if (changes.length === 0) return undefined;
  const entry: JournalEntry = { id: newEntryId(now), at: now.toISOString(), by, op, changes, ...(options.undoes ? { undoes: options.undoes } : {}) };
  // No line for a change this process may no longer make (it stalled and lost the lock).
  await assertLockHeld();
  await journal.append(entry);
  // Each file is replaced only while the lock is ours and the file holds what the change was made from.
  for (const [i, write] of writes.entries()) await writeFile(pathOf(write.label), write.text, read[i]!);
  await journal.markDone(entry.id);
  const count = (sinceCompaction.get(journal.path) ?? 0) + 1;
  sinceCompaction.set(journal.path, count);
  if (count >= COMPACT_EVERY) {
    sinceCompaction.set(journal.path, 0);
    await journal.compact(options.retention ?? { entries: 1000, days: 180 }, now);
  }
  verified.set(journal.path, await journal.size());
  return entry;
}

/** An empty memory file reads like a missing one: an undo that empties a file removes it. */
async function writeFile(path: string, text: string | null, from?: string | null): Promise<void> {
  const expect = from === undefined ? {} : { expect: from };
  if (text !== null && text !== "") return writeFileAtomic(path, text, expect);
  await assertStillWritable(path, expect);
  await rm(path, { force: true });
}

/**
 * Under the person's lock, before any write: if the journal's last entry is not marked done
 * (a process killed between the journal and the files), finish it when part of it reached the
 * files, or void it when none did. A cut last line is removed first. Cheap when this process
 * has seen the journal as it is.
 */
export async function recoverJournal(journal: Journal, pathOf: (label: string) => string): Promise<void> {
  const size = await journal.size();
  if (size === 0 || verified.get(journal.path) === size) return;
  await journal.repairTail();
  const last = await journal.unfinished();
  if (last) {
    const states = changeStates(last, pathOf);
    // None of it reached the files: void it. "other" (a section changed since) is not the entry's
    // doing: a writer that lost the lock after journalling, while another process changed the section.
    if (!states.includes("after")) {
      await journal.voidEntry(last.id);
    } else {
      // Some files got the change, some not: the intent is clear, finish it.
      const byFile = new Map<string, string | null>();
      last.changes.forEach((change, i) => {
        if (states[i] !== "before") return;
        const text = byFile.has(change.file) ? byFile.get(change.file)! : (readTextIfExistsSync(pathOf(change.file)) ?? null);
        byFile.set(change.file, setSection(text, change, change.after));
      });
      for (const [file, text] of byFile) await writeFile(pathOf(file), text);
      await journal.markDone(last.id);
    }
  }
  verified.set(journal.path, await journal.size());
}

/** Where each change of an entry stands in the files now: made, not made, or changed since by something else. */
function changeStates(entry: JournalEntry, pathOf: (label: string) => string): ("after" | "before" | "other")[] {
  return entry.changes.map((change) => {
    const current = sectionText(readTextIfExistsSync(pathOf(change.file)) ?? null, change);
    return sameSection(current, change.after) ? "after" : sameSection(current, change.before) ? "before" : "other";
  });
}

/**
 * Whether an entry not marked done reached the files in part: the next write under the lock
 * finishes such an entry (recoverJournal) and voids the others, so a reader outside the lock
 * shows it already, and hides the others.
 */
export function reachedFiles(entry: JournalEntry, pathOf: (label: string) => string): boolean {
  return changeStates(entry, pathOf).includes("after");
}

/** After the journal was rewritten under the lock (compaction, forget): this process has seen it. */
export async function journalSeen(journal: Journal): Promise<void> {
  verified.set(journal.path, await journal.size());
}
