/**
 * What a test started and must stop: homes, stores, engines, fakes, child processes, servers. The
 * helpers register each thing as they make it; tests/setup.ts runs them after every test, newest
 * first (an engine settles before its store closes, its store before its home goes). Hooks at a
 * helper's top level would run for the first file of a worker only once files share a worker's
 * modules (`isolate: false`, vitest.config.ts); a setup file runs for every file.
 */
const pending: (() => unknown)[] = [];

export function afterThisTest(cleanup: () => unknown): void {
  pending.push(cleanup);
}

/** Runs every cleanup, newest first; one that fails does not keep the others from running, and its error is thrown after. */
export async function runCleanups(): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const cleanup of pending.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
