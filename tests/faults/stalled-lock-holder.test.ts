import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileChangedError, isTemporaryFile, writeFileAtomic } from "../../src/memory/atomic-write.js";
import { PERSON } from "../../src/memory/memory-file.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { LockLostError, PERSON_LOCK_LEASE_MS, PERSON_LOCK_STALE_MS, assertLockHeld, withPersonLock } from "../../src/memory/person-lock.js";
import { sectionText } from "../../src/memory/section-changes.js";
import { runTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { makeTempHome } from "../helpers/temp-home.js";

describe("a lock holder whose event loop stalls past the lock's stale time", () => {
  it("abandons its write when it resumes, reports it to the model as failed, and the other process's acknowledged write stays, with history explaining the file", async () => {
    const home = await makeTempHome();
    const memory = MemoryStore.forUser(home, "42", { defaultTimeZone: "UTC" });
    await memory.memory.add("Log", "- before both", PERSON);
    const stallMs = PERSON_LOCK_STALE_MS + 3_000;
    const stalled = runTsx("tests/faults/workers/stalling-writer.ts", [home, "42", "- written by the stalled process", String(stallMs)], {
      AGENTKIT_HOME: home,
    });
    await eventually(async () => stalled.stdout().includes("stalling\n"), 20_000, "the writer to stall mid-write");
    const stalledAt = Date.now();

    // This process waits for the stalled holder's lock to go stale, then writes: acknowledged.
    const ours = await memory.memory.add("Log", "- acknowledged while the other stalled", PERSON);
    expect(ours.ok).toBe(true);
    const ackedAt = Date.now();
    expect(ackedAt - stalledAt).toBeLessThan(stallMs);

    expect(await stalled.exited, stalled.stderr()).toBe(0);
    const result = JSON.parse(/^result (.*)$/m.exec(stalled.stdout())![1]!) as { ok: boolean; error?: string };
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/nothing was saved: this process lost the lock on the person's memory/);

    const text = await readFile(join(memory.dir, "MEMORY.md"), "utf8");
    expect(text).toBe("## Log\n- before both\n- acknowledged while the other stalled\n");
    // Nothing in history claims the abandoned write, and its newest change of the section is what the file holds.
    const history = await memory.history();
    expect(JSON.stringify(history)).not.toContain("written by the stalled process");
    expect(sectionText(text, { section: "Log" })).toBe(history.find((e) => e.changes.some((c) => c.section === "Log"))!.changes[0]!.after);
    // The stalled process left the lock to no one: the next write goes ahead at once.
    await expect(stat(join(home, "users", "42.lock"))).rejects.toThrow(/ENOENT/);
    const next = Date.now();
    expect((await memory.memory.add("Log", "- and after", PERSON)).ok).toBe(true);
    expect(Date.now() - next).toBeLessThan(1_000);
  }, 60_000);
});

describe("a write under a person's lock, checked just before its rename", () => {
  const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

  it("is abandoned when the holder stalled past its lease and resumed before any refresh, even if nobody took the lock; the lock is freed", async () => {
    const home = await makeTempHome();
    const folder = join(home, "users", "42");
    const path = join(folder, "MEMORY.md");
    await writeFileAtomic(path, "old\n");
    const failures = await withPersonLock(folder, async () => {
      stall(PERSON_LOCK_LEASE_MS + 300);
      // Before the lock's refresh timer could run: the lock may be anyone's by now.
      const check = assertLockHeld().then(
        () => undefined,
        (error: unknown) => error,
      );
      const write = await writeFileAtomic(path, "new\n").then(
        () => undefined,
        (error: unknown) => error,
      );
      return [await check, write];
    });
    expect(failures[0]).toBeInstanceOf(LockLostError);
    expect(failures[1]).toBeInstanceOf(LockLostError);
    expect(await readFile(path, "utf8")).toBe("old\n");
    expect((await readdir(folder)).filter(isTemporaryFile)).toEqual([]);
    await expect(stat(`${folder}.lock`)).rejects.toThrow(/ENOENT/);
    await withPersonLock(folder, () => writeFileAtomic(path, "newer\n"));
    expect(await readFile(path, "utf8")).toBe("newer\n");
  });

  it("is abandoned when the file no longer holds the text it was made from", async () => {
    const home = await makeTempHome();
    const path = join(home, "MEMORY.md");
    await writeFileAtomic(path, "read\n");
    await writeFileAtomic(path, "changed meanwhile\n");
    await expect(writeFileAtomic(path, "made from read\n", { expect: "read\n" })).rejects.toBeInstanceOf(FileChangedError);
    await expect(writeFileAtomic(path, "made from nothing\n", { expect: null })).rejects.toBeInstanceOf(FileChangedError);
    expect(await readFile(path, "utf8")).toBe("changed meanwhile\n");
    expect((await readdir(home)).filter(isTemporaryFile)).toEqual([]);
    await writeFileAtomic(path, "made from it\n", { expect: "changed meanwhile\n" });
    expect(await readFile(path, "utf8")).toBe("made from it\n");
  });
});
