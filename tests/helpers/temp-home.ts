import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** A fresh AGENTKIT_HOME per test, removed after the test. */
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

export async function makeTempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "agentkit-test-"));
  homes.push(home);
  return home;
}
