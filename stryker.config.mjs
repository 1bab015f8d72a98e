// StrykerJS: mutation testing of the checks that decide what may be written (docs/design.md §7).
// `npm run test:mutation` (scripts/mutation.mjs) runs one group at a time (MUTATION_GROUP) and fails
// when any scores under 90 %; `npx stryker run` alone mutates every group at once.
import { chosenGroups, mutateOf } from "./scripts/mutation-groups.mjs";

const groups = chosenGroups();

export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  coverageAnalysis: "perTest",
  concurrency: 2,
  mutate: groups.flatMap(mutateOf),
  // A group is scored by its own modules' tests only: vitest.mutation.config.ts includes those of
  // MUTATION_GROUP. Not Stryker's `testFiles`: with it, 9.6 activates a mutant of a module's top
  // level (a word list, a pattern) only after the module has loaded, and every such mutant survives.
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ["clear-text", "progress"],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: ".mutation/stryker-tmp",
  cleanTempDir: "always",
  // The sandbox needs the sources, the tests and their configs; not the build, the docs or the benches.
  ignorePatterns: ["/dist", "/docs", "/bench", "/eval", "/scratch", "/deploy", "/.mutation", "/.agentkit", "/coverage"],
  incremental: false,
  timeoutMS: 10_000,
};
