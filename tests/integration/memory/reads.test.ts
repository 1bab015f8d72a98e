import { afterEach, describe, expect, it, vi } from "vitest";
import { modelWriter, PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { withPersonLock } from "../../../src/memory/person-lock.js";
import { Recall } from "../../../src/memory/recall/recall.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const recalls: Recall[] = [];
afterEach(async () => {
  for (const recall of recalls.splice(0)) await recall.close();
});

async function personWithHistory() {
  const recall = new Recall({ debounceMs: 10 });
  recalls.push(recall);
  const memory = MemoryStore.forUser(await makeTempHome(), "42", { recall });
  await memory.user.add("Likes", "- oolong tea", PERSON);
  await memory.user.add("Likes", "- long walks", PERSON);
  return { memory, recall };
}

describe("reading a person's history", () => {
  it("does not wait for the write lock: it answers while a write holds it", async () => {
    const { memory } = await personWithHistory();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const writer = withPersonLock(memory.dir, async () => {
      holding();
      await held;
    });
    await holds;
    const read = await Promise.race([memory.history(), new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 2_000))]);
    release();
    await writer;
    expect(read).not.toBe("waited");
    expect((read as Awaited<ReturnType<MemoryStore["history"]>>).map((e) => e.op)).toHaveLength(2);
  });

  it("schedules no reindex: only writes wake the recall index", async () => {
    const { memory, recall } = await personWithHistory();
    const touch = vi.spyOn(recall, "touch");
    expect(await memory.history()).toHaveLength(2);
    expect(touch).not.toHaveBeenCalled();
    await memory.user.add("Likes", "- rain", PERSON);
    expect(touch).toHaveBeenCalledTimes(1);
  });

  it("a dry run of a write (a proposal's checks) neither waits for the lock nor wakes the index, and writes nothing", async () => {
    const { memory, recall } = await personWithHistory();
    const touch = vi.spyOn(recall, "touch");
    let release!: () => void;
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const writer = withPersonLock(memory.dir, async () => {
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await holds;
    const checked = await Promise.race([
      memory.user.add("Likes", "- jasmine", modelWriter("s1"), { dryRun: true }),
      new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 2_000)),
    ]);
    release();
    await writer;
    expect(checked).toMatchObject({ ok: true, value: { changed: true } });
    expect(touch).not.toHaveBeenCalled();
    expect(await memory.user.read()).not.toContain("jasmine");
  });
});
