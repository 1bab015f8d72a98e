// Writes memory through the tool executor forever, printing "ack <n> <file> <section>" once a write
// is acknowledged. Each write replaces a section's entry in one call, so files stay under their caps.
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { parseSections } from "../../../src/memory/sections.js";
import { executeTool, newTurnState } from "../../../src/engine/tools/execute-tool.js";
import { modelWriter } from "../../../src/memory/memory-file.js";

const MODEL = modelWriter("test-session");

const [home, userId, start] = process.argv.slice(2) as [string, string, string];
const store = MemoryStore.forUser(home, userId, { defaultTimeZone: "UTC" });
const files = ["user", "memory", "soul", "daily"] as const;
const call = async (name: string, args: object) =>
  JSON.parse(
    await executeTool(store, name, JSON.stringify(args), { now: new Date(), turn: newTurnState(), writer: MODEL, settings: store.readSettings() }),
  ) as {
    ok: boolean;
    error?: string;
  };

for (let n = Number(start); ; n++) {
  const file = files[n % files.length]!;
  const section = `S${n % 5}`;
  const content = `- entry ${n} ${"x".repeat(n % 40)}`;
  const text = await store.file(file).read();
  const current = parseSections(text)
    .sections.find((s) => s.name === section)
    ?.body.trim();
  const result = current
    ? await call("memory_replace", { file, section, old_text: current, new_text: content })
    : await call("memory_add", { file, section, content });
  if (!result.ok) {
    process.stderr.write(`refused ${n}: ${result.error}\n`);
    process.exit(3);
  }
  process.stdout.write(`ack ${n} ${file} ${section}\n`);
}
