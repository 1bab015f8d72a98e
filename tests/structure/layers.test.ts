import { spawnSync } from "node:child_process";
import { cp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

// The structure check of .ci/run (npm run check:structure), run on the real tree and on a copy
// with a circle and an upward import put in, so the check is shown to fail when either comes.
const cruiser = join(repoRoot, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

function cruise(dir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [cruiser, "src", "--config", join(repoRoot, ".dependency-cruiser.cjs")], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const knip = join(repoRoot, "node_modules", "knip", "bin", "knip.js");

const copies: string[] = [];
afterAll(async () => {
  for (const dir of copies) await rm(dir, { recursive: true, force: true });
});

describe("the house's layers (.dependency-cruiser.cjs)", () => {
  it("src/ has no import circle and no import against the layers", () => {
    const { status, output } = cruise(repoRoot);
    expect(output).toMatch(/no dependency violations found/);
    expect(status).toBe(0);
  }, 120_000);

  it("fails on a circle, on the ground floor importing from above, and on a view importing a handler", async () => {
    const dir = await makeTempHome();
    copies.push(dir);
    await cp(join(repoRoot, "src"), join(dir, "src"), { recursive: true });
    await cp(join(repoRoot, "tsconfig.json"), join(dir, "tsconfig.json"));
    await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"));
    // A circle inside memory/, lib/ reaching up into engine/, and a Discord view that imports a handler.
    await writeFile(join(dir, "src", "memory", "circle-a.ts"), 'import { b } from "./circle-b.js";\nexport const a = () => b;\n');
    await writeFile(join(dir, "src", "memory", "circle-b.ts"), 'import { a } from "./circle-a.js";\nexport const b = () => a;\n');
    await writeFile(join(dir, "src", "lib", "upward.ts"), 'export type { SessionEngine } from "../engine/session-engine.js";\n');
    await writeFile(join(dir, "src", "discord", "views", "sideways.ts"), 'export { componentHandlers } from "../handlers/index.js";\n');
    const { status, output } = cruise(dir);
    expect(status).not.toBe(0);
    expect(output).toMatch(/error no-circular: src\/memory\/circle-a\.ts → \s*src\/memory\/circle-b\.ts/);
    expect(output).toMatch(/error lib-is-the-ground-floor: src\/lib\/upward\.ts → src\/engine\/session-engine\.ts/);
    expect(output).toMatch(/error discord-views-build-messages-only: src\/discord\/views\/sideways\.ts → src\/discord\/handlers\/index\.ts/);
  }, 120_000);
});

describe("no unused file or export (knip.json)", () => {
  it("fails on a file nothing imports and on an export nothing uses", async () => {
    const dir = await makeTempHome();
    copies.push(dir);
    for (const part of [
      "src",
      "tests",
      "bench",
      "eval",
      "scripts",
      "package.json",
      "knip.json",
      "tsconfig.json",
      "vitest.config.ts",
      "vitest.mutation.config.ts",
      "stryker.config.mjs",
      ".dependency-cruiser.cjs",
    ]) {
      await cp(join(repoRoot, part), join(dir, part), { recursive: true });
    }
    await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"));
    const clean = spawnSync(process.execPath, [knip, "--no-progress"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(`${clean.stdout}${clean.stderr}`).toBe("");
    expect(clean.status).toBe(0);
    await writeFile(join(dir, "src", "lib", "orphan.ts"), "export const orphan = 1;\n");
    await writeFile(join(dir, "src", "lib", "text.ts"), `${await readFile(join(dir, "src", "lib", "text.ts"), "utf8")}\nexport const neverUsed = 2;\n`);
    const run = spawnSync(process.execPath, [knip, "--no-progress"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/Unused files[^]*src\/lib\/orphan\.ts/);
    expect(run.stdout).toMatch(/Unused exports[^]*neverUsed\s+src\/lib\/text\.ts/);
  }, 120_000);
});
