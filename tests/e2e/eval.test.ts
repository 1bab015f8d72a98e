import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

async function evalRun(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runTsx("eval/run.ts", args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** A failure as the eval promises it: a non-zero exit, no report on stdout, one line on stderr and no stack trace. */
function expectOneLineFailure(run: { code: number | null; stdout: string; stderr: string }, code: number, line: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(/^[^\n]+\n$/);
  expect(run.stderr.slice(0, -1)).toMatch(line);
}

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

  it("an unreachable model server is one line on stderr naming the step, the address and OPENAI_BASE_URL, with exit 1 and no results file", async () => {
    const dir = await makeTempHome();
    const out = join(dir, "eval.json");
    const run = await evalRun(["--only", "en", "--out", out], { AGENTKIT_HOME: dir, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expectOneLineFailure(
      run,
      1,
      /^npm run eval stopped in the en life, at the conversation of 2026-11-02T10:00: Could not reach the model server at http:\/\/127\.0\.0\.1:9\/v1 \(OPENAI_BASE_URL\)\. Is it running\?$/,
    );
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("a wrong command line exits 2 and a configuration problem exits 1, each with one line", async () => {
    const dir = await makeTempHome();
    const env = { AGENTKIT_HOME: dir };
    expectOneLineFailure(await evalRun(["--test-model", "--bogus"], env), 2, /^unknown option --bogus \(npm run eval -- --help\)$/);
    expectOneLineFailure(
      await evalRun(["--test-model", "--only", "fr", "--out", join(dir, "x.json")], env),
      2,
      /^--only: there is no life "fr"; choose en or zh$/,
    );
    expectOneLineFailure(
      await evalRun(["--only", "en", "--out", join(dir, "x.json")], { ...env, AGENTKIT_TIMEZONE: "Mars/Olympus" }),
      1,
      /^Configuration problems \(see \.env\.example\): AGENTKIT_TIMEZONE: .+$/,
    );
    expect(existsSync(join(dir, "x.json"))).toBe(false);
  }, 60_000);
});
