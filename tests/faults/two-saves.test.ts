import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PERSON } from "../../src/memory/memory-file.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { runTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { makeTempHome } from "../helpers/temp-home.js";

describe("one proposal saved from two processes at once", () => {
  it("is written once under the person's lock: one Save saves it, the other finds it gone (not a second write refused)", async () => {
    const home = await makeTempHome();
    const memory = MemoryStore.forUser(home, "42", { defaultTimeZone: "UTC" });
    await memory.user.add("Likes", "- green tea", PERSON);
    const proposal = await memory.propose({
      session: "s1",
      title: "chat",
      tool: "memory_replace",
      file: "user",
      section: "Likes",
      oldText: "- green tea",
      newText: "- oolong",
    });
    const workers = [0, 1].map(() => runTsx("tests/faults/workers/settle-worker.ts", [home, "42", proposal.id], { AGENTKIT_HOME: home }));
    await eventually(async () => workers.every((w) => w.stdout().includes("ready")), 30_000, "both workers to start");
    for (const worker of workers) worker.child.stdin.write("go\n");
    await Promise.all(workers.map((w) => w.exited));
    const outcomes = workers.map((w) => w.stdout().trim().split("\n").at(-1)).sort();
    expect(outcomes).toEqual(["gone", "saved"]);
    expect(await readFile(join(home, "users", "42", "USER.md"), "utf8")).toBe("## Likes\n- oolong\n");
    expect((await memory.history()).filter((e) => e.changes.some((c) => c.after?.includes("oolong")))).toHaveLength(1);
  }, 60_000);
});
