import { lstat, readdir } from "node:fs/promises";
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

/** Stats at once while walking: enough to keep the disk busy without a burst of thousands of calls. */
const STATS_AT_ONCE = 64;

/**
 * Everything stored for the person: their folder (memory files, logs, conversations, the journal,
 * pending uploads and confirmations), their recall index with SQLite's side files, and what
 * exports hold in flight. Reads only; a link is counted as itself, never followed.
 */
export async function storageUsage(memory: StorageOwner): Promise<StorageUsage> {
  const entries = await readdir(memory.dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const paths = entries.filter((entry) => !entry.isDirectory()).map((entry) => join(entry.parentPath, entry.name));
  paths.push(...["", "-wal", "-shm"].map((side) => `${memory.indexPath}${side}`));
  let usedBytes = inFlight.get(memory.dir) ?? 0;
  for (let start = 0; start < paths.length; start += STATS_AT_ONCE) {
    const sizes = await Promise.all(paths.slice(start, start + STATS_AT_ONCE).map((path) => lstat(path).then((s) => s.size, () => 0)));
    usedBytes += sizes.reduce((sum, size) => sum + size, 0);
  }
  return { usedBytes, quotaBytes: memory.quotaBytes };
}

/** Refuses a write that adds `addsBytes` when it would take the person past their quota; a write that frees room always passes. */
export async function roomFor(memory: StorageOwner, addsBytes: number): Promise<StorageFull | undefined> {
  if (memory.quotaBytes === undefined || addsBytes <= 0) return undefined;
  const { usedBytes } = await storageUsage(memory);
  return usedBytes + addsBytes > memory.quotaBytes ? { kind: "storage-full", usedBytes, quotaBytes: memory.quotaBytes, addsBytes } : undefined;
}
