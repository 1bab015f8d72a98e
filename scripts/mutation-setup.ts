import { beforeEach } from "vitest";

/**
 * Loaded by vitest.mutation.config.ts only (npm run test:mutation): the tests that time the
 * checks on a megabyte are skipped there. Instrumented for mutation, the same code runs several
 * times slower and fails their budgets in the first, unmutated run; and a mutant that only makes
 * a check slower lets nothing more through. `npm test` runs them as ever.
 */
const TIMED = /linear time|within two seconds|costs what that costs/;

beforeEach((context) => {
  const names: string[] = [];
  for (let task: { name: string; suite?: unknown } | undefined = context.task; task; task = task.suite as typeof task) names.push(task.name);
  if (TIMED.test(names.join(" > "))) context.skip();
});
