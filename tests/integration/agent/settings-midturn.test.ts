import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTurn } from "../../../src/engine/agent-loop.js";
import { modelWriter } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import type { ModelClient } from "../../../src/model/model-client.js";
import { makeTempHome } from "../../helpers/temp-home.js";

// A turn reads settings.json once, at its first look, but "ask before saving" switched on while its
// answer streams (/memory settings, the terminal's /settings) applies to the very next write of that turn.
describe("ask before saving, switched on during a turn", () => {
  it("turns the turn's next write into a proposal", async () => {
    const home = await makeTempHome();
    const person = MemoryStore.forUser(home, "123", { defaultTimeZone: "UTC" });
    await person.saveSettings({ askBeforeSaving: "off" });
    const turnStore = person.forTurn();
    let round = 0;
    const model = {
      async stream() {
        round++;
        if (round > 1) return { content: "ok", toolCalls: [], usage: undefined };
        // While the model streams, the person asks to approve every change.
        await person.saveSettings({ askBeforeSaving: "all" });
        return {
          content: "",
          toolCalls: [{ id: "c1", name: "memory_add", arguments: JSON.stringify({ file: "user", section: "Likes", content: "- oolong" }) }],
          usage: undefined,
        };
      },
    } as unknown as ModelClient;
    const out = await runTurn({ model, memory: turnStore, context: [], message: { text: "hi" }, now: new Date(), writer: modelWriter("s1", "t") });
    expect(out.changes).toEqual([]);
    expect(out.proposals).toHaveLength(1);
    expect(existsSync(join(home, "users", "123", "USER.md"))).toBe(false);
  });

  it("after the turn's first write read the settings: its next write, once the person switched it on, waits", async () => {
    const home = await makeTempHome();
    const person = MemoryStore.forUser(home, "123", { defaultTimeZone: "UTC" });
    await person.saveSettings({ askBeforeSaving: "off" });
    let round = 0;
    const add = (id: string, content: string) => ({ id, name: "memory_add", arguments: JSON.stringify({ file: "user", section: "Likes", content }) });
    const model = {
      async stream() {
        round++;
        // The first round's write reads the settings (off: written); the person switches it on while the second streams.
        if (round === 1) return { content: "", toolCalls: [add("c1", "- oolong")], usage: undefined };
        if (round === 2) {
          await person.saveSettings({ askBeforeSaving: "all" });
          return { content: "", toolCalls: [add("c2", "- jasmine")], usage: undefined };
        }
        return { content: "ok", toolCalls: [], usage: undefined };
      },
    } as unknown as ModelClient;
    const out = await runTurn({ model, memory: person.forTurn(), context: [], message: { text: "hi" }, now: new Date(), writer: modelWriter("s1", "t") });
    expect(out.changes).toHaveLength(1);
    expect(out.proposals).toHaveLength(1);
    const written = readFileSync(join(home, "users", "123", "USER.md"), "utf8");
    expect(written).toContain("oolong");
    expect(written).not.toContain("jasmine");
  });

  it("is not read by a turn that writes nothing: a settings.json that cannot be read fails only a turn that looks", async () => {
    const home = await makeTempHome();
    // A folder where the file goes: reading it throws (it is never taken for empty settings).
    mkdirSync(join(home, "users", "123", "settings.json"), { recursive: true });
    const turnStore = MemoryStore.forUser(home, "123", { defaultTimeZone: "UTC" }).forTurn();
    const model = { stream: async () => ({ content: "hello", toolCalls: [], usage: undefined }) } as unknown as ModelClient;
    const out = await runTurn({ model, memory: turnStore, context: [], message: { text: "hi" }, now: new Date(), writer: modelWriter("s1", "t") });
    expect(out.messages.at(-1)).toMatchObject({ role: "assistant", content: "hello" });
    expect(() => turnStore.readSettings()).toThrow();
  });
});
