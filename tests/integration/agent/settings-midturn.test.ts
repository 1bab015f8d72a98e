import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTurn } from "../../../src/engine/agent-loop.js";
import { modelWriter } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import type { ModelClient } from "../../../src/model/model-client.js";
import { makeTempHome } from "../../helpers/temp-home.js";

// A turn reads settings.json once, but "ask before saving" switched on while its answer streams
// (/memory settings, the terminal's /settings) applies to the very next write of that turn.
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
});
