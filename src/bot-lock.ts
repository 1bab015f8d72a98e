import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { PRIVATE_DIR_MODE } from "./lib/private-files.js";

/** A lock whose holder died is taken over after this long; a running bot refreshes it twice as often. */
const STALE_MS = 5_000;

/**
 * One bot (or one shard of each id) per AGENTKIT_HOME. A second `npm start` on the same home logs in
 * as well, answers every message a second time and takes the first one's open sessions: it stops
 * at once with one line instead. A bot killed without a goodbye leaves the lock, which goes stale
 * after a few seconds, so a restart waits at most that long.
 */
export async function holdBotLock(home: string, shardId: number | undefined): Promise<() => Promise<void>> {
  await mkdir(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  const name = shardId === undefined ? "bot.lock" : `shard-${shardId}.lock`;
  try {
    return await lockfile.lock(home, {
      lockfilePath: join(home, name),
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 2,
      // Long enough to outlast the lock of a bot that was just killed.
      retries: { retries: 30, factor: 1, minTimeout: 250, maxTimeout: 250 },
      // A stalled machine may lose the lock; the bot goes on (its sessions are guarded by the store).
      onCompromised: () => {},
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    const what = shardId === undefined ? "An AgentKit bot" : `Shard ${shardId} of AgentKit`;
    throw new Error(`${what} is already running on ${home} (${name}): stop it first; to run several processes, use SHARD_COUNT`);
  }
}
