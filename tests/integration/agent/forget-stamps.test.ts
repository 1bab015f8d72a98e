import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { epochKey } from "../../../src/sessions/session-store-base.js";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

describe("the forget stamp: a person's forget epoch without a trip to the store", () => {
  it("is written when a forget ends, under a hash of the id, and matches the store", async () => {
    const { engine, store, home } = await setupEngine();
    const session = await engine.open(aliceInThread);
    await engine.forget("111", "clara");
    const [name] = await readdir(join(home, "forgets"));
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
    let reads = 0;
    const epochOf = store.epochOf.bind(store);
    store.epochOf = async (userId: string) => {
      reads++;
      return epochOf(userId);
    };
    fake.setFallback({ text: "ok" });
    for (let i = 0; i < 5; i++) await engine.turn(session.id, `turn ${i}`);
    expect(reads).toBe(0);
  });
});
