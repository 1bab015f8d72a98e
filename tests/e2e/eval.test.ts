import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

describe("npm run eval", () => {
  it("lives a month in English and in Chinese through the real engine and tidy-up with the test model, and every check holds", async () => {
    const dir = await makeTempHome();
    const out = join(dir, "eval.json");
    const run = runTsx("eval/run.ts", ["--test-model", "--out", out], { AGENTKIT_HOME: dir });
    const code = await run.exited;
    expect(code, run.stderr()).toBe(0);
    expect(run.stdout()).toContain("Score: en 6/6, zh 6/6");
    // The nights ran: the second one held the assistant's suggestion for the person's Save, for want of their words.
    expect(run.stderr()).toMatch(/eval en: tidy-up 2026-11-23T04:30: done \(held \["not-their-words"\]\)/);
    const results = (JSON.parse(await readFile(out, "utf8")) as { results: { language: string; kind: string; pass: boolean }[] }).results;
    expect(results).toHaveLength(12);
    expect(new Set(results.map((r) => r.kind))).toEqual(new Set(["stale-replaced", "one-entry", "not-saved", "recalled", "under-cap", "dated"]));
    expect(results.every((r) => r.pass)).toBe(true);
  }, 120_000);
});
