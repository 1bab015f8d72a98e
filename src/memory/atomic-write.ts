import { randomBytes } from "node:crypto";
import { type FileHandle, mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../lib/private-files.js";
import { writeText } from "../lib/text-writes.js";
import { assertLockHeld } from "./person-lock.js";
import { withoutByteOrderMark } from "./safety.js";

/** Temporary files start with a dot and end in .tmp, so nothing mistakes them for memory. */
export function isTemporaryFile(name: string): boolean {
  return name.startsWith(".") && name.endsWith(".tmp");
}

/** A write abandoned because its file no longer holds the text the write was made from. */
export class FileChangedError extends Error {
  constructor(path: string) {
    super(`the write was abandoned and nothing was saved: ${basename(path)} changed since it was read; try again`);
  }
}

export interface AtomicWriteOptions {
  /** The text the file must still hold (null: must not exist) for the write to go ahead. */
  expect?: string | null;
}

/**
 * Throws unless it is still safe to replace `path`: the person's lock, when the write runs under
 * it, is still this process's (a stalled holder may have lost it), and the file still holds what
 * the write was made from (`expect`). Nothing makes a rename conditional, so this runs just before it.
 */
export async function assertStillWritable(path: string, options: AtomicWriteOptions = {}): Promise<void> {
  await assertLockHeld();
  if (options.expect === undefined) return;
  const now = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  // Compared as it was read: a byte-order mark at the start is read past (and dropped by this write).
  if ((now === null ? null : withoutByteOrderMark(now)) !== options.expect) throw new FileChangedError(path);
}

/**
 * Writes a file so that a crash leaves either the old or the new content:
 * temporary file in the same folder, fsync, rename over the target, fsync the folder.
 */
export async function writeFileAtomic(path: string, content: string, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await openInFolder(temp, "w");
    try {
      await writeText(handle, content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await assertStillWritable(path, options);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/**
 * Opens a file whose folder may not exist yet: the folder is made only when the open says it is
 * missing, not before every write (a mkdir is a trip to the thread pool, two system calls when the
 * folder is there). Shared with the journal's appends.
 */
export async function openInFolder(path: string, flags: string): Promise<FileHandle> {
  try {
    return await open(path, flags, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  return open(path, flags, PRIVATE_FILE_MODE);
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
