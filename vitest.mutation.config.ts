import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain ES module of the scripts folder, shared with stryker.config.mjs.
import { chosenGroups } from "./scripts/mutation-groups.mjs";

// npm run test:mutation (stryker.config.mjs): the unit tests of the group being mutated only
// (MUTATION_GROUP; every group's when unset), so that each mutant runs in seconds, not the whole
// suite's minutes. The rules' own tests (*.rules.test.ts) are here and in `npm test` alike.
export default defineConfig({
  test: {
    include: (chosenGroups() as { tests: string[] }[]).flatMap((group) => group.tests),
    // The tests that time a check on a megabyte are skipped under mutation (see the file).
    setupFiles: ["scripts/mutation-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
