import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { startLoopProbe } from "../../helpers/loop-probe.js";

/** Holds the loop for `ms` of this process's CPU time (not wall time: on a loaded machine the OS takes the core away). */
function spin(ms: number): void {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const until = cpu() + ms;
  while (cpu() < until);
}

describe("the loop probe that timing tests bound", () => {
  it("reports the event loop's own thread held for as long as it was", async () => {
    const probe = startLoopProbe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    spin(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(probe.stop().worstCpuMs).toBeGreaterThanOrEqual(150);
  });

  it.runIf(existsSync(`/proc/self/task/${process.pid}/stat`))(
    "counts neither a worker thread's CPU nor time the loop's thread was off the CPU (where Linux says the thread's own time)",
    async () => {
      // The loop's thread sleeps (as if the OS ran another process) while a worker spins on the
      // other core: the process's CPU and the loop's active time both pass 250 ms; its thread's CPU does not.
      const worker = new Worker("const until = performance.now() + 1000; while (performance.now() < until);", { eval: true });
      await new Promise((resolve) => worker.once("online", resolve));
      const probe = startLoopProbe();
      await new Promise((resolve) => setTimeout(resolve, 20));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { worstWallMs, worstCpuMs } = probe.stop();
      await worker.terminate();
      expect(worstWallMs).toBeGreaterThanOrEqual(250);
      expect(worstCpuMs).toBeLessThan(100);
    },
  );
});
