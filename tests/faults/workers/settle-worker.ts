// Presses Save on one proposal when told to (a line on stdin), as a second process would (the
// terminal's /save while Discord's button is pressed); prints what became of it.
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { settleProposal } from "../../../src/memory/settle-proposal.js";

const [home, userId, id] = process.argv.slice(2) as [string, string, string];
const memory = MemoryStore.forUser(home, userId, { defaultTimeZone: "UTC" });
process.stdout.write("ready\n");
process.stdin.once("data", async () => {
  const settled = await settleProposal(memory, id, true);
  process.stdout.write(`${settled.kind}\n`);
  process.exit(0);
});
