import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { OWN, statsOf } from "../lib/stats-of.js";
import { join } from "node:path";

/** What the measure needs of a person's MemoryStore (which uses this module, so it is not imported here). */
interface StorageOwner {
  readonly dir: string;
  readonly indexPath: string;
  readonly quotaBytes: number | undefined;
}

/** How much a person's memory takes on disk, and how much it may (STORAGE_QUOTA_MB). */
export interface StorageUsage {
  usedBytes: number;
  /** Undefined: no quota (a store opened without one, as tests and tools may). */
  quotaBytes: number | undefined;
}

/** A write refused because it would take the person past their quota; front ends word it. */
export interface StorageFull {
  kind: "storage-full";
  usedBytes: number;
  quotaBytes: number;
  /** What the refused write would have added. */
  addsBytes: number;
}

/**
 * Bytes held for a person outside their folder while work is under way (an export being built):
 * counted with the folder, so an import during an export is measured with both. This process only.
 */
const inFlight = new Map<string, number>();

/** Counts `bytes` as the person's until the returned function is called. */
export function holdInFlight(memory: StorageOwner, bytes: number): () => void {
  inFlight.set(memory.dir, (inFlight.get(memory.dir) ?? 0) + bytes);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inFlight.get(memory.dir) ?? 0) - bytes;
    if (left > 0) inFlight.set(memory.dir, left);
    else inFlight.delete(memory.dir);
  };
}

/**
 * Everything stored for the person: their folder (memory files, logs, conversations, the journal,
 * pending uploads and confirmations), their recall index with SQLite's side files, and what
 * exports hold in flight. Reads only; a link is counted as itself, never followed.
 */
export async function storageUsage(memory: StorageOwner): Promise<StorageUsage> {
  // Several pages and turns of one person at once share one walk.
  let walking = walks.get(memory.dir);
  if (!walking) {
    walking = folderBytes(memory).finally(() => walks.delete(memory.dir));
    walks.set(memory.dir, walking);
  }
  return { usedBytes: (await walking) + (inFlight.get(memory.dir) ?? 0), quotaBytes: memory.quotaBytes };
}

/** Walks under way, by folder. */
const walks = new Map<string, Promise<number>>();

/**
 * More files than any person's memory holds (an import brings at most 5,000): past it the folder
 * counts as full rather than be walked further.
 */
const MAX_FILES = 100_000;

async function folderBytes(memory: StorageOwner): Promise<number> {
  // Only a folder that is not there is empty; any other failure is not taken for zero. A new
  // person has none: asked first, since the error a failed listing throws costs tens of microseconds to make.
  const entries = !statSync(memory.dir, { throwIfNoEntry: false })
    ? []
    : await readdir(memory.dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [];
        throw error;
      });
  if (entries.length > MAX_FILES) return Number.MAX_SAFE_INTEGER;
  const paths = entries.filter((entry) => !entry.isDirectory()).map((entry) => join(entry.parentPath, entry.name));
  paths.push(...["", "-wal", "-shm"].map((side) => `${memory.indexPath}${side}`));
  // Asked in place while the disk answers quickly, on the thread pool once it does not (statsOf).
  // A file gone since the listing (a forget, a close), or one that cannot be asked about, counts nothing.
  return (await statsOf(paths, OWN)).reduce((sum, info) => sum + (info?.size ?? 0), 0);
}

/** Refuses a write that adds `addsBytes` when it would take the person past their quota; a write that frees room always passes. */
export async function roomFor(memory: StorageOwner, addsBytes: number): Promise<StorageFull | undefined> {
  if (memory.quotaBytes === undefined || addsBytes <= 0) return undefined;
  const { usedBytes } = await storageUsage(memory);
  return usedBytes + addsBytes > memory.quotaBytes ? { kind: "storage-full", usedBytes, quotaBytes: memory.quotaBytes, addsBytes } : undefined;
}
