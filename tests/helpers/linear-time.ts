import { expect } from "vitest";
import { cpuMs } from "./cpu-time.js";

/**
 * Runs `work` on the worst input `make` builds, first at 32 k then at 1 M characters, within
 * 200 ms and 1,000 ms of CPU time: far above what a linear scan needs, far below what a
 * quadratic pattern takes (seconds at 32 k, hours at 1 M). The small run comes first, so a
 * regression fails in seconds instead of hanging the suite (a synchronous loop cannot be timed
 * out by the test's timeout).
 */
export function expectLinear(make: (size: number) => string, work: (input: string) => unknown): void {
  for (const [size, bound] of [
    [32_000, 200],
    [1_000_000, 1_000],
  ] as const) {
    const input = make(size);
    let took = cpuMs(() => work(input));
    // A second run when the first is over: CPU time still grows when the machine is shared (two
    // cores, three test workers; CI once measured a linear split of 1 MB at 1,340 ms, 670 alone).
    // The better of two is what the code takes; a quadratic pattern is over in both, by hours.
    if (took >= bound)
      took = Math.min(
        took,
        cpuMs(() => work(input)),
      );
    expect(took, `${Math.round(took)} ms of CPU on ${input.length} characters`).toBeLessThan(bound);
  }
}

/** `unit` repeated to exactly `size` characters, then `tail`. */
export const repeatTo = (unit: string, size: number, tail = ""): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size) + tail;
