// Two roles around one person's write lock, for the stale-lock fault test.
//   hold <home> <userId> <count>: makes `count` memory adds, printing "ack <content>" after each,
//     then takes the person's lock through MemoryStore.serialize, prints "holding" and never lets go.
//   write <home> <userId> <content>: makes one memory add and prints "done <epoch ms>".
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { modelWriter } from "../../../src/memory/memory-file.js";
import { executeTool, newTurnState } from "../../../src/engine/tools/execute-tool.js";

const MODEL = modelWriter("test-session");
const [role, home, userId, arg] = process.argv.slice(2) as [string, string, string, string];
const store = MemoryStore.forUser(home, userId, { defaultTimeZone: "UTC" });

async function add(content: string): Promise<void> {
  const args = JSON.stringify({ file: "memory", section: "Log", content });
  const result = JSON.parse(
    await executeTool(store, "memory_add", args, { now: new Date(), turn: newTurnState(), writer: MODEL, settings: store.readSettings() }),
  ) as {
    ok: boolean;
    error?: string;
  };
  if (!result.ok) {
    process.stderr.write(`refused ${content}: ${result.error}\n`);
    process.exit(3);
  }
}

if (role === "hold") {
  for (let i = 0; i < Number(arg); i++) {
    await add(`a${i}`);
    process.stdout.write(`ack a${i}\n`);
  }
  await store.serialize(async () => {
    process.stdout.write("holding\n");
    // The lock's refresh timer is unref'd: this keeps the process, and so the lock, alive.
    setInterval(() => {}, 60_000);
    await new Promise<never>(() => {});
  });
} else if (role === "write") {
  await add(arg);
  process.stdout.write(`done ${Date.now()}\n`);
} else {
  process.stderr.write(`unknown role ${role}\n`);
  process.exit(2);
}
