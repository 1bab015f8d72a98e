import type { ChildProcess } from "node:child_process";
import { freePort } from "../tests/helpers/free-port.js";
import { launchRedis, redisCommand, requireRedisServer } from "../tests/helpers/redis-process.js";
import { makeTempDir, removeTempDir } from "./processes.js";

/**
 * A real redis-server on a free port of 127.0.0.1 for one bench run, started as the tests start
 * it (tests/helpers/redis-process.ts), killed at the end of the run.
 */
export interface BenchRedis {
  url: string;
  port: number;
  pid: number;
  /** used_memory of INFO memory, MB. */
  usedMemoryMb(): Promise<number>;
  close(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startBenchRedis(): Promise<BenchRedis> {
  requireRedisServer();
  const dir = await makeTempDir("redis");
  const port = await freePort();
  const child = await launchRedis(port, dir);
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async usedMemoryMb() {
      const info = await redisCommand(port, ["INFO", "memory"], "used_memory_peak_perc");
      return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN) / 1024 / 1024;
    },
    async close() {
      child.kill("SIGKILL");
      await exited;
      running.delete(child);
      removeTempDir(dir);
    },
  };
}
