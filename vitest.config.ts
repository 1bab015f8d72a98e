import { accessSync, constants, statfsSync } from "node:fs";
import { defineConfig } from "vitest/config";

/**
 * The tests' temporary homes, builds and copies go to memory (tmpfs) when the machine has one with
 * room: every memory write syncs its journal, file and folder to disk (three fsyncs), and on a disk
 * those cost the suite a minute of system time. A crash test kills a process, which loses nothing
 * a disk would keep, so nothing a test checks depends on the disk. A container's small /dev/shm
 * (Docker gives 64 MB) is left alone, and a TMPDIR set by the person running the tests wins.
 */
function memoryBackedTemp(): string | undefined {
  const dir = "/dev/shm";
  try {
    accessSync(dir, constants.W_OK);
    const free = statfsSync(dir);
    return free.bavail * free.bsize >= 4 * 1024 ** 3 ? dir : undefined;
  } catch {
    return undefined;
  }
}
const shm = process.env.TMPDIR ? undefined : memoryBackedTemp();
if (shm) process.env.TMPDIR = shm;

/**
 * The suite in tiers: `npm test -- --project unit` runs one, `npx vitest run tests/unit/lib/text.test.ts`
 * one file. All tiers share one pool of three workers on two cores: most e2e and fault files wait on
 * the processes they start. Measured here: 4 min 42 s with three, 5 min 1 s with two. (Three once made
 * the two-process writers lose a write: an add of "a3" was taken as already there beside "a30", a
 * bug of the code, not of the load, fixed in sections.ts.) The timing tests bound CPU time (the loop
 * probe counts the event loop's own thread); a wall-time bound, where one stays, is a loose backstop.
 *
 * Unit, structure, integration and e2e files share their worker's modules (`isolate: false`; a
 * worker is reused within a tier only): importing discord.js, fastify and openai again for each of
 * a hundred small files cost a third of their time, and for the e2e files 52 s in all of the
 * suite's 4 min 47 s here (3 min 55 s shared). What a test starts is stopped by tests/setup.ts,
 * which runs for every file. What the bot keeps in its modules is keyed by its home's paths (locks,
 * journals, quotas, forget stamps) or is a cache of pure results; the one exception, what a model
 * server refused (src/model/server-traits.ts, by address and model), is learned only from fakes
 * made to refuse, which the e2e tests run in a process of the bot's own. The fault files each get
 * a process of their own: they kill, stall and restart what they start. The e2e and fault tiers
 * start the program from this run's compiled build (tests/global-setup.ts).
 */
interface Tier {
  isolate?: false;
  globalSetup?: string[];
}
const tier = (name: string, include: string[], options: Tier = {}) => ({ extends: true as const, test: { name, include, ...options } });
const shared: Tier = { isolate: false };
const spawning: Tier = { globalSetup: ["tests/global-setup.ts"] };

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    maxWorkers: 3,
    setupFiles: ["tests/setup.ts"],
    projects: [
      tier("unit", ["tests/unit/**/*.test.ts", "tests/property/**/*.test.ts"], shared),
      tier("structure", ["tests/structure/**/*.test.ts"], shared),
      tier("integration", ["tests/integration/**/*.test.ts"], shared),
      tier("e2e", ["tests/e2e/**/*.test.ts"], { ...shared, ...spawning }),
      tier("faults", ["tests/faults/**/*.test.ts"], spawning),
    ],
  },
});
