import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot, type FinishedRun } from "../helpers/child-process.js";

/**
 * `npm run memory` and `npm run chat` go through scripts/run-compiled.mjs. These tests give it a small
 * project of its own (this repo's package.json, tsconfigs and launcher, two tiny programs as src/),
 * so a build takes a second and nothing touches this repo's dist/.
 */

const projects: string[] = [];
afterEach(async () => {
  await Promise.all(projects.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

// Prints what it was given and where it runs from; `marker` tells one build from another.
const memoryProgram = (marker: string) => `import { readFileSync } from "node:fs";
const stdin: string = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
console.log(JSON.stringify({ marker: "${marker}", args: process.argv.slice(2), argv1: process.argv[1], pid: process.pid, url: import.meta.url, stdin }));
`;

// A long-running program like the terminal chat: its own signal handlers, lines from stdin.
const chatProgram = `import { createInterface } from "node:readline";
process.on("SIGHUP", () => { console.log("hung up"); process.exit(0); });
process.on("SIGINT", () => { console.log("interrupted"); process.exit(130); });
console.log(\`ready \${process.pid}\`);
for await (const line of createInterface({ input: process.stdin })) console.log(\`heard \${line}\`);
console.log("end of input");
`;

async function makeProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentkit-launcher-"));
  projects.push(dir);
  for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json"]) await copyFile(join(repoRoot, file), join(dir, file));
  await mkdir(join(dir, "scripts"));
  await copyFile(join(repoRoot, "scripts", "run-compiled.mjs"), join(dir, "scripts", "run-compiled.mjs"));
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  await mkdir(join(dir, "src", "cli"), { recursive: true });
  await writeFile(join(dir, "src", "cli", "memory.ts"), memoryProgram("one"));
  await writeFile(join(dir, "src", "cli", "chat.ts"), chatProgram);
  return dir;
}

interface Running {
  pid: number;
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
  done: Promise<FinishedRun>;
}

function start(dir: string, command: string, args: string[], input?: string): Running {
  const child = spawn(command, args, { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  if (input !== undefined) child.stdin.end(input);
  const done = new Promise<FinishedRun>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { pid: child.pid!, stdout: () => stdout, stderr: () => stderr, kill: (signal) => child.kill(signal), done };
}

/** `npm run -s <script> -- args`: npm's own banner left out, as a script reading stdout would run it. */
const npmRun = (dir: string, script: string, args: string[], input = "") => start(dir, "npm", ["run", "-s", script, "--", ...args], input).done;

async function until(what: string, check: () => boolean, run: Running): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 60_000) throw new Error(`timed out waiting for ${what}; stdout: ${run.stdout()} stderr: ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const parsed = (run: FinishedRun) => JSON.parse(run.stdout) as { marker: string; args: string[]; argv1: string; url: string; stdin: string };
const builtAt = async (dir: string, file: string) => (await stat(join(dir, "dist", "cli", file), { bigint: true })).mtimeNs;
// A build leaves nothing behind: no lock, no half-built or replaced folder.
const leftovers = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith(".dist"));

describe("npm run memory and npm run chat run the compiled build (scripts/run-compiled.mjs)", () => {
  it("compiles src/ into dist/ on the first run, then runs dist/cli/memory.js with the arguments and stdin untouched", async () => {
    const dir = await makeProject();
    const first = await npmRun(dir, "memory", ["search", "oolong tea", "--json"], "piped text\n");
    expect(first.code, first.stderr).toBe(0);
    expect(parsed(first)).toMatchObject({
      marker: "one",
      args: ["search", "oolong tea", "--json"],
      argv1: join(dir, "dist", "cli", "memory.js"),
      stdin: "piped text\n",
    });
    expect(parsed(first).url).toBe(`file://${join(dir, "dist", "cli", "memory.js")}`);
    expect(first.stderr).toMatch(/^compiling src\/ into dist\/ \(the first run builds it; about 10 s\)…\n$/);
    expect(await leftovers(dir)).toEqual([]);
  }, 120_000);

  it("does not compile again while no source changed (an editor's swap file is not one), and runs what dist/ holds", async () => {
    const dir = await makeProject();
    expect((await npmRun(dir, "memory", [])).code).toBe(0);
    const built = await builtAt(dir, "chat.js");
    // The compiled file, not the source, is what runs: a change made to dist/ alone shows (a build would undo it).
    const compiled = join(dir, "dist", "cli", "memory.js");
    await writeFile(compiled, (await readFile(compiled, "utf8")).replace('marker: "one"', 'marker: "from dist"'));
    // An editor's swap and backup files are not sources.
    await writeFile(join(dir, "src", "cli", ".memory.ts.swp"), "swap");
    await writeFile(join(dir, "src", "cli", "memory.ts~"), "backup");
    const again = await npmRun(dir, "memory", ["history"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe("");
    expect(parsed(again).marker).toBe("from dist");
    expect(await builtAt(dir, "chat.js")).toBe(built);
  }, 120_000);

  it("compiles again when a source file changes, a file is added, or tsconfig or package.json changes", async () => {
    const dir = await makeProject();
    expect((await npmRun(dir, "memory", [])).code).toBe(0);

    await writeFile(join(dir, "src", "cli", "memory.ts"), memoryProgram("two"));
    const changed = await npmRun(dir, "memory", []);
    expect(parsed(changed).marker).toBe("two");
    expect(changed.stderr).toMatch(/^compiling src\/ into dist\/ \(it changed since the last build\)…\n$/);

    await mkdir(join(dir, "src", "lib"));
    await writeFile(join(dir, "src", "lib", "added.ts"), "export const added = 1;\n");
    expect((await npmRun(dir, "memory", [])).stderr).toMatch(/^compiling/);
    expect((await readdir(join(dir, "dist", "lib"))).filter((f) => f.endsWith(".js"))).toEqual(["added.js"]);

    for (const file of ["tsconfig.json", "tsconfig.build.json", "package.json"]) {
      await writeFile(join(dir, file), `${(await readFile(join(dir, file), "utf8")).trimEnd()}\n\n`);
      const rerun = await npmRun(dir, "memory", []);
      expect(rerun.stderr, file).toMatch(/^compiling/);
      expect(rerun.code).toBe(0);
    }
    expect((await npmRun(dir, "memory", [])).stderr).toBe("");
  }, 180_000);

  it("a source that does not compile gets one line and exit 1, and the last good dist/ stays", async () => {
    const dir = await makeProject();
    expect((await npmRun(dir, "memory", [])).code).toBe(0);
    await writeFile(join(dir, "src", "cli", "memory.ts"), `const n: number = "not a number";\n${memoryProgram("broken")}`);
    const failed = await npmRun(dir, "memory", []);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    const lines = failed.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^compiling src\/ into dist\//);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^could not compile src\/ into dist\/: src\/cli\/memory\.ts\(1,7\): error TS2322: .+ \(npm run build shows every error\)$/);
    expect(await readFile(join(dir, "dist", "cli", "memory.js"), "utf8")).toContain('marker: "one"');
    expect(await leftovers(dir)).toEqual([]);
    // Fixed: the next run compiles and runs it.
    await writeFile(join(dir, "src", "cli", "memory.ts"), memoryProgram("fixed"));
    expect(parsed(await npmRun(dir, "memory", [])).marker).toBe("fixed");
  }, 180_000);

  it("two runs at once after a change compile once, and both run the new build", async () => {
    const dir = await makeProject();
    expect((await npmRun(dir, "memory", [])).code).toBe(0);
    await writeFile(join(dir, "src", "cli", "memory.ts"), memoryProgram("both"));
    const runs = await Promise.all([npmRun(dir, "memory", ["a"]), npmRun(dir, "memory", ["b"]), npmRun(dir, "memory", ["c"])]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(parsed(run).marker).toBe("both");
    }
    expect(runs.filter((run) => run.stderr.startsWith("compiling"))).toHaveLength(1);
    expect(await leftovers(dir)).toEqual([]);
  }, 180_000);

  it("runs the program in its own process: stdin lines, SIGHUP and SIGINT reach the program's handlers", async () => {
    const dir = await makeProject();
    expect((await npmRun(dir, "chat", [], "")).code).toBe(0);
    const chat = start(dir, process.execPath, ["scripts/run-compiled.mjs", "cli/chat"]);
    await until("ready", () => chat.stdout().includes("ready"), chat);
    // No second process: the program's pid is the launcher's.
    expect(chat.stdout()).toBe(`ready ${chat.pid}\n`);
    chat.kill("SIGHUP");
    expect(await chat.done).toMatchObject({ code: 0, stdout: `ready ${chat.pid}\nhung up\n` });

    const interrupted = start(dir, process.execPath, ["scripts/run-compiled.mjs", "cli/chat"]);
    await until("ready", () => interrupted.stdout().includes("ready"), interrupted);
    interrupted.kill("SIGINT");
    expect(await interrupted.done).toMatchObject({ code: 130, stdout: `ready ${interrupted.pid}\ninterrupted\n` });

    const piped = await npmRun(dir, "chat", [], "hi\nthere\n");
    expect(piped).toMatchObject({ code: 0, stderr: "" });
    expect(piped.stdout).toMatch(/^ready \d+\nheard hi\nheard there\nend of input\n$/);
  }, 120_000);

  it("runs dist/ as it is where there is no src/ (a production image), and names an unknown program in one line", async () => {
    const dir = await makeProject();
    expect((await npmRun(dir, "memory", [])).code).toBe(0);
    await rm(join(dir, "src"), { recursive: true });
    const compiledOnly = await npmRun(dir, "memory", ["x"]);
    expect(compiledOnly.code, compiledOnly.stderr).toBe(0);
    expect(parsed(compiledOnly)).toMatchObject({ marker: "one", args: ["x"] });
    const unknown = await start(dir, process.execPath, ["scripts/run-compiled.mjs", "cli/nothing"]).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^[^\n]*cli\/nothing[^\n]*\n$/);
  }, 120_000);
});
