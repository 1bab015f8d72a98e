import type { Message, MessageCreateOptions } from "discord.js";
import type { Say } from "../lib/locale.js";
import type { Logger } from "../lib/logger.js";
import { cutChars } from "../lib/text.js";
import type { Refusal } from "./fair-use.js";
import { NO_MENTIONS } from "./reply-stream.js";

/** Refusals further apart than this are two bursts, each with its own notice. */
const BURST_QUIET_MS = 60_000;
/** A notice is edited at most this often as more messages go unread (Discord rate-limits edits). */
const EDIT_EVERY_MS = 1_000;
const EXCERPT_CHARS = 40;

export interface NoticeChannel {
  id: string;
  send(options: MessageCreateOptions): Promise<Message>;
}

interface Notice {
  sent: Promise<Message | undefined>;
  unread: string[];
  refusal: Refusal;
  say: Say;
  lastAt: number;
  edit: NodeJS.Timeout | undefined;
  closed: boolean;
}

/** A few words of a message that was not read, so the person knows which one. */
export function excerptOf(message: Message, words: string): string {
  const text = words.split(/\r?\n/).join(" ").trim();
  if (text) return cutChars(text, EXCERPT_CHARS);
  const files = [...message.attachments.values()].map((a) => a.name);
  const stickers = [...message.stickers.values()].map((s) => s.name);
  return cutChars([...files, ...stickers].join(", ") || "…", EXCERPT_CHARS);
}

/** Which messages were not read: all of them when few, else how many, the first and the last. */
function unreadList(unread: string[], say: Say): string {
  const quoted = unread.map((text) => `“${text}”`);
  if (quoted.length === 1) return say(`your message ${quoted[0]}`, `你的消息${quoted[0]}`);
  if (quoted.length <= 3) return say(`these ${quoted.length} messages: ${quoted.join(", ")}`, `这 ${quoted.length} 条消息：${quoted.join("、")}`);
  return say(`${quoted.length} messages, from ${quoted[0]} to ${quoted.at(-1)}`, `${quoted.length} 条消息（从${quoted[0]}到${quoted.at(-1)}）`);
}

/** The line for messages that were not read: why, which, and when to send them again. */
function busyLine(refusal: Refusal, unread: string[], say: Say): string {
  const which = unreadList(unread, say);
  const again = unread.length === 1 ? say("it", "它") : say("them", "它们");
  switch (refusal.reason) {
    case "rate":
      return say(
        `⏳ You're sending messages faster than I can take them (more than ${refusal.perMinute} a minute), so I didn't read ${which}. Please send ${again} again in a minute.`,
        `⏳ 你发消息太快了（每分钟超过 ${refusal.perMinute} 条），所以我没有读${which}。请过一分钟再发一次。`,
      );
    case "queue":
      return refusal.waiting === 0
        ? say(
            `⏳ I'm still answering, so I didn't read ${which}. Please send ${again} again once I've answered.`,
            `⏳ 我还在回答，所以没有读${which}。等我回答完再发一次吧。`,
          )
        : say(
            `⏳ I'm still answering, and ${refusal.waiting} more of your messages are waiting for me, so I didn't read ${which}. Please send ${again} again once I've answered.`,
            `⏳ 我还在回答，还有 ${refusal.waiting} 条消息在等我，所以没有读${which}。等我回答完再发一次吧。`,
          );
    case "elsewhere":
      return say(
        `⏳ I'm already answering you in ${refusal.conversations} other conversation${refusal.conversations === 1 ? "" : "s"}, so I didn't read ${which}. Please send ${again} again once one of them is done.`,
        `⏳ 我正在另外 ${refusal.conversations} 个对话里回答你，所以没有读${which}。等其中一个回答完再发一次吧。`,
      );
  }
}

/** /chat refused: the only limit a new conversation meets before it has anything to answer. */
export function startRefusedLine(refusal: Refusal, say: Say): string {
  const perMinute = refusal.reason === "rate" ? refusal.perMinute : 0;
  return say(
    `⏳ That's more than ${perMinute} messages a minute, so I didn't start a conversation. Please try again in a minute.`,
    `⏳ 每分钟超过 ${perMinute} 条消息了，所以我没有开始新的对话。请过一分钟再试。`,
  );
}

/**
 * Tells a person which of their messages were not read: one notice per burst, edited as more
 * come, so a flood of messages never gets a flood of answers. A burst ends when the bot answers
 * in that channel, or after a minute without refusals.
 */
export class BusyNotices {
  /** By channel, then by person. */
  private readonly notices = new Map<string, Map<string, Notice>>();
  private lastSweep = Date.now();

  constructor(private readonly log: Logger) {}

  refused(channel: NoticeChannel, userId: string, excerpt: string, refusal: Refusal, say: Say): void {
    const now = Date.now();
    if (now - this.lastSweep > BURST_QUIET_MS) this.sweep(now);
    const people = this.notices.get(channel.id) ?? new Map<string, Notice>();
    this.notices.set(channel.id, people);
    const open = people.get(userId);
    if (open && !open.closed && now - open.lastAt < BURST_QUIET_MS) {
      Object.assign(open, { refusal, say, lastAt: now });
      open.unread.push(excerpt);
      open.edit ??= setTimeout(() => this.edit(open), EDIT_EVERY_MS).unref();
      return;
    }
    if (open) open.closed = true;
    const unread = [excerpt];
    const sent = channel.send({ content: busyLine(refusal, unread, say), allowedMentions: NO_MENTIONS }).catch((error: unknown) => {
      this.log.warn({ err: String(error) }, "could not say which messages were not read");
      return undefined;
    });
    people.set(userId, { sent, unread, refusal, say, lastAt: now, edit: undefined, closed: false });
  }

  /** The bot answered in the channel: later refusals start a new notice below the answer. */
  answered(channelId: string): void {
    for (const notice of this.notices.get(channelId)?.values() ?? []) notice.closed = true;
    this.forgetClosed(channelId);
  }

  /** Shutdown: the pending edits go out now. */
  flush(): void {
    for (const people of this.notices.values()) {
      for (const notice of people.values()) {
        if (notice.edit) {
          clearTimeout(notice.edit);
          this.edit(notice);
        }
      }
    }
    this.notices.clear();
  }

  private edit(notice: Notice): void {
    notice.edit = undefined;
    const content = busyLine(notice.refusal, notice.unread, notice.say);
    void notice.sent
      .then((message) => message?.edit({ content, allowedMentions: NO_MENTIONS }))
      .catch((error: unknown) => this.log.warn({ err: String(error) }, "could not update the line about unread messages"));
  }

  /** Drops a channel's notices whose burst is over and whose edits are done, so the map holds only live bursts. */
  private forgetClosed(channelId: string, now = Date.now()): void {
    const people = this.notices.get(channelId);
    if (!people) return;
    for (const [userId, notice] of people) {
      if ((notice.closed || now - notice.lastAt >= BURST_QUIET_MS) && !notice.edit) people.delete(userId);
    }
    if (people.size === 0) this.notices.delete(channelId);
  }

  /** Once a minute: channels that never get an answer (a refused mention) are cleared too. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const channelId of [...this.notices.keys()]) this.forgetClosed(channelId, now);
  }
}
