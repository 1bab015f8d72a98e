import { afterEach } from "vitest";
import { runCleanups } from "./helpers/cleanup.js";

// Every test file, whether or not it shares its worker's modules with others (tests/helpers/cleanup.ts).
afterEach(runCleanups);
