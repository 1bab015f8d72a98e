import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PERSON_LOCK_REFRESH_MS, PERSON_LOCK_STALE_MS } from "../../src/memory/person-lock.js";
import { runTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { makeTempHome } from "../helpers/temp-home.js";

const WORKER = "tests/faults/workers/lock-holder.ts";
const ACKS = 20;

describe("a person's lock held by another process", () => {
  it("is kept by a live holder past the stale time, and passes to the waiting writer once its killed holder's lock is stale", async () => {
    const home = await makeTempHome();
    const holder = runTsx(WORKER, ["hold", home, "42", String(ACKS)], { AGENTKIT_HOME: home });
    await eventually(async () => holder.stdout().includes("holding\n"), 20_000, "the holder to take the lock");
    const writer = runTsx(WORKER, ["write", home, "42", "b0"], { AGENTKIT_HOME: home });

    // Alive, the holder keeps refreshing its lock: the writer waits however long it holds it.
    await new Promise((r) => setTimeout(r, PERSON_LOCK_STALE_MS + 1_000));
    expect(writer.stdout()).toBe("");
    const lock = join(home, "users", "42.lock");
    const refreshedAt = (await stat(lock)).mtimeMs;
    expect(Date.now() - refreshedAt).toBeLessThan(PERSON_LOCK_REFRESH_MS + 500);

    holder.child.kill("SIGKILL");
    await holder.exited;
    const killedAt = Date.now();
    expect(await writer.exited, writer.stderr()).toBe(0);
    const doneAt = Number(/^done (\d+)$/m.exec(writer.stdout())?.[1]);
    // Not before the lock was stale: the kill left it behind, nothing released it...
    expect(doneAt).toBeGreaterThanOrEqual(refreshedAt + PERSON_LOCK_STALE_MS);
    expect(doneAt - killedAt).toBeGreaterThanOrEqual(PERSON_LOCK_STALE_MS - PERSON_LOCK_REFRESH_MS - 100);
    // ...but soon after.
    expect(doneAt - killedAt).toBeLessThan(PERSON_LOCK_STALE_MS + 2_000);
    await expect(stat(lock)).rejects.toThrow(/ENOENT/);

    const acked = holder
      .stdout()
      .split("\n")
      .flatMap((line) => (line.startsWith("ack ") ? [line.slice(4)] : []));
    expect(acked).toHaveLength(ACKS);
    const lines = new Set((await readFile(join(home, "users", "42", "MEMORY.md"), "utf8")).split("\n"));
    for (const entry of [...acked, "b0"]) expect(lines.has(entry), `acknowledged "${entry}" is missing`).toBe(true);
  }, 30_000);
});
