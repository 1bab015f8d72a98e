import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OUTSIDE_CHECKOUT, tsxArgv } from "../tests/helpers/outside-checkout.js";

/** The repository root (bench/..). */
export const ROOT = join(import.meta.dirname, "..");

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** Kills every child still running and removes every temp dir; safe to call more than once. */
export function cleanupEverything(): void {
  for (const child of children) {
    // The whole tree: a sharded bot's launcher has a process per shard below it.
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) killTree(child.pid);
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
  return runNode([...nodeArgs, ...tsxArgv(script)], OUTSIDE_CHECKOUT, env);
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
      const timer = setTimeout(() => killTree(child.pid!), graceMs);
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
function cpuMsOf(pid: number): number {
  return cpuMsIn(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/** utime + stime of a /proc stat line (a process's or a thread's), in ms. */
function cpuMsIn(stat: string): number {
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * User + system CPU so far of one process's main thread and of its other threads together (the
 * libuv pool, where fs and sqlite3 work runs, and V8's collector and compiler helpers; Node 20
 * does not name them apart), in ms, from /proc/<pid>/task. Threads that ended are left out, so
 * read it while the process runs.
 */
export function threadCpuMs(pid: number): { main: number; others: number } {
  const split = { main: 0, others: 0 };
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  for (const tid of tids) {
    try {
      split[Number(tid) === pid ? "main" : "others"] += cpuMsIn(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return split;
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

/** `pid` and every process below it (the shard processes under the launcher), from /proc/<pid>/task/<tid>/children. */
function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    const parent = all[i]!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const child of readFileSync(`/proc/${parent}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) all.push(Number(child));
      } catch {
        // the thread or process ended
      }
    }
  }
  return all;
}

/** cpuMsOf() per process of the tree under `pid` (processes that ended are left out). */
export function treeCpuMs(pid: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const p of processTree(pid)) {
    try {
      cpu.set(p, cpuMsOf(p));
    } catch {
      // ended
    }
  }
  return cpu;
}

/** CPU used by the tree between two treeCpuMs() readings; a process new since `before` counts from 0. */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [p, ms] of after) sum += ms - (before.get(p) ?? 0);
  return sum;
}

/** VmRSS and VmHWM summed over the tree under `pid`, and how many processes it has. */
export function treeMemory(pid: number): MemoryStatus & { processes: number; byPid: Map<number, MemoryStatus> } {
  let rssMb = 0;
  let peakRssMb = 0;
  let processes = 0;
  const byPid = new Map<number, MemoryStatus>();
  for (const p of processTree(pid)) {
    try {
      const m = memoryOf(p);
      byPid.set(p, m);
      rssMb += m.rssMb;
      peakRssMb += m.peakRssMb;
      processes++;
    } catch {
      // ended
    }
  }
  if (processes === 0) throw new Error(`process ${pid} is gone`);
  return { rssMb, peakRssMb, processes, byPid };
}

/** SIGKILL to `pid` and every process below it (children first listed, so none is re-parented unseen). */
export function killTree(pid: number): void {
  for (const p of processTree(pid).reverse()) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
