import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import lockfile from "proper-lockfile";
import { KeyedMutex } from "../lib/keyed-mutex.js";
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
 * A holder writes only while its last refresh is younger than this: the rest of the stale time
 * is left for the write itself. A holder past it has stalled (its refreshes did not run), and
 * another process may take the lock at any moment, or has.
 */
export const PERSON_LOCK_LEASE_MS = PERSON_LOCK_STALE_MS - 2_000;
/** How long a writer tries to take a person's lock held by another live process before it gives up (ELOCKED). */
const LOCK_WAIT_MS = 40_000;

/** A write abandoned because its process no longer held the person's lock (it stalled past the stale time). */
export class LockLostError extends Error {
  constructor(reason: string) {
    super(`the write was abandoned and nothing was saved: this process lost the lock on the person's memory (${reason}); try again`);
  }
}

interface Holding {
  lockPath: string;
  /** The mtime this process last gave the lock directory (ms): another one means another holder. */
  mtime: number;
  /** The mtime of a refresh under way, which the directory may show before its callback runs. */
  refreshing?: number;
  /** When the lock was last taken or refreshed, by this process's clock. */
  refreshedAt: number;
  lost?: Error;
  released: boolean;
}

/**
 * The lock held by the work running now, if any (through every await of that work). Switched off
 * whenever this process holds no person's lock: on Node 20 a running AsyncLocalStorage makes every
 * promise of the process pay async hooks (about 0.1 ms of a turn's CPU in `npm run bench`), and
 * most turns take no lock. `run` switches it on again.
 */
const holdings = new AsyncLocalStorage<Holding>();
/** Locks this process holds, by lock path: proper-lockfile's refreshes update them. */
const held = new Map<string, Holding>();
/** The mtime proper-lockfile last read of a lock path, while this process takes it. */
const lastSeen = new Map<string, number>();

/**
 * The file system proper-lockfile works through: node's, with each refresh of a lock this process
 * holds noted, so a write can tell whether the lock is still its own. (proper-lockfile keeps that
 * to itself; its `check` only says whether someone holds a lock, not who.)
 */
const lockFs = {
  ...fs,
  // proper-lockfile reads the mtime of a lock it has just made (its precision probe): kept, so the
  // holder does not read it again (a trip to the thread pool on every write).
  stat(path: fs.PathLike, callback: (error: NodeJS.ErrnoException | null, stats: fs.Stats) => void): void {
    fs.stat(path, (error, stats) => {
      // Only while the lock is being taken: a held lock's refreshes read it too.
      if (!error && !held.has(String(path))) lastSeen.set(String(path), stats.mtime.getTime());
      callback(error, stats);
    });
  },
  utimes(path: fs.PathLike, atime: fs.TimeLike, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void): void {
    const holding = held.get(String(path));
    if (holding) holding.refreshing = mtime.getTime();
    fs.utimes(path, atime, mtime, (error) => {
      if (holding) {
        if (!error) {
          holding.mtime = mtime.getTime();
          // The time the lock now shows, not when the refresh came back: another process judges it
          // stale by that mtime, so the lease counts from it too. A refresh that waited in a busy
          // thread pool must not stretch the lease past what the others see.
          holding.refreshedAt = Math.min(Date.now(), mtime.getTime());
        }
        delete holding.refreshing;
      }
      callback(error);
    });
  },
};

/**
 * Serialises the writes of one person, within this process (mutex) and across processes
 * (a lock directory next to the person's folder: the bot's shards, a terminal chat and the
 * CLI on the same AGENTKIT_HOME). A lock left by a killed process goes stale after
 * PERSON_LOCK_STALE_MS. Work that already holds the lock (a caller further up) runs at once.
 *
 * A holder that stalls past the stale time may have lost the lock to another process: every write
 * under it asks `assertLockHeld` first, and is abandoned (LockLostError) when the lock is no longer
 * provably its own.
 */
export function withPersonLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const lockPath = `${resolve(folder)}.lock`;
  const current = holdings.getStore();
  if (current && current.lockPath === lockPath && !current.released) return work();
  return inProcess.run(folder, async () => {
    await mkdir(dirname(folder), { recursive: true, mode: PRIVATE_DIR_MODE });
    const holding: Holding = { lockPath, mtime: 0, refreshedAt: Date.now(), released: false };
    lastSeen.delete(lockPath);
    let probed: number | undefined;
    const release = await lockfile
      .lock(folder, {
        realpath: false,
        stale: PERSON_LOCK_STALE_MS,
        update: PERSON_LOCK_REFRESH_MS,
        fs: lockFs,
        // Tries for 40 s, enough to outlast a stale lock: 5, 10, 20 and 40 ms apart, over and over
        // (retry 0.12's `forever` starts its list again when it runs out; `maxRetryTime` ends it).
        // A list as long as the wait (1,000 tries) is worked out, sorted and copied by the retry
        // package at every lock: 0.1 ms each time, for the common lock that nobody else holds.
        retries: { retries: 4, minTimeout: 5, maxTimeout: 40, factor: 2, forever: true, maxRetryTime: LOCK_WAIT_MS },
        // Losing the lock (e.g. the machine stalled past `stale`) must not crash the bot: the writes under it are abandoned.
        onCompromised: (error) => {
          holding.lost ??= error;
        },
      })
      .finally(() => {
        probed = lastSeen.get(lockPath);
        lastSeen.delete(lockPath);
      });
    held.set(lockPath, holding);
    try {
      // Just created by this process: its mtime is ours. proper-lockfile's last read of it is the
      // probe right after its mkdir (a stale lock it read before that was removed and made again).
      holding.mtime = probed ?? (await stat(lockPath)).mtime.getTime();
      // Counted from the mtime others see (see lockFs.utimes), never from a later moment.
      holding.refreshedAt = Math.min(Date.now(), holding.mtime);
      return await holdings.run(holding, work);
    } finally {
      holding.released = true;
      held.delete(lockPath);
      // What a released holding's leftover work asks gets "no lock" either way (released, or no store).
      if (held.size === 0) holdings.disable();
      // A lock taken over by another process is theirs now: releasing it would remove their lock.
      if (!holding.lost || (await stillOurs(holding))) await release().catch(() => {});
    }
  });
}

/**
 * Before a write under a person's lock (a rename, a journal line): throws LockLostError when the
 * lock may no longer be this process's: proper-lockfile found it compromised, another process's
 * refresh is on it, it is gone, or it was not refreshed for PERSON_LOCK_LEASE_MS (the process
 * stalled, and the lock may be taken at any moment). Outside a person's lock it does nothing.
 */
export async function assertLockHeld(): Promise<void> {
  const holding = holdings.getStore();
  if (!holding || holding.released) return;
  if (!holding.lost) {
    const since = Date.now() - holding.refreshedAt;
    if (since > PERSON_LOCK_LEASE_MS) holding.lost = new Error(`not refreshed for ${since} ms`);
    else if (!(await stillOurs(holding))) holding.lost = new Error("another process holds it now");
  }
  if (holding.lost) throw new LockLostError(holding.lost.message);
}

async function stillOurs(holding: Holding): Promise<boolean> {
  const info = await stat(holding.lockPath).catch(() => undefined);
  const mtime = info?.mtime.getTime();
  return mtime !== undefined && (mtime === holding.mtime || mtime === holding.refreshing);
}
