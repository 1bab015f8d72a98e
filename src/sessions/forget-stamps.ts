import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { link, mkdir, open, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { syncDirectory, writeFileAtomic } from "../memory/atomic-write.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../lib/private-files.js";
import { epochKey } from "./session-store-base.js";

/** What a stamp holds while a forget runs: no number, so every reader asks the store. */
const FORGETTING = "forgetting\n";
/** An epochKey: the only names a stamp is written under (a key read from the store is checked against it). */
const STAMP_NAME = /^[0-9a-f]{32}$/;

/**
 * A person's forget epoch, mirrored on disk (`$AGENTKIT_HOME/forgets/<hash of the id>`) so that a
 * turn can check it with a synchronous look at a file instead of a session-store round trip (which
 * queued behind other people's saves and doubled turn latency at p95). The store stays the
 * authority: a forget marks the stamp "forgetting" before it moves the store's epoch and writes
 * the new number only after the store has it, so an even number read here is the store's; any
 * other content (forgetting, unreadable) sends the reader to the store. The stamp lives outside
 * the person's folder because delete-all removes that folder, and no stamp is ever removed.
 *
 * Most people never forget anything, so most have no stamp. Once every person whose epoch in the
 * store is not 0 has one (made once per home and store, `complete`, which leaves a mark named
 * after the store, `complete-<hash>`: removing the folder's files removes it too), a missing
 * stamp means epoch 0: a forget writes its stamp before the store's epoch moves. Without that mark
 * a missing stamp sends the reader to the store, which leaves a stamp behind (`remember`), as
 * before the mark. The stamps belong with their store: the folder goes whole or not at all.
 */
export class ForgetStamps {
  private readonly dir: string;
  /** The mark that the stamps are complete for this store; undefined when the store has no identity. */
  private readonly mark: string | undefined;

  constructor(home: string, storeIdentity: string | undefined) {
    this.dir = join(home, "forgets");
    this.mark = storeIdentity === undefined ? undefined : join(this.dir, `complete-${createHash("sha256").update(storeIdentity).digest("hex").slice(0, 16)}`);
  }

  /** The epoch when the stamps say it for sure; undefined means "ask the store". */
  read(userId: string): number | undefined {
    const path = this.pathOf(userId);
    // Asked first, rather than learnt from a failed open: most people have no stamp, and an exception costs tens of µs.
    const there = isThere(path);
    if (there !== true) return there === false && this.isComplete() ? 0 : undefined;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    const epoch = /^\d{1,15}\n$/.test(text) ? Number(text) : Number.NaN;
    return Number.isInteger(epoch) && epoch % 2 === 0 ? epoch : undefined;
  }

  /** Whether a missing stamp means epoch 0: the mark is there (looked at each time: a folder emptied by hand takes it away). */
  isComplete(): boolean {
    return this.mark !== undefined && isThere(this.mark) === true;
  }

  /**
   * Gives every person whose epoch in the store is not 0 a stamp, unless they have one (a forget's
   * own write wins), each on the disk before the mark is: then the mark. `epochs` is the store's
   * list, read before this is called; a forget that began since then wrote its stamp itself.
   */
  async complete(epochs: readonly { key: string; epoch: number }[]): Promise<void> {
    if (this.mark === undefined) return;
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    for (const { key, epoch } of epochs) {
      // A key no person's id hashes to is no one's stamp, and no file is made from it.
      if (!STAMP_NAME.test(key)) continue;
      // Not a number: readers ask the store for that person (as for a forget under way).
      const settled = Number.isSafeInteger(epoch) && epoch >= 0 && epoch % 2 === 0;
      await createIfMissing(join(this.dir, key), settled ? `${epoch}\n` : FORGETTING);
    }
    await syncDirectory(this.dir);
    await writeFileAtomic(this.mark, "Every person with a forget epoch in this store has a stamp here: a missing one means 0.\n");
  }

  /** Before the store's epoch moves. */
  async forgetting(userId: string): Promise<void> {
    await writeFileAtomic(this.pathOf(userId), FORGETTING);
  }

  /** After the store holds `epoch` (even): a forget has ended. */
  async settled(userId: string, epoch: number): Promise<void> {
    await writeFileAtomic(this.pathOf(userId), `${epoch}\n`);
  }

  /**
   * The epoch the store answered, for a person with no stamp yet while the stamps are not
   * complete. Created only if still missing: a forget that started since the store was read has
   * written its own stamp, which must win.
   */
  remember(userId: string, epoch: number): void {
    const write = () => writeFileSync(this.pathOf(userId), `${epoch}\n`, { flag: "wx", mode: PRIVATE_FILE_MODE });
    try {
      try {
        write();
      } catch (error) {
        // The folder is made only when it is missing: a new person's first turn asks once, not twice.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
        write();
      }
    } catch {
      // There already (a forget wrote it), or the folder is not writable: readers ask the store.
    }
  }

  private pathOf(userId: string): string {
    return join(this.dir, epochKey(userId));
  }
}

/** Whether a file is there: undefined when that cannot be told (not a folder on the way, no permission). */
function isThere(path: string): boolean | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts `text` at `path` unless a file is there (a forget's own stamp wins), whole or not at all:
 * written and synced under a temporary name, then linked into place (a link never replaces). On a
 * file system without hard links, an exclusive create: a crash there leaves an empty stamp, which
 * readers take for "ask the store".
 */
async function createIfMissing(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeSynced(temp, text);
    await link(temp, path).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return;
      if (!NO_HARD_LINKS.has(error.code ?? "")) throw error;
      await writeSynced(path, text).catch((again: NodeJS.ErrnoException) => {
        if (again.code !== "EEXIST") throw again;
      });
    });
  } finally {
    await rm(temp, { force: true });
  }
}

/** What link() answers on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

/** A new file with `text`, synced; EEXIST when one is there. */
async function writeSynced(path: string, text: string): Promise<void> {
  const handle = await open(path, "wx", PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
