import { cpuNow, mainThreadCpuNow, TICK_MS } from "./cpu-time.js";

/**
 * A timer on the event loop that notes how late each of its ticks came: the wall-clock gap,
 * and the CPU time this process spent in that gap. On a busy machine (other processes, two
 * cores) a gap can be long because the OS ran someone else; the CPU time in it is what our
 * own work held the loop for, so that is the figure a test bounds tightly.
 */
export interface LoopProbe {
  stop(): { worstWallMs: number; worstCpuMs: number };
}

/**
 * The CPU figure of a gap is the smaller of two upper bounds of what the event loop's own thread
 * did in it: the process's CPU time (which also counts the thread pool, SQLite's writes and the
 * collector's helper threads) and the loop's active time (which also counts time the OS gave
 * another process). Either alone can pass 300 ms on a loaded machine with the loop free: a
 * worker thread parsing an import on the other core while the OS runs another test file on this
 * one inflates both. Where Linux says the loop's own thread's CPU time (whole ticks, so one tick
 * is added to keep it an upper bound) that is a third bound, and the tightest.
 */
export function startLoopProbe(everyMs = 5): LoopProbe {
  let wall = performance.now();
  let cpu = cpuNow();
  let thread = mainThreadCpuNow();
  let elu = performance.eventLoopUtilization();
  let worstWallMs = 0;
  let worstCpuMs = 0;
  const tick = () => {
    const nowWall = performance.now();
    const nowCpu = cpuNow();
    const nowThread = mainThreadCpuNow();
    const nowElu = performance.eventLoopUtilization();
    const active = performance.eventLoopUtilization(nowElu, elu).active;
    worstWallMs = Math.max(worstWallMs, nowWall - wall);
    const threadMs = nowThread !== undefined && thread !== undefined ? nowThread - thread + TICK_MS : Infinity;
    worstCpuMs = Math.max(worstCpuMs, Math.min(nowCpu - cpu, active, threadMs));
    wall = nowWall;
    cpu = nowCpu;
    thread = nowThread;
    elu = nowElu;
  };
  const timer = setInterval(tick, everyMs);
  return {
    stop() {
      tick();
      clearInterval(timer);
      return { worstWallMs, worstCpuMs };
    },
  };
}
