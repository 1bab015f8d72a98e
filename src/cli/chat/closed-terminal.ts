import { closeSync } from "node:fs";

/**
 * A terminal that closes under the chat (SIGHUP, the window closed): writes to it fail with
 * EIO, and nobody is there to read them, so they are dropped instead of crashing the close.
 * Node 20 also aborts at exit when it cannot restore a hung-up terminal's mode (a CHECK in
 * ResetStdio that allows EPERM only); it skips descriptors that are closed, so the chat closes
 * them before it exits.
 */
export class ClosedTerminal {
  private gone = false;

  constructor() {
    const drop = () => void (this.gone = true);
    process.stdout.on("error", drop);
    process.stderr.on("error", drop);
  }

  get isGone(): boolean {
    return this.gone;
  }

  /** The terminal hung up (SIGHUP, or EIO reading it). */
  markGone(): void {
    this.gone = true;
  }

  /** Just before exit: lets go of a hung-up terminal so that exiting cannot fail on it. */
  release(): void {
    if (!this.gone) return;
    for (const fd of [0, 1, 2]) {
      try {
        closeSync(fd);
      } catch {}
    }
  }
}
