import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { freePort } from "../tests/helpers/free-port.js";
import { delay, makeTempDir, removeTempDir } from "./processes.js";

/**
 * A real redis-server on a free port of 127.0.0.1 for one bench run, as tests/helpers/redis-server.ts
 * starts it (no saves, no append-only file); that helper registers vitest hooks, so it cannot be
 * imported outside vitest.
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
  if (spawnSync("redis-server", ["--version"]).error) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  const dir = await makeTempDir("redis");
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 5000;
  while (!(await send(port, ["PING"]).catch(() => "")).startsWith("+PONG")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not start:\n${output}`);
    }
    await delay(20);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async usedMemoryMb() {
      const info = await send(port, ["INFO", "memory"], "used_memory_peak_perc");
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

/** One command in RESP; the answer read until `until` appears (or the first line). */
function send(port: number, args: string[], until = "\r\n"): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(2000, () => {
      socket.destroy();
      reject(new Error("no answer"));
    });
    socket.on("error", reject);
    socket.on("connect", () => socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`));
    socket.on("data", (d: Buffer) => {
      answer += d.toString();
      if (!answer.includes(until)) return;
      socket.destroy();
      resolve(answer);
    });
    socket.on("close", () => resolve(answer));
  });
}
