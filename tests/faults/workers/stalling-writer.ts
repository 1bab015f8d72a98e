// A memory writer whose event loop stalls in the middle of a write, for longer than the person's
// lock takes to go stale: as a long GC pause, a swapped-out process or a blocking call would.
//   <home> <userId> <content> <stallMs>: one memory_add of <content> to MEMORY.md › Log. When the
//   new MEMORY.md has been put in its temporary file (journal entry written, rename not yet done),
//   it prints "stalling", blocks its event loop for <stallMs>, then goes on; at the end it prints
//   the tool result the model would get, as JSON.
import { open } from "node:fs/promises";
import { modelWriter } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { executeTool, newTurnState } from "../../../src/engine/tools/execute-tool.js";

const [home, userId, content, stallMs] = process.argv.slice(2) as [string, string, string, string];
const store = MemoryStore.forUser(home, userId, { defaultTimeZone: "UTC" });

// Every write of a file goes through a FileHandle's write (lib/text-writes.ts): the stall goes in
// where the temporary file of MEMORY.md gets its text (Markdown holding <content>; the journal's lines are JSON).
const probe = await open(process.execPath, "r");
const FileHandle = Object.getPrototypeOf(probe) as { write(this: unknown, data: unknown, ...rest: unknown[]): Promise<unknown> };
await probe.close();
const write = FileHandle.write;
let stalled = false;
FileHandle.write = async function (this: unknown, data: unknown, ...rest: unknown[]) {
  const written = await write.call(this, data, ...rest);
  const text = Buffer.isBuffer(data) ? data.toString("utf8") : typeof data === "string" ? data : "";
  if (!stalled && text.includes(content) && !text.startsWith("{")) {
    stalled = true;
    process.stdout.write("stalling\n");
    // Blocks the whole event loop: no timer runs, the lock is not refreshed.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(stallMs));
  }
  return written;
};

const result = await executeTool(store, "memory_add", JSON.stringify({ file: "memory", section: "Log", content }), {
  now: new Date(),
  turn: newTurnState(),
  writer: modelWriter("stalled-session"),
  settings: store.readSettings(),
});
process.stdout.write(`result ${result}\n`);
