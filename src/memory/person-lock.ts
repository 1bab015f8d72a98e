import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import { KeyedMutex } from "../keyed-mutex.js";
import { PRIVATE_DIR_MODE } from "../lib/private-files.js";

/** Every write of one person in this process runs in turn. */
const inProcess = new KeyedMutex();

/**
 * A lock whose mtime is older than this is taken over: how long the writers of a person wait
 * after its holder was killed. Long against any write (milliseconds) and any stall of a live
 * holder's event loop, short enough that a crash costs a person a few seconds.
 */
export const PERSON_LOCK_STALE_MS = 5_000;
/**
 * How often a live holder touches the lock's mtime. Well under the stale time (proper-lockfile's
 * default is half), so a holder must miss four refreshes in a row before another process takes
 * its lock; a killed holder's lock is then free between 4 and 5 s after its last refresh.
 */
export const PERSON_LOCK_REFRESH_MS = 1_000;

/**
 * Serialises the writes of one person, within this process (mutex) and across processes
 * (a lock directory next to the person's folder: the bot's shards, a terminal chat and the
 * CLI on the same AGENTKIT_HOME). A lock left by a killed process goes stale after
 * PERSON_LOCK_STALE_MS.
 */
export function withPersonLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  return inProcess.run(folder, async () => {
    await mkdir(dirname(folder), { recursive: true, mode: PRIVATE_DIR_MODE });
    const release = await lockfile.lock(folder, {
      realpath: false,
      stale: PERSON_LOCK_STALE_MS,
      update: PERSON_LOCK_REFRESH_MS,
      // Enough tries to outlast a stale lock (about 40 s), a few ms apart at first.
      retries: { retries: 1_000, minTimeout: 2, maxTimeout: 40, factor: 1.5 },
      // Losing the lock (e.g. the machine stalled past `stale`) must not crash the bot.
      onCompromised: () => {},
    });
    try {
      return await work();
    } finally {
      await release().catch(() => {});
    }
  });
}
