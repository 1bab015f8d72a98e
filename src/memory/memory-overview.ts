import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { dateOfConversation } from "./conversation-log.js";
import type { JournalEntry } from "./journal.js";
import type { MemoryStore } from "./memory-store.js";
import { FILE_KINDS } from "./file-kinds.js";
import { parseSections } from "./sections.js";
import { countChars } from "../lib/text.js";
import { storageUsage, type StorageUsage } from "./storage-quota.js";
import { dateOfLog } from "../lib/time.js";

export interface FileOverview {
  /** "SOUL.md", "USER.md", "MEMORY.md", "daily/2026-12-02.md" (today's log). */
  label: string;
  used: number;
  cap: number;
  sections: number;
}

/** A person's memory in figures (/memory view without a file). */
export interface MemoryOverview {
  /** SOUL, USER, MEMORY and today's log, in that order; a missing file counts as empty. */
  files: FileOverview[];
  /** The newest change history keeps, if any. */
  lastChange: JournalEntry | undefined;
  /** The newest few changes, newest first (the web page's overview; one read of the journal for both). */
  recentChanges: JournalEntry[];
  /** The person's zone, in which the last change's time is told. */
  zone: string;
  /** Days whose log is archived or, older than the snapshot window, will be at the next close. */
  archivedLogs: number;
  /** Closed conversations kept word for word. */
  conversations: number;
  /** Everything stored for the person, against their quota (storage-quota.ts). */
  storage: StorageUsage;
}

const RECENT = 5;

/** Reads, never writes: a person with no memory yet gets zeros and keeps an empty folder. */
export async function memoryOverview(memory: MemoryStore, now: Date = new Date()): Promise<MemoryOverview> {
  const files = await Promise.all(
    FILE_KINDS.map(async (kind): Promise<FileOverview> => {
      const file = memory.file(kind, now);
      const text = await file.read();
      return { label: file.label, used: countChars(text), cap: file.cap, sections: parseSections(text).sections.length };
    }),
  );
  // Only when there is a journal: a person with none has no history to show.
  const recentChanges = (await memory.journal.size()) > 0 ? (await memory.history()).slice(0, RECENT) : [];
  return {
    files,
    lastChange: recentChanges[0],
    recentChanges,
    zone: memory.timeZone().zone,
    archivedLogs: await countArchivedLogs(memory, now),
    conversations: (await names(memory.conversationsDir)).filter((name) => dateOfConversation(name) !== undefined).length,
    storage: await storageUsage(memory),
  };
}

/** A day counts once, whether its log is in the archive, still waiting to move there, or both. */
async function countArchivedLogs(memory: MemoryStore, now: Date): Promise<number> {
  const oldestKept = memory.oldestRecentLog(now);
  const archived = (await names(memory.archiveDir)).flatMap((name) => dateOfLog(name) ?? []);
  const waiting = (await names(join(memory.dir, "daily"))).flatMap((name) => {
    const date = dateOfLog(name);
    return date !== undefined && date < oldestKept ? [date] : [];
  });
  return new Set([...archived, ...waiting]).size;
}

async function names(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => [] as string[]);
}
