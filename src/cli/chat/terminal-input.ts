import { EventEmitter } from "node:events";
import { createInterface, type Interface } from "node:readline";
import type { ReadStream, WriteStream } from "node:tty";
import { printable } from "../../lib/printable.js";
import { messageText, type ChatInput, type Interrupt } from "./chat-input.js";

/**
 * The keyboard of a person at a terminal. readline edits the line (cursor keys, history, wide
 * characters); this class decides what reaches it, because readline alone cannot:
 * - Ctrl+C is seen at once, also while an answer streams (the terminal is in raw mode the
 *   whole time, so it is a byte, not a signal, and nothing is echoed by the terminal itself);
 * - what is typed while an answer streams is held back, unshown, and given to readline at the
 *   next prompt, as if typed then;
 * - a paste of several lines is one message: bracketed paste (the terminal marks the paste;
 *   it waits in the editor for Enter), or, for terminals without it, lines that arrive within
 *   a few milliseconds of each other (no one types that fast) are sent together.
 */

const PROMPT = "> ";
const CONTINUATION = "  ";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const CTRL_C = "\x03";
/** A line end followed by more input within this time was part of a paste, not Enter (no one types that fast). */
const JOIN_MS = 25;
/** Typing held while busy, at most: a paste bigger than this waits nowhere. */
const MAX_HELD_CHARS = 1_000_000;
/** A split paste marker at the end of a read waits this long for the rest. */
const CARRY_MS = 30;

/** readline's input: bytes this class decides to give it, as a TTY whose raw mode is stdin's. */
class KeyFeed extends EventEmitter {
  readonly isTTY = true;

  constructor(private readonly stdin: ReadStream) {
    super();
  }

  get isRaw(): boolean {
    return this.stdin.isRaw;
  }

  setRawMode(mode: boolean): this {
    // A terminal that is gone (SIGHUP) cannot change mode; nothing is left to restore.
    try {
      this.stdin.setRawMode(mode);
    } catch {}
    return this;
  }

  pause(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  type(text: string): void {
    this.emit("data", text);
  }
}

/** readline's output: the terminal, except that a resize while an answer streams does not redraw a prompt into it. */
class Screen extends EventEmitter {
  readonly isTTY = true;
  quiet = true;

  constructor(private readonly out: WriteStream) {
    super();
    out.on("resize", () => {
      if (!this.quiet) this.emit("resize");
    });
  }

  get columns(): number {
    return this.out.columns;
  }

  get rows(): number {
    return this.out.rows;
  }

  write(text: string): boolean {
    return this.out.write(text);
  }
}

/** Where a chunk of input ends a paste marker that may continue in the next read. */
function splitMarker(text: string): number {
  const escapeAt = text.lastIndexOf("\x1b");
  if (escapeAt < 0 || text.length - escapeAt >= PASTE_START.length) return text.length;
  const tail = text.slice(escapeAt);
  return PASTE_START.startsWith(tail) || PASTE_END.startsWith(tail) ? escapeAt : text.length;
}

export class TerminalInput implements ChatInput {
  readonly interactive = true;
  private readonly feed: KeyFeed;
  private readonly screen: Screen;
  private readonly rl: Interface;
  /** Between a message handed out and ready(): typing is held. */
  private busy = true;
  private ended = false;
  /** Typed while busy, with when it arrived (a paste is told from typing by timing). */
  private held: { text: string; at: number }[] = [];
  private heldChars = 0;
  private droppedChars = 0;
  /** Lines of the message being composed (a paste, or a burst of lines). */
  private draft: string[] = [];
  private pasting = false;
  /** A line end that sends the message unless more input follows within JOIN_MS. */
  private lineEndAt: number | undefined;
  private sendTimer: NodeJS.Timeout | undefined;
  private sendCheck: NodeJS.Immediate | undefined;
  private afterCR = false;
  private carry = "";
  private carryTimer: NodeJS.Timeout | undefined;
  /** A line readline ends for us (Ctrl+C) is not part of any message. */
  private discarding = false;
  private kept: string | undefined;
  private readonly messages: string[] = [];
  private waiter: ((text: string | undefined) => void) | undefined;
  private readonly restore = () => this.giveBack();

  constructor(
    private readonly stdin: ReadStream,
    private readonly stdout: WriteStream,
    private readonly onInterrupt: (kind: Interrupt) => void,
    private readonly onDropped: (chars: number) => void,
  ) {
    this.feed = new KeyFeed(stdin);
    this.screen = new Screen(stdout);
    this.rl = createInterface({
      input: this.feed as unknown as NodeJS.ReadableStream,
      output: this.screen as unknown as NodeJS.WritableStream,
      terminal: true,
      prompt: PROMPT,
      historySize: 200,
    });
    this.rl.on("line", (line) => {
      if (!this.discarding) this.draft.push(line);
    });
    // Ctrl+D on an empty line.
    this.rl.on("close", () => this.finish());
    stdin.setEncoding("utf8");
    stdin.on("data", (chunk: string) => this.receive(chunk, Date.now()));
    stdin.on("end", () => this.finish());
    // A terminal that went away (EIO after SIGHUP) ends the input like Ctrl+D.
    stdin.on("error", () => this.finish());
    stdout.write(BRACKETED_PASTE_ON);
    process.on("exit", this.restore);
  }

  next(): Promise<string | undefined> {
    const message = this.messages.shift();
    if (message !== undefined) return Promise.resolve(message);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  ready(): void {
    if (this.ended) return;
    if (this.droppedChars > 0) {
      this.onDropped(this.droppedChars);
      this.droppedChars = 0;
    }
    this.busy = false;
    this.screen.quiet = false;
    this.rl.setPrompt(PROMPT);
    const kept = this.kept;
    this.kept = undefined;
    if (kept !== undefined) {
      const lines = kept.split("\n");
      const last = lines.pop() ?? "";
      if (lines.length > 0) {
        this.screen.write(`${PROMPT}${printable(lines.join(`\n${CONTINUATION}`))}\n`);
        this.draft = lines;
        this.rl.setPrompt(CONTINUATION);
      }
      this.rl.prompt();
      this.rl.write(last);
    } else {
      this.rl.prompt();
    }
    this.replay();
  }

  keep(text: string): void {
    this.kept = text;
  }

  interrupt(): void {
    if (this.ended || this.busy) {
      this.onInterrupt("busy");
      return;
    }
    const hadText = this.draft.length > 0 || this.rl.line !== "";
    this.cancelSend();
    this.pasting = false;
    this.draft = [];
    // Show ^C after the text, then let readline end the line (its own bookkeeping of rows stays right).
    this.rl.write(null, { ctrl: true, name: "e" });
    this.screen.write("^C");
    this.discarding = true;
    this.feed.type("\r");
    this.discarding = false;
    if (hadText) {
      this.rl.setPrompt(PROMPT);
      this.rl.prompt();
      this.onInterrupt("text");
    } else {
      this.busy = true;
      this.screen.quiet = true;
      this.onInterrupt("empty");
    }
  }

  leavePrompt(): void {
    if (this.busy || this.ended) return;
    this.busy = true;
    this.screen.quiet = true;
    this.cancelSend();
    this.screen.write("\n");
  }

  close(): void {
    if (!this.ended) this.finish();
    this.cancelSend();
    clearTimeout(this.carryTimer);
    this.rl.close();
    this.stdin.pause();
    this.giveBack();
    process.off("exit", this.restore);
  }

  /** Bracketed paste off and the terminal's own line mode back, whatever way the chat ends. */
  private giveBack(): void {
    try {
      this.stdin.setRawMode(false);
    } catch {}
    if (this.stdout.writable) this.stdout.write(BRACKETED_PASTE_OFF);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.busy = true;
    this.waiter?.(undefined);
    this.waiter = undefined;
  }

  private receive(chunk: string, at: number, flush = false): void {
    clearTimeout(this.carryTimer);
    let text = this.carry + chunk;
    this.carry = "";
    const cut = flush ? text.length : splitMarker(text);
    if (cut < text.length) {
      this.carry = text.slice(cut);
      text = text.slice(0, cut);
      // Nothing followed: it was a key of its own (Escape), not half a marker.
      this.carryTimer = setTimeout(() => this.receive("", Date.now(), true), CARRY_MS);
    }
    const pieces = text.split(CTRL_C);
    pieces.forEach((piece, i) => {
      if (i > 0) this.interrupt();
      if (piece === "" || this.ended) return;
      if (this.busy || !this.consume(piece, at, true)) this.hold(piece, at);
    });
  }

  /** Input typed while busy, given to readline now; it may send a message, which makes the input busy again. */
  private replay(): void {
    while (!this.busy && this.held.length > 0) {
      const next = this.held[0]!;
      if (!this.consume(next.text, next.at, false)) return;
      this.held.shift();
      this.heldChars -= next.text.length;
    }
  }

  private hold(text: string, at: number): void {
    if (this.heldChars + text.length > MAX_HELD_CHARS) {
      this.droppedChars += text.length;
      return;
    }
    this.held.push({ text, at });
    this.heldChars += text.length;
  }

  /**
   * Gives a piece of input to readline, deciding where messages end. False when a waiting
   * line end turned out to end a message before this piece (it arrived later than JOIN_MS):
   * the message is sent and the piece waits. Live input counts from when a line end was
   * handled (a big read takes time); held input from when it was typed.
   */
  private consume(text: string, at: number, live: boolean): boolean {
    // Read while the decision waited for the poll: it was already there, so it continues the paste.
    const waitingRead = live && this.sendCheck !== undefined;
    this.cancelTimer();
    if (this.lineEndAt !== undefined && !waitingRead && at - this.lineEndAt > JOIN_MS) {
      this.send();
      if (this.busy) return false;
    }
    let start = 0;
    const typeText = (end: number) => {
      if (end > start) {
        this.feed.type(text.slice(start, end));
        // Text after a line end within JOIN_MS: the lines belong together.
        this.lineEndAt = undefined;
      }
    };
    let i = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (c === "\n" && this.afterCR && i === 0) {
        // The \n of a \r\n split across two reads.
        this.afterCR = false;
        start = i = 1;
        continue;
      }
      if (c === "\r" || c === "\n") {
        typeText(i);
        this.feed.type("\r");
        if (!this.pasting) this.lineEndAt = live ? Date.now() : at;
        i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
        start = i;
        continue;
      }
      if (c === "\x1b" && (text.startsWith(PASTE_START, i) || text.startsWith(PASTE_END, i))) {
        typeText(i);
        this.pasting = text.startsWith(PASTE_START, i);
        i += PASTE_START.length;
        start = i;
        continue;
      }
      i++;
    }
    typeText(text.length);
    this.afterCR = text.endsWith("\r");
    if (this.lineEndAt !== undefined) {
      // Decided after the next poll for input: a read already waiting continues the paste.
      this.sendTimer = setTimeout(() => (this.sendCheck = setImmediate(() => this.send())), Math.max(0, this.lineEndAt + JOIN_MS - Date.now()));
    }
    return true;
  }

  /** The composed lines are one message: handed out, or dropped when blank (a new prompt). */
  private send(): void {
    this.cancelSend();
    const text = messageText(this.draft);
    this.draft = [];
    if (text === undefined) {
      this.rl.setPrompt(PROMPT);
      this.rl.prompt();
      return;
    }
    this.busy = true;
    this.screen.quiet = true;
    if (this.waiter) {
      this.waiter(text);
      this.waiter = undefined;
    } else {
      this.messages.push(text);
    }
  }

  private cancelTimer(): void {
    clearTimeout(this.sendTimer);
    clearImmediate(this.sendCheck);
    this.sendTimer = undefined;
    this.sendCheck = undefined;
  }

  private cancelSend(): void {
    this.cancelTimer();
    this.lineEndAt = undefined;
  }
}
