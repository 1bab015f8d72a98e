import { chmod, lstat, readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Everything under AGENTKIT_HOME is one person's memory or derived from it: only the bot's own
 * OS user may read it. Our own creates pass these modes; files made by libraries (SQLite and
 * its -wal/-shm, proper-lockfile's lock folders) get them from the process umask, which every
 * entry point sets first.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_UMASK = 0o077;

/** Called first by every entry point: whatever the shell's umask, new files are 0600 and folders 0700. */
export function keepFilesPrivate(): void {
  process.umask(PRIVATE_UMASK);
}

export interface Tightened {
  /** Paths whose group or other permissions were taken away. */
  changed: number;
  /** Paths that could not be changed (owned by another user, gone meanwhile). */
  failed: number;
}

/**
 * Takes group and other permissions away from the home and everything in it (a home made
 * before files were private, or copied in with a wide umask). Owner bits stay as they are;
 * symbolic links are neither changed nor followed, so nothing outside the home is touched.
 * A home that is the OS user's own home folder or the root is left alone: that is a
 * misconfiguration, not a folder of the bot's.
 */
export async function tightenHome(home: string): Promise<Tightened> {
  const root = resolve(home);
  const result: Tightened = { changed: 0, failed: 0 };
  if (root === resolve(homedir()) || root === resolve("/")) return result;
  const rootInfo = await stat(root).catch(() => undefined);
  if (!rootInfo?.isDirectory()) return result;
  await tighten(root, rootInfo.mode, result);
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(folder, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info || info.isSymbolicLink()) continue;
      if (info.isDirectory()) folders.push(path);
      if (info.isDirectory() || info.isFile()) await tighten(path, info.mode, result);
    }
  }
  return result;
}

async function tighten(path: string, mode: number, result: Tightened): Promise<void> {
  if ((mode & 0o077) === 0) return;
  try {
    await chmod(path, mode & 0o700);
    result.changed += 1;
  } catch {
    result.failed += 1;
  }
}
