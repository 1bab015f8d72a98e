import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../memory/atomic-write.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../lib/private-files.js";
import { epochKey } from "./session-store-base.js";

/** What a stamp holds while a forget runs: no number, so every reader asks the store. */
const FORGETTING = "forgetting\n";

/**
 * A person's forget epoch, mirrored on disk (`$AGENTKIT_HOME/forgets/<hash of the id>`) so that a
 * turn can check it with one small synchronous read instead of a session-store round trip (which
 * queued behind other people's saves and doubled turn latency at p95). The store stays the
 * authority: a forget marks the stamp "forgetting" before it moves the store's epoch and writes
 * the new number only after the store has it, so an even number read here is the store's; any
 * other content (forgetting, missing, unreadable) sends the reader to the store. The stamp lives
 * outside the person's folder because delete-all removes that folder.
 */
export class ForgetStamps {
  private readonly dir: string;

  constructor(home: string) {
    this.dir = join(home, "forgets");
  }

  /** The epoch when the stamp says it for sure; undefined means "ask the store". */
  read(userId: string): number | undefined {
    const path = this.pathOf(userId);
    let text: string;
    try {
      // Read without asking first whether it is there: a person has one from their first turn on.
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    const epoch = /^\d{1,15}\n$/.test(text) ? Number(text) : Number.NaN;
    return Number.isInteger(epoch) && epoch % 2 === 0 ? epoch : undefined;
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
   * The epoch the store answered, for a person with no stamp yet. Created only if still missing:
   * a forget that started since the store was read has written its own stamp, which must win.
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
