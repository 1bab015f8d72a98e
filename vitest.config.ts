import { defineConfig } from "vitest/config";

/**
 * The suite in tiers (`npm test -- --project unit` runs one; `npx vitest run tests/unit/lib/text.test.ts`
 * one file). All tiers share one pool of three workers, each file in its own process (`forks`: several
 * files start real child processes, and a file's module state never leaks into another's). Three on two
 * cores because e2e and fault files mostly wait on their child processes and fake servers; the timing
 * tests bound the event loop's own thread's CPU (tests/helpers/loop-probe.ts), not wall time, so they
 * hold with a neighbour on the core.
 */
const tier = (name: string, include: string[], globalSetup: string[] = []) => ({ extends: true as const, test: { name, include, globalSetup } });
/** The tiers that start the program as its own process get this run's compiled build (tests/global-setup.ts). */
const compiled = ["tests/global-setup.ts"];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    maxWorkers: 3,
    projects: [
      tier("unit", ["tests/unit/**/*.test.ts", "tests/property/**/*.test.ts"]),
      tier("structure", ["tests/structure/**/*.test.ts"]),
      tier("integration", ["tests/integration/**/*.test.ts"]),
      tier("e2e", ["tests/e2e/**/*.test.ts"], compiled),
      tier("faults", ["tests/faults/**/*.test.ts"], compiled),
    ],
  },
});
