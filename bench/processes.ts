import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The repository root (bench/..). */
export const ROOT = join(import.meta.dirname, "..");

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** Kills every child still running and removes every temp dir; safe to call more than once. */
export function cleanupEverything(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** A fresh directory under os.tmpdir() (or `base`), removed by cleanupEverything(). */
export async function makeTempDir(prefix: string, base = tmpdir()): Promise<string> {
  const dir = await mkdtemp(join(base, `agentkit-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

export interface ChildRun {
  child: ChildProcess;
  pid: number;
  /** Epoch ms just before spawn(). */
  spawnedAt: number;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Calls back with each complete stdout line and the epoch ms it was read. */
  onLine(listener: (line: string, at: number) => void): void;
  exited: Promise<number | null>;
  /** SIGTERM (so --cpu-prof profiles get written), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs a TypeScript entry as `node [nodeArgs] --import tsx <script>`: the child pid is the node
 * process itself (no npm or tsx wrapper), so /proc/<pid>/status is the bot's memory.
 */
export function runTs(script: string, env: Record<string, string>, nodeArgs: string[] = []): ChildRun {
  return runNode([...nodeArgs, "--import", "tsx", script], ROOT, env);
}

/** Runs compiled JavaScript as `node [nodeArgs] <script>` in `cwd` (a build made by bots.ts's compiledBuild()). */
export function runJs(script: string, cwd: string, env: Record<string, string>, nodeArgs: string[] = []): ChildRun {
  return runNode([...nodeArgs, script], cwd, env);
}

function runNode(argv: string[], cwd: string, env: Record<string, string>): ChildRun {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, argv, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: env.AGENTKIT_HOME ?? tmpdir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start ${argv.join(" ")}`);
  children.add(child);
  let output = "";
  let partial = "";
  const listeners: ((line: string, at: number) => void)[] = [];
  child.stdout!.on("data", (data: Buffer) => {
    const at = Date.now();
    const text = data.toString();
    output += text;
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) for (const listener of listeners) listener(line, at);
  });
  child.stderr!.on("data", (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    pid: child.pid,
    spawnedAt,
    output: () => output,
    onLine: (listener) => void listeners.push(listener),
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface MemoryStatus {
  /** Resident set now, MB. */
  rssMb: number;
  /** Peak resident set (VmHWM), MB. */
  peakRssMb: number;
}

/** Reads VmRSS and VmHWM of a live process from /proc. */
export function memoryOf(pid: number): MemoryStatus {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 };
}

/** User + system CPU time the process has used so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10;
}

/** Rejects after `ms` with a message naming what took too long. */
export async function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
