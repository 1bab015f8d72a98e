import { readFileSync } from "node:fs";

/** The CPU time of this process so far, in ms: every thread (the collector's helpers, the thread pool). */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Linux counts each thread's CPU in clock ticks (utime and stime, fields 14 and 15 of its stat). */
export const TICK_MS = 10;
const mainThreadStat = `/proc/self/task/${process.pid}/stat`;

/** The event loop's own thread's CPU time in ms, or undefined where /proc does not say it. */
export function mainThreadCpuNow(): number | undefined {
  try {
    const stat = readFileSync(mainThreadStat, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * TICK_MS : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The CPU time spent on `work`, in ms: what a linearity check compares. Wall time counts the
 * moments the OS gave the core to another test file (three run at once on two cores). The
 * process's CPU time also counts the collector's helper threads, which mark a large shared heap
 * on another core while a loaded suite runs (a 500 ms split once counted 2.7 s). Where Linux says
 * the calling thread's own time, the smaller of the two is taken (a tick added, to stay an upper bound).
 */
export function cpuMs(work: () => unknown): number {
  const before = cpuNow();
  const thread = mainThreadCpuNow();
  work();
  const processMs = cpuNow() - before;
  const threadAfter = mainThreadCpuNow();
  const threadMs = thread !== undefined && threadAfter !== undefined ? threadAfter - thread + TICK_MS : Number.POSITIVE_INFINITY;
  return Math.min(processMs, threadMs);
}
