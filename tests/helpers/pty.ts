import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { afterThisTest } from "./cleanup.js";
import { OUTSIDE_CHECKOUT, tsxArgv } from "./outside-checkout.js";

/**
 * Runs an entry point of this repo in a pseudo-terminal, as a person at a terminal would.
 * No pty package is installed: python3's `pty` module (always there with python3) holds the
 * terminal's master side and relays bytes both ways; closing its stdin closes the terminal,
 * so the program gets SIGHUP as when a terminal window is closed.
 */
const RELAY = String.raw`
import fcntl, os, pty, select, signal, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.execvp(sys.argv[1], sys.argv[1:])
inputs = [fd, 0]
while fd in inputs:
    ready, _, _ = select.select(inputs, [], [])
    if 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            # The test closed the terminal: the kernel hangs up the program's side.
            inputs = []
            os.close(fd)
            fd = -1
            break
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            break
        os.write(1, data)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(128 - code if code < 0 else code)
`;

export interface Terminal {
  /** Types (or pastes) bytes into the terminal. */
  type(text: string): void;
  /** Everything the program has shown so far, with colours and cursor moves taken out. */
  screen(): string;
  /** The raw bytes the program wrote, escape sequences included. */
  raw(): string;
  /** Waits until the screen (from `from` on) contains the text or matches the pattern. */
  waitFor(expected: string | RegExp, options?: { from?: number; timeoutMs?: number }): Promise<void>;
  /** Closes the terminal window: the program gets SIGHUP. */
  close(): void;
  /** The program's process id (the relay's child). */
  exited: Promise<number | null>;
}

/** Starts `node --import tsx <script> <args>` in a new pseudo-terminal of 120×40. */
export function runInTerminal(script: string, args: string[], env: Record<string, string>): Terminal {
  const child = spawn("python3", ["-c", RELAY, process.execPath, ...tsxArgv(script, args)], {
    cwd: OUTSIDE_CHECKOUT,
    env: { PATH: process.env.PATH ?? "", HOME: env.AGENTKIT_HOME ?? "/nonexistent", TERM: "xterm-256color", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  afterThisTest(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let raw = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (raw += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  // The terminal turns "\n" into "\r\n" (ONLCR), so a program's own "\r\n" arrives as "\r\r\n".
  const screen = () => stripVTControlCharacters(raw).replace(/\r+\n/g, "\n");
  return {
    type: (text) => void child.stdin.write(text),
    screen,
    raw: () => raw,
    async waitFor(expected, { from = 0, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      const found = () => {
        const shown = screen().slice(from);
        return typeof expected === "string" ? shown.includes(expected) : expected.test(shown);
      };
      while (!found()) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`timed out waiting for ${String(expected)}; the terminal shows:\n${screen().slice(from)}\n(relay stderr: ${stderr})`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => void child.stdin.end(),
    exited,
  };
}
