import { describe, expect, it } from "vitest";
import type { LoadResult } from "../../../bench/load.js";
import { checkTargets, type BenchResults } from "../../../bench/report.js";

/** The fields of a load result the targets read. */
const load = (cpu: number): LoadResult => ({ botCpuMsPerTurn: cpu, restPerTurn: 1, toModelMs: { p99: 5 }, toFinalMs: { p99: 5 } }) as unknown as LoadResult;
const cpuTarget = (results: Partial<BenchResults>) => checkTargets(results as BenchResults).find((t) => t.name === "bot CPU per turn ÷ floor");

describe("the bench's CPU target (issue 30)", () => {
  it("checks one pair's AgentKit ÷ floor against 1.3×", () => {
    expect(cpuTarget({ turnOverhead: load(6.4), floor: load(5) })).toMatchObject({ value: 1.28, limit: 1.3, ok: true });
    expect(cpuTarget({ turnOverhead: load(7), floor: load(5) })).toMatchObject({ value: 1.4, ok: false });
  });

  it("takes the median of the pairs' ratios when the load ran several times (--load-pairs)", () => {
    // The first pair alone would pass; the median of 1.2, 1.5 and 1.6 does not.
    const pairs = [
      { agentkit: 6, floor: 5 },
      { agentkit: 7.5, floor: 5 },
      { agentkit: 8, floor: 5 },
    ];
    expect(cpuTarget({ turnOverhead: load(6), floor: load(5), loadPairs: pairs })).toMatchObject({ value: 1.5, ok: false });
  });
});
