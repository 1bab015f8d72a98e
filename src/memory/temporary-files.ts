import { readdir, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { TimeSlices } from "../lib/time-slices.js";
import { isTemporaryFile } from "./atomic-write.js";
import { withPersonLock } from "./person-lock.js";
import { isSnowflake } from "../lib/snowflake.js";

/**
 * A temporary file younger than this may belong to a writer on another host (sharing the volume)
 * or to one that writes without the person's lock (a pending confirmation): a write takes
 * milliseconds, so an older one is left over.
 */
const LEFTOVER_MS = 60_000;

/** Whether the writer named in a temporary file's name (`.<name>.<pid>.<hex>.tmp`) is gone from this machine. */
function writerGone(name: string): boolean {
  const pid = Number(name.split(".").at(-3));
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function temporaryFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && isTemporaryFile(e.name)).map((e) => join(e.parentPath, e.name));
}

/**
 * Removes the temporary files a killed writer left anywhere under a person's folder (memory
 * files, logs, conversations, journal, proposals): those whose writer is no longer running here,
 * or that are older than a minute. Callers hold the person's lock, so no locked write is under way.
 * Returns how many went.
 */
export async function removeLeftoverTemporaryFiles(dir: string): Promise<number> {
  let removed = 0;
  const pace = TimeSlices.pacer();
  for (const path of await temporaryFilesUnder(dir)) {
    await pace();
    const info = await stat(path).catch(() => undefined);
    if (!info || !(writerGone(basename(path)) || Date.now() - info.mtimeMs > LEFTOVER_MS)) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/** At start-up: the leftovers under every person's folder of a home, each person under their lock. */
export async function removeLeftoverTemporaryFilesOfEveryone(home: string): Promise<number> {
  const users = join(home, "users");
  const people = await readdir(users, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const person of people) {
    if (!person.isDirectory() || !isSnowflake(person.name)) continue;
    const dir = join(users, person.name);
    // Most folders have none: the lock is taken only where there is something to remove.
    if ((await temporaryFilesUnder(dir)).length === 0) continue;
    removed += await withPersonLock(dir, () => removeLeftoverTemporaryFiles(dir));
  }
  return removed;
}
