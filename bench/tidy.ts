/**
 * The nightly tidy-up's cost: the size of one person's request, the wall time of a night's runs
 * for many people at TIDY_CONCURRENCY, and what the runs do to other people's turns (turns timed
 * with and without a thousand runs going, side by side in the same process).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SessionEngine } from "../src/engine/session-engine.js";
import { TidySchedule } from "../src/engine/tidy/tidy-schedule.js";
import { tidyUp } from "../src/engine/tidy/tidy-up.js";
import { silentLogger } from "../src/lib/logger.js";
import { renderConversation, type ConversationMessage } from "../src/memory/conversation-log.js";
import { MemoryStore } from "../src/memory/memory-store.js";
import { ModelClient } from "../src/model/model-client.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { startFakeOpenAI } from "../tests/fakes/fake-openai.js";
import { words } from "./model-server.js";
import { makeTempDir, removeTempDir } from "./processes.js";
import { summarize, type Summary } from "./stats.js";

export interface TidyBenchOptions {
  /** People in the night's run. */
  people: number;
  /** The bench model's time per tidy-up request (ms). */
  modelMs: number;
  concurrency: number;
  /** Tidy-ups queued (TIDY_CONCURRENCY at a time) while turns are timed. */
  busyRuns: number;
  /** The model's time per tidy-up request while turns are timed (a real model takes seconds over a 7,500-token prompt). */
  busyModelMs: number;
  turns: number;
}

export interface TidyBenchResult {
  options: TidyBenchOptions;
  /** One person with a week of talk and both files near their caps. */
  request: { chars: number; estimatedTokens: number; sourceFiles: number };
  night: { people: number; wallMs: number; ownMsPerRun: number; projectedHoursAt5s: number };
  turns: { floorMs: Summary; busyMs: Summary; runsDuring: number };
}

const NIGHT = new Date("2026-12-03T04:30:00Z");

function conversation(day: string, n: number, seed: number): string {
  const messages: ConversationMessage[] = Array.from({ length: n }, (_, i) => ({
    speaker: i % 2 === 0 ? "person" : "assistant",
    name: i % 2 === 0 ? "Mei" : "Assistant",
    text: words(30, seed * 100 + i),
  }));
  return renderConversation({ title: `chat ${day}`, place: "a thread", opened: "", closed: "", sessionId: `${day}-${seed}`, messages });
}

async function person(home: string, id: string, { week }: { week: boolean }): Promise<void> {
  const dir = join(home, "users", id);
  await mkdir(join(dir, "conversations"), { recursive: true });
  await writeFile(join(dir, "settings.json"), JSON.stringify({ timezone: "UTC" }));
  if (!week) {
    await writeFile(join(dir, "conversations", "2026-12-02-chat-aaaaaaaa.md"), conversation("2026-12-02", 4, Number(id)));
    return;
  }
  const bullets = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `- ${words(5, seed + i)}`).join("\n");
  await writeFile(join(dir, "USER.md"), `## About\n${bullets(18, 1)}\n\n## Likes\n${bullets(18, 50)}\n`);
  await writeFile(join(dir, "MEMORY.md"), `## Follow-ups\n${bullets(25, 100)}\n\n## Notes\n${bullets(25, 200)}\n`);
  await mkdir(join(dir, "daily"), { recursive: true });
  for (let d = 26; d <= 30; d++) {
    const day = `2026-11-${d}`;
    for (const k of [0, 1]) await writeFile(join(dir, "conversations", `${day}-chat-${k}${d}aaaaaa.md`), conversation(day, 20, d * 10 + k));
    await writeFile(join(dir, "daily", `${day}.md`), `## 10:00 · chat ${day}\n${words(60, d)}\n\n## 18:00 · chat ${day}\n${words(60, d + 7)}\n`);
  }
}

export async function measureTidy(options: TidyBenchOptions): Promise<TidyBenchResult> {
  const home = await makeTempDir("agentkit-tidy-");
  // Two model servers: the tidy-ups' (slow, a plan) and the turns' (instant), so neither takes the other's answers.
  const fake = await startFakeOpenAI();
  fake.setFallback({ text: JSON.stringify({ operations: [] }), firstTokenDelayMs: options.modelMs });
  const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "bench", model: "fake-model", maxRetries: 0, timeoutMs: 60_000 });
  const chat = await startFakeOpenAI();
  chat.setFallback({ text: "ok" });
  const chatModel = new ModelClient({ baseURL: chat.baseURL, apiKey: "bench", model: "fake-model", maxRetries: 0, timeoutMs: 60_000 });
  try {
    // 1. One request's size.
    await person(home, "1", { week: true });
    const memoryOf = (id: string) => MemoryStore.forUser(home, id, { defaultTimeZone: "UTC" });
    const before = fake.requests.length;
    const sample = await tidyUp(memoryOf("1"), model, { now: NIGHT, dryRun: true });
    if (sample.kind !== "dry-run") throw new Error(`the sample tidy-up ended as ${sample.kind}`);
    const body = JSON.stringify(fake.requests[before]!.body.messages);
    const request = { chars: body.length, estimatedTokens: Math.round(body.length / 4), sourceFiles: 15 };

    // 2. A night for many people at TIDY_CONCURRENCY.
    for (let i = 0; i < options.people; i++) await person(home, String(10_000 + i), { week: false });
    const store = await SessionStore.open(home);
    const night = new TidySchedule({
      home,
      memoryOf,
      model,
      store,
      owner: "bench",
      at: "04:00",
      concurrency: options.concurrency,
      log: silentLogger,
      clock: () => NIGHT,
    });
    const started = performance.now();
    await night.scan();
    await night.idle();
    const wallMs = performance.now() - started;
    await night.close();
    const ran = options.people + 1;
    // The fake model keeps every request it got (10,000 prompts): let them go before turns are timed,
    // or the collector's pauses over that heap land on whichever block they happen to hit.
    fake.requests.splice(0);
    const ownMsPerRun = Math.max(0, (wallMs * options.concurrency) / ran - options.modelMs);
    const projectedHoursAt5s = ((10_000 / options.concurrency) * (5_000 + ownMsPerRun)) / 3_600_000;

    // 3. Turns of one person, alone and while a night's tidy-ups run, in alternating blocks (the
    // machine's own noise lands on both sides alike). Each busy block is a new night of the queue.
    const engine = new SessionEngine({ home, memory: { defaultTimeZone: "UTC" }, model: chatModel, store, log: silentLogger, historyBudgetChars: 60_000 });
    const timeTurns = async (count: number): Promise<number[]> => {
      const session = await engine.open({
        userId: "2",
        displayName: "Lin",
        locale: "en-US",
        title: "bench",
        place: { platform: "terminal", channelId: `b${Math.random()}`, description: "a terminal" },
      });
      const times: number[] = [];
      for (let t = 0; t < count; t++) {
        const at = performance.now();
        await engine.turn(session.id, `turn ${t}: ${words(12, t)}`);
        times.push(performance.now() - at);
      }
      await engine.close(session.id, "bench");
      return times;
    };
    await timeTurns(50); // warm-up: the first turns pay for compiling the code they run
    const busyHome = join(home, "busy");
    for (let i = 0; i < options.busyRuns; i++) await person(busyHome, String(50_000 + i), { week: false });
    const busyStore = await SessionStore.open(busyHome);
    const busyMemory = (id: string) => MemoryStore.forUser(busyHome, id, { defaultTimeZone: "UTC" });
    const busyFake = await startFakeOpenAI();
    busyFake.setFallback({ text: JSON.stringify({ operations: [] }), firstTokenDelayMs: options.busyModelMs });
    const busyModel = new ModelClient({ baseURL: busyFake.baseURL, apiKey: "bench", model: "fake-model", maxRetries: 0, timeoutMs: 60_000 });
    const floor: number[] = [];
    const during: number[] = [];
    const blocks = 5;
    const perBlock = Math.max(1, Math.round(options.turns / blocks));
    for (let block = 0; block < blocks; block++) {
      floor.push(...(await timeTurns(perBlock)));
      const night = new Date(NIGHT.getTime() + (block + 1) * 86_400_000);
      const busy = new TidySchedule({
        home: busyHome,
        memoryOf: busyMemory,
        model: busyModel,
        store: busyStore,
        owner: `bench-busy-${block}`,
        at: "04:00",
        concurrency: options.concurrency,
        log: silentLogger,
        clock: () => night,
      });
      const asked = busyFake.requests.length;
      const scanning = busy.scan();
      while (busyFake.requests.length === asked) await new Promise((resolve) => setTimeout(resolve, 5));
      during.push(...(await timeTurns(perBlock)));
      await scanning;
      await busy.close();
    }
    const runsDuring = busyFake.requests.length;
    await busyFake.close();
    await busyStore.close();
    await engine.settle();
    await store.close();
    return {
      options,
      request,
      night: { people: ran, wallMs, ownMsPerRun, projectedHoursAt5s },
      turns: { floorMs: summarize(floor), busyMs: summarize(during), runsDuring },
    };
  } finally {
    await fake.close();
    await chat.close();
    removeTempDir(home);
  }
}
