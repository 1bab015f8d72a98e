/** Work started off the caller's path, kept track of so that a shutdown can wait for it. */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly onError: (failure: string, error: unknown) => void) {}

  /** Runs work in the background; a failure is reported with `failure`, never thrown. */
  add(work: Promise<unknown>, failure: string): void {
    const tracked = work.catch((error: unknown) => this.onError(failure, error));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Resolves when nothing is running, including work added while waiting. */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
