import { describe, expect, it } from "vitest";
import type { LoadResult } from "../../../bench/load.js";
import { checkTargets, dutiesRows, type BenchResults } from "../../../bench/report.js";

/** The fields of a load result the targets read. */
const load = (cpu: number, failures: string[] = []): LoadResult =>
  ({ botCpuMsPerTurn: cpu, restPerTurn: 1, toModelMs: { p99: 5 }, toFinalMs: { p99: 5 }, failures }) as unknown as LoadResult;
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

  it("never reads the floor with duties as the target's floor", () => {
    // Against the floor with duties (6.5 ms) AgentKit would be 1.08×; the target stays the bare floor's 1.4×.
    const results = { turnOverhead: load(7), floor: load(5), floorDuties: load(6.5), loadPairs: [{ agentkit: 7, floor: 5, floorDuties: 6.5 }] };
    expect(cpuTarget(results)).toMatchObject({ value: 1.4, ok: false });
  });
});

describe("the row beside the floor with AgentKit's per-turn duties", () => {
  it("gives one run's ratio, with no target", () => {
    const [row] = dutiesRows("1", load(7), load(5.6), undefined);
    expect(row?.slice(2)).toEqual(["7", "5.6", "1.25", ""]);
  });

  it("gives the pairs' median ratio when every pair ran it, and nothing when the section did not run", () => {
    const pairs = [
      { agentkit: 7, floor: 5, floorDuties: 5 },
      { agentkit: 6, floor: 5, floorDuties: 5 },
      { agentkit: 8, floor: 5, floorDuties: 5 },
    ];
    const [row] = dutiesRows("1", load(7), load(5), pairs);
    expect(row?.[1]).toContain("3 load runs");
    expect(row?.slice(2)).toEqual(["7", "5", "1.4 (1.2 – 1.6)", ""]);
    expect(dutiesRows("1", load(7), undefined, pairs)).toEqual([]);
  });

  it("says how many of the floor's turns failed: its CPU is divided by the turns that completed", () => {
    const [row] = dutiesRows("1", load(7), load(5, ["p1 t2: timed out", "p3 t1: timed out"]), undefined);
    expect(row?.[1]).toContain("2 of its turns failed");
  });
});
