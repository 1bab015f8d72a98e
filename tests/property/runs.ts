/**
 * How hard the property tests try: `npm run test:faults` sets FAULTS_FULL=1 for the
 * thorough run; the default keeps `npm test` fast.
 */
const FULL = process.env.FAULTS_FULL === "1";

/** Runs per property. */
export const RUNS = FULL ? 10_000 : 250;

/** Per-test timeout: the thorough run needs more than vitest's 20 s default. */
export const TIMEOUT = FULL ? 300_000 : 20_000;
