import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterThisTest } from "./cleanup.js";

/** A fresh AGENTKIT_HOME per test, removed after the test. */

export async function makeTempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "agentkit-test-"));
  afterThisTest(() => rm(home, { recursive: true, force: true }));
  return home;
}
