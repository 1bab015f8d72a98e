import { afterEach } from "vitest";
import { runCleanups } from "./helpers/cleanup.js";

// Every test file, whether or not it shares its worker's modules with others (tests/helpers/cleanup.ts).
// One hook for all of a test's cleanups (a bot, Redis, stores, homes): a minute, not the 20 s of one.
afterEach(runCleanups, 60_000);
