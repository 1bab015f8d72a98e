// One process's tidy-up schedule: looks through everyone once at a fixed time, runs who is due, prints who it ran.
import { TidySchedule } from "../../../src/engine/tidy/tidy-schedule.js";
import { silentLogger } from "../../../src/lib/logger.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { ModelClient } from "../../../src/model/model-client.js";
import { SessionStore } from "../../../src/sessions/session-store.js";

const [home, baseURL, owner, at] = process.argv.slice(2) as [string, string, string, string];
const store = await SessionStore.open(home);
const ran: string[] = [];
const schedule = new TidySchedule({
  home,
  memoryOf: (id) => MemoryStore.forUser(home, id, { defaultTimeZone: "UTC" }),
  model: new ModelClient({ baseURL, apiKey: "t", model: "fake-model", maxRetries: 0, timeoutMs: 5_000 }),
  store,
  owner,
  at: "04:00",
  concurrency: 2,
  log: silentLogger,
  clock: () => new Date(at),
  onRun: (id) => ran.push(id),
});
await schedule.scan();
await schedule.idle();
await schedule.close();
await store.close();
process.stdout.write(JSON.stringify(ran));
