import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterThisTest } from "./cleanup.js";
import { freePort } from "./free-port.js";
import { launchRedis, redisCommand, requireRedisServer, type RedisOptions } from "./redis-process.js";

export interface RedisServer {
  url: string;
  port: number;
  /** Where it keeps its files (the append-only file is in appendonlydir/). */
  dir: string;
  /** Writes a dump and exits, as a Redis with persistence shuts down: the port then refuses connections. */
  stop(): Promise<void>;
  /** Stops it if running, then starts it again on the same port; the data of the last stop comes back from its dump. */
  restart(): Promise<void>;
  /** SIGSTOP: a server that accepts connections and answers nothing (a hung host). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

const started = new Set<{ kill(): void; dir: string }>();

// A worker that dies without running its cleanups must not leave servers behind.
process.on("exit", () => {
  for (const server of started) server.kill();
});

/**
 * A real `redis-server` (the Debian package; .ci/run installs it) on a free port of 127.0.0.1,
 * in a temp folder, with no periodic saves and no append-only file (unless `appendOnly`). Stopped
 * and removed after each test.
 */
export async function startRedisServer(options: RedisOptions = {}): Promise<RedisServer> {
  requireRedisServer();
  const dir = await mkdtemp(join(tmpdir(), "agentkit-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const entry = { dir, kill: () => child?.kill("SIGKILL") };
  started.add(entry);
  afterThisTest(async () => {
    started.delete(entry);
    entry.kill();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async () => {
    child = await launchRedis(port, dir, options);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill("SIGCONT");
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    // Redis answers SHUTDOWN by closing the connection; its exit is what matters.
    await redisCommand(port, ["SHUTDOWN", "SAVE"]).catch(() => "");
    const late = setTimeout(() => running.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(late);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    pause: () => void child?.kill("SIGSTOP"),
    resume: () => void child?.kill("SIGCONT"),
  };
}
