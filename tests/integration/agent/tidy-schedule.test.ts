import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TidySchedule } from "../../../src/engine/tidy/tidy-schedule.js";
import type { TidyResult } from "../../../src/engine/tidy/tidy-up.js";
import { silentLogger } from "../../../src/lib/logger.js";
import { renderConversation } from "../../../src/memory/conversation-log.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { ModelClient } from "../../../src/model/model-client.js";
import { SessionStore } from "../../../src/sessions/session-store.js";
import { startFakeOpenAI } from "../../fakes/fake-openai.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** 04:30 in Berlin on 2026-12-03 (after TIDY_AT 04:00); 03:30 is before it. */
const afterFour = new Date("2026-12-03T03:30:00Z");
const beforeFour = new Date("2026-12-03T02:30:00Z");

async function setup(people: number, options: { delayMs?: number } = {}) {
  const home = await makeTempHome();
  const fake = await startFakeOpenAI();
  cleanups.push(() => fake.close());
  fake.setFallback({ text: JSON.stringify({ operations: [] }), firstTokenDelayMs: options.delayMs ?? 0 });
  const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "t", model: "fake-model", maxRetries: 0, timeoutMs: 5_000 });
  const memoryOf = (id: string) => MemoryStore.forUser(home, id, { defaultTimeZone: "Europe/Berlin" });
  const ids = Array.from({ length: people }, (_, i) => String(1000 + i));
  for (const id of ids) await talked(memoryOf(id), "2026-12-02");
  return { home, fake, model, memoryOf, ids };
}

async function talked(memory: MemoryStore, date: string): Promise<void> {
  await mkdir(memory.conversationsDir, { recursive: true });
  const log = { title: "t", place: "p", opened: "", closed: "", sessionId: date, messages: [{ speaker: "person" as const, name: "P", text: "hello there" }] };
  const file = join(memory.conversationsDir, `${date}-t-${Math.random().toString(16).slice(2, 10)}.md`);
  await writeFile(file, renderConversation(log));
  // Written on its own day, as in life: the tidy-up also reads a conversation by when it last changed.
  const day = new Date(`${date}T00:30:00Z`);
  await utimes(file, day, day);
}

async function schedule(s: Awaited<ReturnType<typeof setup>>, options: { owner?: string; clock?: () => Date; concurrency?: number; runs?: string[] } = {}) {
  const store = await SessionStore.open(s.home);
  const tidy = new TidySchedule({
    home: s.home,
    memoryOf: s.memoryOf,
    model: s.model,
    store,
    owner: options.owner ?? "one",
    at: "04:00",
    concurrency: options.concurrency ?? 2,
    log: silentLogger,
    clock: options.clock ?? (() => afterFour),
    onRun: (id: string, _result: TidyResult) => options.runs?.push(id),
  });
  cleanups.push(async () => {
    await tidy.close();
    await store.close();
  });
  return tidy;
}

describe("the tidy-up schedule", () => {
  it("takes a close that leaves a file above 90% of its cap at once, whatever the hour, and leaves the others for the night", async () => {
    const s = await setup(2);
    const [full, roomy] = s.ids as [string, string];
    await writeFile(join(s.memoryOf(full).dir, "USER.md"), `## Notes\n${"- a fact worth keeping\n".repeat(60)}`);
    await writeFile(join(s.memoryOf(roomy).dir, "USER.md"), "## Notes\n- one fact\n");
    const runs: string[] = [];
    const tidy = await schedule(s, { runs, clock: () => beforeFour });
    tidy.afterClose(full);
    tidy.afterClose(roomy);
    await tidy.idle();
    expect(runs).toEqual([full]);
  });

  it("runs at most TIDY_CONCURRENCY at once, and everyone who is due once", async () => {
    const s = await setup(7, { delayMs: 80 });
    const runs: string[] = [];
    const tidy = await schedule(s, { runs });
    let most = 0;
    const probe = setInterval(() => (most = Math.max(most, tidy.active)), 2);
    await tidy.scan();
    await tidy.idle();
    clearInterval(probe);
    expect(most).toBe(2);
    expect(runs.sort()).toEqual(s.ids);
    expect(s.fake.requests).toHaveLength(7);
  });

  it("runs a person once a day across two processes' schedules and a restart", async () => {
    const s = await setup(4);
    const runs: string[] = [];
    const [a, b] = [await schedule(s, { owner: "a", runs }), await schedule(s, { owner: "b", runs })];
    await Promise.all([a.scan(), b.scan()]);
    await Promise.all([a.idle(), b.idle()]);
    const restarted = await schedule(s, { owner: "c", runs });
    await restarted.scan();
    await restarted.idle();
    expect(runs.sort()).toEqual(s.ids);
    expect(s.fake.requests).toHaveLength(4);
    // The next day, after new conversations, they run again.
    for (const id of s.ids) await talked(s.memoryOf(id), "2026-12-04");
    const tomorrow = await schedule(s, { owner: "c", runs, clock: () => new Date("2026-12-04T03:30:00Z") });
    await tomorrow.scan();
    await tomorrow.idle();
    expect(s.fake.requests).toHaveLength(8);
  });

  it("waits for TIDY_AT in the person's zone, skips who turned it off or said nothing since, and takes a nearly-full close at once", async () => {
    const s = await setup(3);
    const [early, off, quiet] = s.ids as [string, string, string];
    await s.memoryOf(off).saveSettings({ tidyUp: "off" });
    const runs: string[] = [];
    const before = await schedule(s, { runs, clock: () => beforeFour });
    await before.scan();
    await before.idle();
    expect(runs).toEqual([]);
    // After a close, the hour does not matter.
    before.soon(early);
    await before.idle();
    expect(runs).toEqual([early]);
    const after = await schedule(s, { owner: "two", runs });
    await after.scan();
    await after.idle();
    expect(runs.sort()).toEqual([early, quiet].sort());
    expect(runs).not.toContain(off);
    // quiet ran today; tomorrow it has nothing new and is not asked about.
    const tomorrow = await schedule(s, { owner: "three", runs, clock: () => new Date("2026-12-04T03:30:00Z") });
    const requests = s.fake.requests.length;
    await tomorrow.scan();
    await tomorrow.idle();
    expect(s.fake.requests.length).toBe(requests);
  });
});
