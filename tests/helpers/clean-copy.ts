import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./child-process.js";

const exec = promisify(execFile);

/**
 * What a clean clone holds: every file git tracks (and new files it does not ignore), copied into
 * `dir`. node_modules is linked rather than installed again: `.ci/run` has just run `npm ci` on a
 * clean clone, which is the README's install step.
 */
export async function cleanCopy(dir: string): Promise<void> {
  const { stdout } = await exec("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
  for (const file of stdout.split("\0").filter(Boolean)) {
    if (file === "node_modules" || !existsSync(join(repoRoot, file))) continue;
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(join(repoRoot, file), join(dir, file));
  }
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
}
