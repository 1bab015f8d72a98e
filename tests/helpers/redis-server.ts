import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { freePort } from "./free-port.js";

export interface RedisServer {
  url: string;
  port: number;
  /** Writes a dump and exits, as a Redis with persistence shuts down: the port then refuses connections. */
  stop(): Promise<void>;
  /** Stops it if running, then starts it again on the same port; the data of the last stop comes back from its dump. */
  restart(): Promise<void>;
  /** SIGSTOP: a server that accepts connections and answers nothing (a hung host). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

const STARTUP_MS = 5_000;
const started: Array<{ kill(): void; dir: string }> = [];

afterEach(async () => {
  const servers = started.splice(0);
  for (const server of servers) server.kill();
  await Promise.all(servers.map((s) => rm(s.dir, { recursive: true, force: true })));
});
// A worker that dies without its afterEach must not leave servers behind.
process.on("exit", () => {
  for (const server of started) server.kill();
});

/**
 * A real `redis-server` (the Debian package; .ci/run installs it) on a free port of 127.0.0.1,
 * in a temp folder, with no periodic saves and no append-only file. Stopped and removed after
 * each test.
 */
export async function startRedisServer(): Promise<RedisServer> {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed: apt-get install -y redis-server (.ci/run does this)");
  }
  const dir = await mkdtemp(join(tmpdir(), "agentkit-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const entry = { dir, kill: () => child?.kill("SIGKILL") };
  started.push(entry);

  const start = async () => {
    child = await launch(port, dir);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill("SIGCONT");
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    // Redis answers SHUTDOWN by closing the connection; its exit is what matters.
    await send(port, ["SHUTDOWN", "SAVE"]).catch(() => "");
    const late = setTimeout(() => running.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(late);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    pause: () => void child?.kill("SIGSTOP"),
    resume: () => void child?.kill("SIGCONT"),
  };
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no"];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}:\n${output}`);
    if ((await send(port, ["PING"]).catch(() => "")) === "+PONG\r\n") return child;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not answer PING within ${STARTUP_MS} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One command in RESP; its one-line answer (PING's +PONG; SHUTDOWN answers by closing). Tests inspect Redis with a real client. */
function send(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(1_000, () => {
      socket.destroy();
      reject(new Error("no answer"));
    });
    socket.on("error", reject);
    socket.on("connect", () => socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`));
    socket.on("data", (d: Buffer) => {
      answer += d.toString();
      if (!answer.includes("\r\n")) return;
      socket.destroy();
      resolve(answer);
    });
    socket.on("close", () => resolve(answer));
  });
}

