import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { afterThisTest } from "./cleanup.js";
import { OUTSIDE_CHECKOUT, tsxArgv } from "./outside-checkout.js";

export const repoRoot = join(import.meta.dirname, "../..");

export interface TsxProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited and its output is read. */
  exited: Promise<number | null>;
}

/** Runs a TypeScript entry point of this repo as its own node process under tsx (as `npm run dev` would, minus npm), outside the checkout. */
export function runTsx(script: string, args: string[], env: Record<string, string>): TsxProcess {
  return runNode(tsxArgv(script, args), OUTSIDE_CHECKOUT, env);
}

/** Runs a compiled entry point (`dist/index.js`) with plain node in `dir`, as `npm start` and the Docker image do. */
export function runCompiled(dir: string, script: string, args: string[], env: Record<string, string>): TsxProcess {
  return runNode([script, ...args], dir, env);
}

function runNode(argv: string[], cwd: string, env: Record<string, string>): TsxProcess {
  const child = spawn(process.execPath, argv, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: env.AGENTKIT_HOME ?? "/nonexistent", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  afterThisTest(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

export interface FinishedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an entry point with `input` on stdin (then closed) until it exits, as a pipe would. */
export async function runToEnd(script: string, args: string[], input: string, env: Record<string, string>): Promise<FinishedRun> {
  const run = runTsx(script, args, env);
  run.child.stdin.end(input);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
