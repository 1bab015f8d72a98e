import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { connect } from "node:net";

/**
 * Starting a real `redis-server` (the Debian package) and talking to it in raw RESP, without
 * vitest: the tests' helper (redis-server.ts) and the bench both use it.
 */

const STARTUP_MS = 5_000;

export function requireRedisServer(): void {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed: apt-get install -y redis-server (.ci/run does this)");
  }
}

export interface RedisOptions {
  /**
   * An append-only file, in plain commands (no RDB preamble, so a test can read what it holds).
   * Off by default.
   */
  appendOnly?: boolean;
}

/** A redis-server on 127.0.0.1:`port` in `dir`, no periodic saves, no append-only file unless asked; resolves once it answers PING. */
export async function launchRedis(port: number, dir: string, options: RedisOptions = {}): Promise<ChildProcess> {
  const aof = options.appendOnly ? ["--appendonly", "yes", "--aof-use-rdb-preamble", "no", "--appendfsync", "always"] : ["--appendonly", "no"];
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...aof, "--daemonize", "no"];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}:\n${output}`);
    if ((await redisCommand(port, ["PING"]).catch(() => "")) === "+PONG\r\n") return child;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not answer PING within ${STARTUP_MS} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One command in RESP; the answer read until `until` appears (by default its first line; SHUTDOWN
 * answers by closing). Enough for PING, SHUTDOWN and INFO; tests inspect data with a real client.
 */
export function redisCommand(port: number, args: string[], until = "\r\n"): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(2_000, () => {
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
