import { lstatSync, statSync, type BigIntStats, type Stats } from "node:fs";
import { lstat, stat } from "node:fs/promises";
import { TimeSlices } from "./time-slices.js";

/** Below this a stat answered from the kernel's cache (a local disk); above it, from a server (NFS). */
const QUICK_STAT_MS = 0.05;
const STAT_SLICE_MS = 2;
/** This many slow stats in a row, and the rest go to the thread pool. */
const SLOW_STATS = 3;

/** How to ask one file: in place (undefined when it is not there or cannot be asked), or through the thread pool. */
interface Asker<T> {
  now(path: string): T | undefined;
  later(path: string): Promise<T | undefined>;
}

/** A file's stat with nanosecond stamps (the recall index's change stamps); a link is followed. */
export const FOLLOWED: Asker<BigIntStats> = {
  now: (path) => quietly(() => statSync(path, { bigint: true, throwIfNoEntry: false })),
  later: (path) => stat(path, { bigint: true }).catch(() => undefined),
};

/** A file's own stat, a link as itself (what it takes on disk). */
export const OWN: Asker<Stats> = {
  now: (path) => quietly(() => lstatSync(path, { throwIfNoEntry: false })),
  later: (path) => lstat(path).catch(() => undefined),
};

function quietly<T>(ask: () => T | undefined): T | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}

/**
 * The stats of many files, undefined for one that is not there or cannot be asked. A stat answered
 * from the kernel's cache costs a few µs in place and 20 µs through a promise and the thread pool
 * (a year's 734 files: 5 ms against 15–20 ms, the bulk of a search that re-checks the index); one
 * that asks a file server costs a round trip, and there the thread pool's parallel stats win. So
 * they are taken in place, a slice of 2 ms at a time, while they stay quick, and the rest in
 * parallel once three in a row are slow: a stalled disk holds the pool's threads, not the loop.
 */
export async function statsOf<T>(paths: readonly string[], asker: Asker<T>): Promise<(T | undefined)[]> {
  const infos: (T | undefined)[] = [];
  const slices = new TimeSlices(STAT_SLICE_MS);
  let slowInARow = 0;
  for (const path of paths) {
    const started = performance.now();
    infos.push(asker.now(path));
    // One slow stat is mostly the machine (an interrupt, a collection); a server is slow every time.
    slowInARow = performance.now() - started > QUICK_STAT_MS ? slowInARow + 1 : 0;
    if (slowInARow === SLOW_STATS) break;
    await slices.pause();
  }
  const rest = await Promise.all(paths.slice(infos.length).map((path) => asker.later(path)));
  return [...infos, ...rest];
}
