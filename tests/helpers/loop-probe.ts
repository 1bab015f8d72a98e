/**
 * A timer on the event loop that notes how late each of its ticks came: the wall-clock gap,
 * and the CPU time this process spent in that gap. On a busy machine (other processes, two
 * cores) a gap can be long because the OS ran someone else; the CPU time in it is what our
 * own work held the loop for, so that is the figure a test bounds tightly.
 */
export interface LoopProbe {
  stop(): { worstWallMs: number; worstCpuMs: number };
}

function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function startLoopProbe(everyMs = 5): LoopProbe {
  let wall = performance.now();
  let cpu = cpuNow();
  let worstWallMs = 0;
  let worstCpuMs = 0;
  const tick = () => {
    const nowWall = performance.now();
    const nowCpu = cpuNow();
    worstWallMs = Math.max(worstWallMs, nowWall - wall);
    worstCpuMs = Math.max(worstCpuMs, nowCpu - cpu);
    wall = nowWall;
    cpu = nowCpu;
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
