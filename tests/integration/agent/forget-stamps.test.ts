import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ForgetStamps } from "../../../src/sessions/forget-stamps.js";
import { SessionStore } from "../../../src/sessions/session-store.js";
import { epochKey } from "../../../src/sessions/session-store-base.js";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

/** Counts the person's epoch asked of the store from now on. */
function countEpochReads(store: SessionStore): { count: number } {
  const reads = { count: 0 };
  const epochOf = store.epochOf.bind(store);
  store.epochOf = async (userId: string) => {
    reads.count++;
    return epochOf(userId);
  };
  return reads;
}

describe("the forget stamp: a person's forget epoch without a trip to the store", () => {
  it("is written when a forget ends, under a hash of the id, and matches the store", async () => {
    const { engine, store, home } = await setupEngine();
    const session = await engine.open(aliceInThread);
    await engine.forget("111", "clara");
    const [name, ...others] = (await readdir(join(home, "forgets"))).filter((file) => !file.startsWith("complete-"));
    expect(others).toEqual([]);
    expect(name).toBe(epochKey("111"));
    expect(name).not.toContain("111");
    const stamped = Number(await readFile(join(home, "forgets", name!), "utf8"));
    expect(stamped).toBe(await store.epochOf("111"));
    expect(stamped % 2).toBe(0);
    // The session open during the forget was stamped with the new epoch, so it can still be saved.
    expect((await engine.get(session.id))?.epoch).toBe(stamped);
  });

  it("sends a turn to the store when the stamp says a forget is running, and finishes one a dead process left", async () => {
    const { engine, store, home, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    // A process died in the middle of a forget: its stamp says so, the store's epoch is odd.
    await writeFile(join(home, "forgets", epochKey("111")), "forgetting\n");
    const odd = (await store.beginForget("111")) - 1;
    expect(odd % 2).toBe(1);
    fake.enqueue({ text: "hello" });
    await engine.turn(session.id, "hi");
    const settled = await store.epochOf("111");
    expect(settled % 2).toBe(0);
    expect(settled).toBeGreaterThan(odd);
    expect(await readFile(join(home, "forgets", epochKey("111")), "utf8")).toBe(`${settled}\n`);
  });

  it("reads no epoch from the store while the stamp is settled", async () => {
    const { engine, store, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    const epochReads = countEpochReads(store);
    fake.setFallback({ text: "ok" });
    for (let i = 0; i < 5; i++) await engine.turn(session.id, `turn ${i}`);
    expect(epochReads.count).toBe(0);
  });

  it("makes no file and asks the store nothing for a person who never forgot: a missing stamp means 0 once the stamps are complete", async () => {
    const { engine, store, home, fake } = await setupEngine();
    fake.setFallback({ text: "ok" });
    // The first person of the process asks the store, and the stamps are made complete meanwhile.
    await engine.open({ ...aliceInThread, userId: "100", place: { ...aliceInThread.place, channelId: "t-100" } });
    await engine.settle();
    const epochReads = countEpochReads(store);
    for (const userId of ["111", "222", "333"]) {
      const session = await engine.open({ ...aliceInThread, userId, place: { ...aliceInThread.place, channelId: `t-${userId}` } });
      expect(session.epoch ?? 0).toBe(0);
      await engine.turn(session.id, "hi");
    }
    expect(epochReads.count).toBe(0);
    // One mark for the home and this store (a name `rm forgets/*` takes too), and the first person's stamp: none for the others.
    const files = (await readdir(join(home, "forgets"))).sort();
    expect(files).toEqual([epochKey("100"), expect.stringMatching(/^complete-[0-9a-f]{16}$/)].sort());
  });

  it("gives a stamp to every person an older AgentKit's forget left in the store without one, before a missing stamp means 0", async () => {
    const { home, store, reopen } = await setupEngine({});
    // Forgets made before the stamps were complete: one settled at 2, one a dead process left running (odd).
    const settled = await store.beginForget("111");
    await store.endForget("111", settled);
    const running = (await store.beginForget("222")) - 1;
    expect([settled, running]).toEqual([2, 1]);
    const engine = await reopen();
    // Someone else's first turn starts the completion; it gives both a stamp before the mark.
    await engine.open({ ...aliceInThread, userId: "100", place: { ...aliceInThread.place, channelId: "t-100" } });
    await engine.settle();
    expect(await readFile(join(home, "forgets", epochKey("111")), "utf8")).toBe("2\n");
    expect(await readFile(join(home, "forgets", epochKey("222")), "utf8")).toBe("forgetting\n");
    const alice = await engine.open(aliceInThread);
    // Not 0: the store's settled epoch, through the stamp made from the store's list.
    expect(alice.epoch).toBe(2);
    // The forget left running is finished before the person's session opens.
    const bob = await engine.open({ ...aliceInThread, userId: "222", place: { ...aliceInThread.place, channelId: "t-222" } });
    const finished = await store.epochOf("222");
    expect(finished % 2).toBe(0);
    expect(finished).toBeGreaterThan(running);
    expect(bob.epoch).toBe(finished);
    expect(await readFile(join(home, "forgets", epochKey("222")), "utf8")).toBe(`${finished}\n`);
  });

  it("keeps every turn going while the store is slow to list the epochs: the completion is never waited for", async () => {
    const { engine, store, home, fake } = await setupEngine();
    let answer: (epochs: { key: string; epoch: number }[]) => void = () => {};
    store.forgetEpochs = () => new Promise((resolve) => (answer = resolve));
    fake.setFallback({ text: "ok" });
    const session = await engine.open(aliceInThread);
    await engine.turn(session.id, "hi");
    expect((await engine.get(session.id))?.messages.length).toBeGreaterThan(0);
    expect((await readdir(join(home, "forgets"))).filter((file) => file.startsWith("complete-"))).toEqual([]);
    answer([]);
    await engine.settle();
    expect((await readdir(join(home, "forgets"))).filter((file) => file.startsWith("complete-"))).toHaveLength(1);
  });

  it("is complete only for the store it was made from, and never for one in memory", async () => {
    const { home } = await setupEngine();
    const sqlite = await SessionStore.open(home);
    const stamps = new ForgetStamps(home, sqlite.identity);
    expect(stamps.isComplete()).toBe(false);
    await stamps.complete([]);
    expect(stamps.isComplete()).toBe(true);
    expect(stamps.read("999")).toBe(0);
    expect(new ForgetStamps(home, "sqlite:/elsewhere/sessions.sqlite").read("999")).toBeUndefined();
    const memory = await SessionStore.open(home, "memory://");
    expect(memory.identity).toBeUndefined();
    // SQLite's temporary file, gone with its connection, is no store to be complete for either.
    const temporary = await SessionStore.open(home, "sqlite://");
    expect(temporary.identity).toBeUndefined();
    await temporary.close();
    const inMemory = new ForgetStamps(home, memory.identity);
    await inMemory.complete([]);
    expect(inMemory.read("999")).toBeUndefined();
    await Promise.all([sqlite.close(), memory.close()]);
  });

  it("makes no file from a key the store should not hold, and still completes", async () => {
    const { home } = await setupEngine();
    const stamps = new ForgetStamps(home, "sqlite:/x");
    await stamps.complete([
      { key: "../../escape", epoch: 2 },
      { key: epochKey("111"), epoch: Number.NaN },
    ]);
    expect(stamps.isComplete()).toBe(true);
    expect((await readdir(join(home, "forgets"))).sort()).toEqual([epochKey("111"), expect.stringMatching(/^complete-/)].sort());
    // An epoch that is not one: that person's turns ask the store.
    expect(await readFile(join(home, "forgets", epochKey("111")), "utf8")).toBe("forgetting\n");
    expect(stamps.read("111")).toBeUndefined();
    await expect(stat(join(home, "..", "escape"))).rejects.toThrow(/ENOENT/);
  });

  it("asks the store for each person when the stamps cannot be made complete (a file where their folder goes)", async () => {
    const { engine, home, store, fake } = await setupEngine();
    await writeFile(join(home, "forgets"), "");
    const epochReads = countEpochReads(store);
    fake.setFallback({ text: "ok" });
    const session = await engine.open(aliceInThread);
    await engine.turn(session.id, "hi");
    await engine.turn(session.id, "again");
    // Every epoch from the store (two turns and the opening), none from a stamp.
    expect(epochReads.count).toBeGreaterThanOrEqual(3);
  });
});
