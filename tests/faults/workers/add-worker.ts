// Makes `count` concurrent memory_add calls for one person and prints what was acknowledged.
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { executeTool, newTurnState } from "../../../src/engine/tools/execute-tool.js";
import { modelWriter } from "../../../src/memory/memory-file.js";

const MODEL = modelWriter("test-session");

const [home, userId, prefix, count] = process.argv.slice(2) as [string, string, string, string];
const store = MemoryStore.forUser(home, userId, { defaultTimeZone: "UTC" });
const results = await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    const content = `${prefix}${i}`;
    const raw = await executeTool(store, "memory_add", JSON.stringify({ file: "memory", section: "Log", content }), {
      now: new Date(),
      turn: newTurnState(),
      writer: MODEL,
      settings: store.readSettings(),
    });
    return { content, result: JSON.parse(raw) as { ok: boolean; error?: string } };
  }),
);
process.stdout.write(
  JSON.stringify({
    acked: results.filter((r) => r.result.ok).map((r) => r.content),
    refused: results.filter((r) => !r.result.ok).map((r) => r.result.error),
  }),
);
