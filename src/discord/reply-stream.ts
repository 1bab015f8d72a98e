import type { Message, MessageCreateOptions, MessageEditOptions } from "discord.js";
import type { Logger } from "../lib/logger.js";
import { splitForDiscord, splitStreaming } from "./split-message.js";

/** Model output must never ping anyone, on a send or on an edit (Discord re-parses edits). */
export const NO_MENTIONS = { parse: [] } as const;

export interface ReplyChannel {
  send(options: MessageCreateOptions): Promise<Message>;
  sendTyping(): Promise<unknown>;
}

export interface ReplyStreamOptions {
  log: Logger;
  /** Least time between two edits of one message. */
  editIntervalMs?: number;
  /** How long the first text may wait for more, so a quick short answer is one message, no edit. */
  firstSendDelayMs?: number;
  /** Typing shows only when no text has come by then: a fast answer needs no typing call. */
  typingDelayMs?: number;
  /**
   * Buttons the message being written carries while the answer streams (Stop); gone at the end.
   * Built on the first streaming send only: a quick answer never needs them.
   */
  whileStreaming?: () => Components;
}

type Components = NonNullable<MessageCreateOptions["components"]>;

/** Typing lasts about 10 s on Discord; refresh a little before it fades. */
const TYPING_REFRESH_MS = 8_000;

/**
 * Streams one answer into Discord: the first text is sent at once, then the message is
 * edited at most about once a second; past 2000 characters the answer continues in new
 * messages, split where splitForDiscord says.
 */
export class ReplyStream {
  private text = "";
  /** Each message sent, with the text and the buttons (as JSON) it shows now. */
  private readonly messages: { message: Message; content: string; buttons: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private typing: NodeJS.Timeout | undefined;
  /** When the last send or edit started; 0 until the first one is scheduled. */
  private lastFlush = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly interval: number;
  private buttons: Components | undefined;

  constructor(
    private readonly channel: ReplyChannel,
    private readonly options: ReplyStreamOptions,
  ) {
    this.interval = options.editIntervalMs ?? 1_000;
  }

  /** Shows typing until the first text arrives; never waited on. */
  startTyping(): void {
    const send = () => void this.channel.sendTyping().catch(() => {});
    this.typing = setTimeout(() => {
      if (this.lastFlush !== 0) return;
      send();
      this.typing = setInterval(send, TYPING_REFRESH_MS);
    }, this.options.typingDelayMs ?? 400);
  }

  push(delta: string): void {
    this.text += delta;
    if (this.text.trim() === "" || this.timer) return;
    // The first text waits briefly for more (a short answer becomes one message); then one update per interval.
    const wait = this.lastFlush === 0 ? (this.options.firstSendDelayMs ?? 150) : Math.max(0, this.lastFlush + this.interval - Date.now());
    if (this.lastFlush === 0) this.lastFlush = Date.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.enqueue(() => this.flush(splitStreaming(this.text)));
    }, wait);
  }

  /** Writes the final text exactly, with an optional last line (the 💾 line) and buttons on the last message. */
  async finish(footer?: string, components: Components = []): Promise<void> {
    this.stop();
    const body = this.text.trim() === "" ? "…" : this.text;
    const full = footer ? `${body.trimEnd()}\n${footer}` : body;
    this.enqueue(() => this.flush({ done: splitForDiscord(full), current: "" }, components));
    await this.chain;
  }

  /** Ends with a short line for the person; text already shown stays. */
  async fail(line: string): Promise<void> {
    this.stop();
    const full = this.text.trim() === "" ? line : `${this.text.trimEnd()}\n\n${line}`;
    this.enqueue(() => this.flush({ done: splitForDiscord(full), current: "" }, []));
    await this.chain;
  }

  private streamingButtons(): Components {
    this.buttons ??= this.options.whileStreaming?.() ?? [];
    return this.buttons;
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopTyping();
  }

  private stopTyping(): void {
    // clearTimeout and clearInterval are interchangeable in Node; both forms are used for typing.
    clearInterval(this.typing);
    this.typing = undefined;
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((error: unknown) => {
      this.options.log.warn({ err: String(error) }, "could not update the reply in Discord");
    });
  }

  /** `final`: the buttons the last message keeps once the answer is complete; absent while it streams. */
  private async flush({ done, current }: { done: string[]; current: string }, final?: Components): Promise<void> {
    const chunks = current.trim() === "" ? done : [...done, current];
    this.lastFlush = Date.now();
    this.stopTyping();
    for (const [i, content] of chunks.entries()) {
      const sent = this.messages[i];
      // Buttons ride on the last message's own send or edit; earlier messages lose theirs.
      const components = i < chunks.length - 1 ? [] : (final ?? this.streamingButtons());
      const buttons = JSON.stringify(components);
      if (!sent) {
        const message = await this.channel.send({ content, allowedMentions: NO_MENTIONS, ...(components.length > 0 ? { components } : {}) });
        this.messages.push({ message, content, buttons });
      } else if (sent.content !== content || sent.buttons !== buttons) {
        const edit: MessageEditOptions = { content, allowedMentions: NO_MENTIONS, ...(sent.buttons !== buttons ? { components } : {}) };
        await sent.message.edit(edit);
        Object.assign(sent, { content, buttons });
      }
    }
  }
}
