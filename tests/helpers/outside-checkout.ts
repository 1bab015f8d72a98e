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

export function tsxArgv(script: string, args: string[] = []): string[] {
  const loader = pathToFileURL(join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;
  return ["--import", loader, isAbsolute(script) ? script : join(repoRoot, script), ...args];
}
