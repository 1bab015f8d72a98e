import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/child-process.js";

/** Every .ts file under src/, as [path from the repo, text]. */
async function sources(): Promise<[string, string][]> {
  const files = (await readdir(join(repoRoot, "src"), { recursive: true })).filter((f) => f.endsWith(".ts"));
  return Promise.all(files.map(async (f): Promise<[string, string]> => [relative(repoRoot, join(repoRoot, "src", f)), await readFile(join(repoRoot, "src", f), "utf8")]));
}

describe("one source for each shared word", () => {
  it("a Discord id is checked by lib/snowflake.ts only, never by a pattern of its own", async () => {
    const own = (await sources()).filter(([path, text]) => path !== join("src", "lib", "snowflake.ts") && /\\d\{1,20\}/.test(text));
    expect(own.map(([path]) => path)).toEqual([]);
  });
});
