import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { afterEach } from "vitest";

export const repoRoot = join(import.meta.dirname, "../..");

export interface TsxProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited and its output is read. */
  exited: Promise<number | null>;
}

const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Runs a TypeScript entry point of this repo as its own node process (as `npm start` would, minus npm). */
export function runTsx(script: string, args: string[], env: Record<string, string>): TsxProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", HOME: env.AGENTKIT_HOME ?? "/nonexistent", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}
