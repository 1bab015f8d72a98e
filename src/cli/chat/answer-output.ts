import { printable } from "../../lib/printable.js";

/**
 * Discord's commands as the terminal names them. The model reads hints written for Discord
 * (a blocked memory section says "see /memory view"; earlier conversations may name Discord's
 * commands); the person at the terminal is shown the command that works here.
 */
const TERMINAL_COMMANDS: readonly [string, string][] = [
  ["/memory view", "/memory"],
  ["/memory history", "/history"],
  ["/memory undo", "/undo"],
  ["/memory search", "/search"],
  ["/memory settings", "/settings"],
];

/** Discord's command names in `text` replaced by the terminal's (whole text, not streamed). */
export function terminalHints(text: string): string {
  let out = text;
  for (const [discord, terminal] of TERMINAL_COMMANDS) out = out.replaceAll(discord, terminal);
  return out;
}

/** The longest tail of `text` that could still grow into one of Discord's command names. */
function unfinishedTail(text: string): number {
  const slash = text.lastIndexOf("/");
  if (slash < 0) return 0;
  const tail = text.slice(slash);
  return TERMINAL_COMMANDS.some(([discord]) => discord.length > tail.length && discord.startsWith(tail)) ? tail.length : 0;
}

/**
 * Prints a streamed answer: someone else's text, so control characters are shown, never
 * obeyed, and Discord's command names become the terminal's. A delta may end in the middle of
 * a command name; that tail waits for the next delta.
 */
export class AnswerOutput {
  private held = "";
  private printed = false;
  private endsLine = true;

  constructor(private readonly write: (text: string) => void) {}

  push(delta: string): void {
    const text = this.held + delta;
    const keep = unfinishedTail(text);
    this.held = text.slice(text.length - keep);
    this.emit(text.slice(0, text.length - keep));
  }

  /** Flushes what is held and ends the line; true when any text was shown. */
  end(): boolean {
    this.emit(this.held);
    this.held = "";
    if (!this.endsLine) this.write("\n");
    this.endsLine = true;
    return this.printed;
  }

  private emit(text: string): void {
    if (text === "") return;
    this.write(printable(terminalHints(text)));
    this.printed = true;
    this.endsLine = text.endsWith("\n");
  }
}
