import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";

const repoRoot = join(import.meta.dirname, "../..");

/**
 * How tests and the bench start a TypeScript entry point of this repo: `node --import <tsx> <script>`
 * with absolute paths, in a folder outside the checkout. dotenv reads `.env` from the working
 * directory, and a newcomer keeps their bot's `.env` in the checkout: run from there, a test's bot
 * would take its token (and log in to the real Discord) or its SESSION_STORE_URL.
 */
export const OUTSIDE_CHECKOUT = tmpdir();

/** Where tests/global-setup.ts put this run's compiled build (unset outside the e2e and fault tiers, and in the bench). */
export const COMPILED_ENV = "AGENTKIT_TEST_COMPILED";

/**
 * The argv that starts `script` (a path from the repo): an entry point of src/ from this run's
 * compiled build when there is one, anything else (a fault worker, the eval) under tsx.
 */
export function tsxArgv(script: string, args: string[] = []): string[] {
  const compiled = process.env[COMPILED_ENV];
  if (compiled && /^src\/[a-z0-9/-]+\.ts$/.test(script)) return [join(compiled, "dist", script.slice("src/".length).replace(/\.ts$/, ".js")), ...args];
  const loader = pathToFileURL(join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;
  return ["--import", loader, isAbsolute(script) ? script : join(repoRoot, script), ...args];
}
