import { execFile } from "node:child_process";
import { copyFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { COMPILED_ENV } from "./outside-checkout.js";

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, "../..");

/**
 * Compiles src/ with `npm run build` into `<dir>/dist`, next to a copy of package.json (ESM) and a
 * link to this repo's node_modules: the layout of the Docker image, so `node dist/index.js` run in
 * `dir` is the production start. Used by the compiled-start test and the benchmark; nothing is
 * written to the repo's own dist/, which another process may be running.
 */
export async function buildCompiled(dir: string): Promise<void> {
  // Imported by the global setup, which runs before any worker: nothing here may need vitest.
  await copyFile(join(repoRoot, "package.json"), join(dir, "package.json"));
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  try {
    await run("npm", ["run", "--silent", "build", "--", "--outDir", join(dir, "dist")], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout}${stderr}`.trim());
  }
}

/** This run's compiled build (tests/global-setup.ts), for the tiers that have one. */
export function sharedBuild(): string {
  const dir = process.env[COMPILED_ENV];
  if (!dir) throw new Error(`no compiled build in ${COMPILED_ENV}: run this file in the e2e or faults tier (vitest.config.ts)`);
  return dir;
}
