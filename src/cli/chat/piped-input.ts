import { createInterface } from "node:readline";
import type { ChatInput, Interrupt } from "./chat-input.js";

/** Lines from a pipe or a file: each line is one message or command, in order. */
export class PipedInput implements ChatInput {
  readonly interactive = false;
  private readonly lines: AsyncIterator<string>;
  private readonly close$: Promise<undefined>;
  private closeNow!: () => void;
  private busy = false;
  private closed = false;

  constructor(
    stream: NodeJS.ReadableStream,
    private readonly onInterrupt: (kind: Interrupt) => void,
  ) {
    const rl = createInterface({ input: stream, terminal: false, crlfDelay: Infinity });
    this.lines = rl[Symbol.asyncIterator]();
    this.close$ = new Promise((resolve) => (this.closeNow = () => resolve(undefined)));
    void this.close$.then(() => rl.close());
  }

  async next(): Promise<string | undefined> {
    while (!this.closed) {
      const line = await Promise.race([this.lines.next(), this.close$]);
      if (!line || line.done) return undefined;
      const text = line.value.trim();
      if (text === "") continue;
      this.busy = true;
      return text;
    }
    return undefined;
  }

  ready(): void {
    this.busy = false;
  }

  keep(): void {}

  interrupt(): void {
    this.onInterrupt(this.busy ? "busy" : "empty");
  }

  leavePrompt(): void {}

  close(): void {
    this.closed = true;
    this.closeNow();
  }
}
