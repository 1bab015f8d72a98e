import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import { KeyedMutex } from "../keyed-mutex.js";

/** Every write of one person in this process runs in turn. */
const inProcess = new KeyedMutex();

/**
 * Serialises the writes of one person, within this process (mutex) and across processes
 * (a lock directory next to the person's folder, e.g. the bot and a terminal chat on the
 * same AGENTKIT_HOME). A lock left by a killed process goes stale after a few seconds.
 */
export function withPersonLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  return inProcess.run(folder, async () => {
    await mkdir(dirname(folder), { recursive: true });
    const release = await lockfile.lock(folder, {
      realpath: false,
      stale: 5_000,
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
