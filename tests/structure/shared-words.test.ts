import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/child-process.js";

/** Every .ts file under src/, as [path from the repo, text]. */
async function sources(): Promise<[string, string][]> {
  const files = (await readdir(join(repoRoot, "src"), { recursive: true })).filter((f) => f.endsWith(".ts"));
  return Promise.all(
    files.map(async (f): Promise<[string, string]> => [relative(repoRoot, join(repoRoot, "src", f)), await readFile(join(repoRoot, "src", f), "utf8")]),
  );
}

describe("one source for each shared word", () => {
  it("a Discord id is checked by lib/snowflake.ts only, never by a pattern of its own", async () => {
    const own = (await sources()).filter(([path, text]) => path !== join("src", "lib", "snowflake.ts") && /\\d\{1,20\}/.test(text));
    expect(own.map(([path]) => path)).toEqual([]);
  });
});

describe("what the production install holds (npm ci --omit=dev, the Dockerfile)", () => {
  it("every package src/ imports is a production dependency, and the dev tools (tsx) are not", async () => {
    const pkg = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const imported = new Set<string>();
    for (const [, text] of await sources()) {
      // `from "x"` and `import("x")` of a bare name: the package is its first part (two for a scope).
      for (const match of text.matchAll(/(?:from |import\()"([^".][^"]*)"/g)) {
        const name = match[1]!;
        if (name.startsWith("node:")) continue;
        imported.add(name.startsWith("@") ? name.split("/").slice(0, 2).join("/") : name.split("/")[0]!);
      }
    }
    expect([...imported].filter((name) => !(name in pkg.dependencies)).sort()).toEqual([]);
    expect(Object.keys(pkg.dependencies)).not.toContain("tsx");
    expect(pkg.devDependencies).toHaveProperty("tsx");
  });
});
