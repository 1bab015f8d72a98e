import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderConversation } from "../../src/memory/conversation-log.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function worker(home: string, owner: string, at: string): Promise<string[]> {
  const run = runTsx("tests/faults/workers/tidy-worker.ts", [home, fake!.baseURL, owner, at], { AGENTKIT_HOME: home });
  const code = await run.exited;
  if (code !== 0) throw new Error(`worker ${owner} exited ${code}: ${run.stderr()}`);
  return JSON.parse(run.stdout()) as string[];
}

describe("the tidy-up in two processes", () => {
  it("runs each person once a day across two processes at once and a restart, and again the next day", async () => {
    const home = await makeTempHome();
    fake = await startFakeOpenAI();
    // Each run is slow enough that both processes look at everyone while the first runs go.
    fake.setFallback({ text: JSON.stringify({ operations: [] }), firstTokenDelayMs: 100 });
    const ids = Array.from({ length: 8 }, (_, i) => String(500 + i));
    for (const id of ids) {
      const dir = join(home, "users", id, "conversations");
      await mkdir(dir, { recursive: true });
      const log = { title: "t", place: "p", opened: "", closed: "", sessionId: id, messages: [{ speaker: "person" as const, name: "P", text: "hello" }] };
      await writeFile(join(dir, "2026-12-02-t-aaaaaaaa.md"), renderConversation(log));
    }
    const night = "2026-12-03T05:00:00Z";
    const [a, b] = await Promise.all([worker(home, "a", night), worker(home, "b", night)]);
    expect([...a, ...b].sort()).toEqual(ids);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(await worker(home, "c", "2026-12-03T09:00:00Z")).toEqual([]);
    expect(fake.requests).toHaveLength(8);
    for (const id of ids) await writeFile(join(home, "users", id, "conversations", "2026-12-03-u-bbbbbbbb.md"), "# u\n\n## 🧑 P\nagain\n");
    expect((await worker(home, "c", "2026-12-04T05:00:00Z")).sort()).toEqual(ids);
    expect(fake.requests).toHaveLength(16);
  }, 120_000);
});
