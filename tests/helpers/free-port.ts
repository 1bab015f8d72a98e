import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Where the OS takes ports from when it picks one (a server on port 0, a connection's own end):
 * Linux says it in /proc; elsewhere the IANA range.
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux: the IANA range below.
  }
  return [49152, 65535];
}

/** Whether something may listen on the port now, by listening on it a moment. */
function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, for a process the test starts to
 * listen on later. Picked below the OS's own range: a port the OS handed out and took back
 * (listen(0), then close) could be handed to another test's server or connection before the
 * process listened on it (CI once failed a test with EADDRINUSE that way). Tests running beside
 * each other pick at random among some ten thousand ports.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const top = Math.max(2_048, Math.min(low, 65_536)) - 1;
  const bottom = Math.max(1_024, top - 12_000);
  for (let tries = 0; tries < 200; tries++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom + 1));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port between ${bottom} and ${top}`);
}
