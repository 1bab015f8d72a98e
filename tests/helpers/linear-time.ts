import { expect } from "vitest";

/** Far below what a quadratic pattern needs on 1 MB (hours), far above what a linear scan needs. */
export const LINEAR_MS = 200;

/** CPU time this process spent in `work`, in ms: other processes on a busy machine do not count. */
export function cpuMs(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/**
 * Runs `work` on the input `make` builds, first at 32 k then at 1 M characters, each under
 * LINEAR_MS of CPU time. A quadratic pattern already takes seconds at 32 k, so a regression
 * fails there instead of hanging the suite on the 1 MB run (a synchronous loop cannot be
 * timed out).
 */
export function expectLinear(make: (size: number) => string, work: (input: string) => unknown): void {
  for (const size of [32_000, 1_000_000]) {
    const input = make(size);
    const took = cpuMs(() => work(input));
    expect(took, `${Math.round(took)} ms on ${size} characters`).toBeLessThan(LINEAR_MS);
  }
}
