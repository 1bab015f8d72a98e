import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCompiled } from "./helpers/compiled-build.js";
import { COMPILED_ENV } from "./helpers/outside-checkout.js";

/**
 * Once per run, for the tiers that start the program as its own process (e2e, faults): `src/` compiled
 * into a temp dir, whose path the test workers find in COMPILED_ENV (they are forked after this runs).
 * Entry points then start as `node dist/…js`, as `npm start` and the Docker image run them, instead of
 * compiling some 270 files under tsx at every start; the compiled-start and CLI tests use it too.
 * A second tier's setup in the same run finds the build made.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[COMPILED_ENV]) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "agentkit-compiled-"));
  await buildCompiled(dir);
  process.env[COMPILED_ENV] = dir;
  return async () => {
    delete process.env[COMPILED_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}
