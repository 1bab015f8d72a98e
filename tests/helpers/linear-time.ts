import { expect } from "vitest";

/**
 * Runs `work` on ever larger worst-case inputs (32 KB, 128 KB, then `bytes`), each within its share
 * of `maxMs` (at least half a second). The ladder makes a quadratic pattern fail in seconds instead
 * of hanging the test process for an hour (a blocked event loop cannot be interrupted by the test's
 * timeout); the bounds are loose, for a shared machine under load, and still far below what a
 * quadratic pattern takes.
 */
export function expectLinear(worst: (size: number) => string, work: (input: string) => unknown, { bytes = 1 << 20, maxMs = 5000 } = {}): void {
  for (const size of [32 << 10, 128 << 10, bytes]) {
    const input = worst(size);
    const bound = Math.max(500, (maxMs * size) / bytes);
    const started = performance.now();
    work(input);
    const took = performance.now() - started;
    expect(took, `${input.length} chars took ${Math.round(took)} ms`).toBeLessThan(bound);
  }
}
