import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { pick } from "./fault-config.js";

const ADDS = pick(200, 100);

async function worker(home: string, prefix: string): Promise<{ acked: string[]; refused: string[]; stderr: string }> {
  const run = runTsx("tests/faults/workers/add-worker.ts", [home, "42", prefix, String(ADDS)], { AGENTKIT_HOME: home });
  const code = await run.exited;
  if (code !== 0) throw new Error(`worker ${prefix} exited ${code}: ${run.stderr()}`);
  return { ...(JSON.parse(run.stdout()) as { acked: string[]; refused: string[] }), stderr: run.stderr() };
}

describe("two processes writing one person's memory", () => {
  it(`loses none of ${ADDS} concurrent adds from each of two processes`, async () => {
    const home = await makeTempHome();
    const [a, b] = await Promise.all([worker(home, "a"), worker(home, "b")]);
    const text = await readFile(join(home, "users", "42", "MEMORY.md"), "utf8");
    const lines = new Set(text.split("\n"));
    const missing = [...a.acked, ...b.acked].filter((entry) => !lines.has(entry));
    if (missing.length > 0) {
      // What the next person needs to find why: the journal's entries that hold a missing line, and the file.
      const journal = await readFile(join(home, "users", "42", "journal.jsonl"), "utf8").catch(() => "");
      const related = journal
        .split("\n")
        .filter((line) => missing.some((entry) => line.includes(`${entry}\\n`) || line.includes(`- ${entry}`) || line.includes(entry)));
      expect.fail(
        `acknowledged ${missing.map((m) => `"${m}"`).join(", ")} missing from MEMORY.md:\n${text}\njournal lines naming them:\n${related.slice(0, 20).join("\n")}\nworker stderr: ${a.stderr}${b.stderr}`,
      );
    }
    // Whatever was not saved was refused for the cap, with a message: never dropped silently.
    for (const error of [...a.refused, ...b.refused]) expect(error).toMatch(/MEMORY\.md is full/);
    expect(a.acked.length + a.refused.length).toBe(ADDS);
    expect(b.acked.length + b.refused.length).toBe(ADDS);
    expect(a.acked.length).toBeGreaterThan(0);
    expect(b.acked.length).toBeGreaterThan(0);
    const saved = text.split("\n").filter((l) => /^[ab]\d+$/.test(l));
    expect(saved.length).toBe(a.acked.length + b.acked.length);
  }, 120_000);
});
