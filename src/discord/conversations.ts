import { ChannelType, type Message, type TextBasedChannel } from "discord.js";
import { KeyedMutex } from "../lib/keyed-mutex.js";
import type { SessionSummary } from "../engine/session-engine.js";
import type { Guest, SessionRecord } from "../sessions/session-record.js";
import { sayIn, type Say } from "../lib/locale.js";
import { refusalLine } from "./access.js";
import type { Access, Refusal } from "../lib/access.js";
import type { ConversationControl, Person } from "./bot-context.js";
import { Answers, type OpenSession } from "./answer.js";
import { BusyNotices, excerptOf, startRefusedLine } from "./busy-notice.js";
import { FairUse } from "./fair-use.js";
import { withoutMentionOf } from "./incoming.js";
import { type ClosingDeps, sendReceipt } from "./closing.js";
import type { ReceiptPlace } from "./views/receipt.js";
import { NO_MENTIONS, type ReplyChannel } from "./reply-stream.js";

export interface ConversationDeps extends ClosingDeps {
  /** Who may use the bot (the allow lists; membership for DMs). */
  access: Access;
}

type AnswerChannel = TextBasedChannel & ReplyChannel & { id: string };

const THREAD_NAME_LIMIT = 100;
/** A refused DM is answered at most this often per person. */
const REFUSAL_QUIET_MS = 60 * 60_000;

/** A message admitted to a conversation, and how its turn runs (with the messages that waited for it). */
interface Pending {
  message: Message;
  /** What the person wrote, without the mention of the bot. */
  words: string;
  /** The language of the conversation (or of the person), for a line saying it was not read. */
  locale: string | undefined;
  run: (batch: Pending[]) => Promise<void>;
}

/** Discord threads and DMs as sessions: who may talk, which session a message belongs to. */
export class Conversations implements ConversationControl {
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Serialises "find the open session or open one" per channel, so two quick messages share one. */
  private readonly opening = new KeyedMutex();
  /** When each person was last told, per reason, that their DMs are refused. */
  private readonly refusedDms = new Map<string, number>();
  /** Per person: messages a minute and conversations at once; per conversation: what waits for its answer. */
  private readonly fairUse: FairUse<Pending>;
  private readonly notices: BusyNotices;
  /** The turns themselves: what a message brings, the streamed reply, its footer (answer.ts). */
  private readonly answers: Answers;

  constructor(private readonly deps: ConversationDeps) {
    this.fairUse = new FairUse(deps.config.fairUse);
    this.notices = new BusyNotices(deps.log);
    this.answers = new Answers(deps, this.notices);
  }

  /** /chat: undefined when the person may start a conversation now (counted), else the line to answer with. */
  mayStart(userId: string, say: Say): string | undefined {
    const refusal = this.fairUse.start(userId);
    return refusal && startRefusedLine(refusal, say);
  }

  /** Entry point for every messageCreate. */
  async onMessage(message: Message): Promise<void> {
    if (message.author.bot || message.system) return;
    const me = this.deps.client.user;
    if (!me) return;
    const caller = {
      userId: message.author.id,
      guildId: message.guildId ?? undefined,
      roleIds: message.member ? [...message.member.roles.cache.keys()] : [],
    };
    const person: Person = {
      userId: message.author.id,
      displayName: message.member?.displayName ?? message.author.globalName ?? message.author.username,
      locale: undefined,
    };
    if (message.channel.type === ChannelType.DM) {
      const refusal = await this.deps.access.check(caller);
      if (refusal) return this.refuseDm(message, refusal);
      await this.track(this.inDm(message, person));
      return;
    }
    if (message.channel.isThread()) {
      const record = await this.deps.engine.sessionIn(message.channelId);
      if (!record) return;
      // The owner's words reach the model, and those of members the owner invited into an open
      // conversation (under their own names); anyone else is not heard. The owner's memory is in the prompt.
      const guest = record.status === "open" ? record.guests?.find((g) => g.userId === message.author.id) : undefined;
      if ((record.userId !== message.author.id && !guest) || (await this.deps.access.check(caller))) return;
      await this.track(this.inThread(message, record, person, guest && { ...guest, displayName: person.displayName }));
      return;
    }
    const mentioned = message.mentions.users.has(me.id);
    // In a server a refusal stays silent: a public answer to every stranger's mention would be noise.
    if (!mentioned || (await this.deps.access.check(caller))) return;
    await this.track(this.startFromMention(message, person));
  }

  /**
   * A refused DM gets one line, in English and Chinese (a message carries no locale), at most
   * once an hour per person and reason (a minute for a failed lookup): a stranger's flood cannot
   * make the bot flood back.
   */
  private async refuseDm(message: Message, refusal: Refusal): Promise<void> {
    const key = `${message.author.id}:${refusal}`;
    const now = Date.now();
    // "Try again in a minute" must be true: a failed lookup may be said again after a minute.
    const quiet = refusal === "check-failed" ? 60_000 : REFUSAL_QUIET_MS;
    if (now - (this.refusedDms.get(key) ?? -Infinity) < quiet) return;
    this.refusedDms.delete(key);
    this.refusedDms.set(key, now);
    if (this.refusedDms.size > 10_000) this.refusedDms.delete(this.refusedDms.keys().next().value!);
    const content = `${refusalLine(refusal, (en) => en)}\n${refusalLine(refusal, (_en, zh) => zh)}`;
    if (!message.channel.isSendable()) return;
    await message.channel
      .send({ content, allowedMentions: NO_MENTIONS })
      .catch((error: unknown) => this.deps.log.warn({ err: String(error) }, "could not send a refusal"));
  }

  /** Opens a session in a thread the bot just created for a person (/chat). */
  async openInThread(
    threadId: string,
    threadName: string,
    guildId: string,
    person: Person,
    visibility: "private" | "public",
    guests: Guest[] = [],
  ): Promise<SessionRecord> {
    return this.deps.engine.open({
      ...person,
      title: threadName,
      ...(guests.length > 0 ? { guests } : {}),
      place: {
        platform: "discord",
        channelId: threadId,
        guildId,
        description: visibility === "private" ? `the private Discord thread "${threadName}"` : `the public Discord thread "${threadName}"`,
        // A private thread stays private with guests in it: only they were added. They read it, so private things stay out.
        visibility,
        ...(guests.length > 0 ? { invited: true } : {}),
      },
    });
  }

  /** Closes the open session of a thread or DM, if any; `receipt` says where its memory receipt goes. */
  async closeChannel(channelId: string, reason: string, receipt: ReceiptPlace = "channel"): Promise<"closed" | "none" | "empty" | "pending-summary"> {
    const session = await this.deps.engine.sessionIn(channelId);
    if (!session || session.status === "closed") return "none";
    return this.closeSession(session.id, channelId, reason, receipt);
  }

  async closeSession(
    sessionId: string,
    channelId: string,
    reason: string,
    receipt: ReceiptPlace = "channel",
  ): Promise<"closed" | "none" | "empty" | "pending-summary"> {
    this.clearIdle(channelId);
    this.answers.forget(sessionId);
    const outcome = await this.track(this.deps.engine.close(sessionId, reason));
    if (outcome === "already-closed") return "none";
    if (outcome === "empty") return "empty";
    await this.track(sendReceipt(this.deps, sessionId, channelId, receipt));
    return outcome === "pending-summary" ? "pending-summary" : "closed";
  }

  /** Closes a DM session after SESSION_IDLE_MINUTES of silence. */
  scheduleIdleClose(channelId: string, lastActivity: number): void {
    this.clearIdle(channelId);
    const delay = Math.max(0, lastActivity + this.deps.config.sessionIdleMinutes * 60_000 - Date.now());
    const timer = setTimeout(() => {
      this.idleTimers.delete(channelId);
      void this.closeChannel(channelId, "idle").catch((error: unknown) => this.deps.log.error({ err: String(error) }, "idle close failed"));
    }, delay);
    timer.unref();
    this.idleTimers.set(channelId, timer);
  }

  /** Stops a streaming answer (its Stop button) for its owner only; "ended" when it has already ended. */
  stopTurn(turnId: string, userId: string): "stopped" | "not-yours" | "ended" {
    return this.answers.stop(turnId, userId);
  }

  /** Waits for turns and closes under way (graceful shutdown). */
  async drain(): Promise<void> {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.allSettled([...this.inFlight]);
    this.notices.flush();
  }

  private async inDm(message: Message, person: Person): Promise<void> {
    const channel = message.channel as AnswerChannel;
    const locale = this.localeOf(person.userId);
    await this.take(message.channelId, person, {
      message,
      words: this.textOf(message),
      locale,
      run: async (batch) => {
        const session = await this.openOrReuse(message.channelId, async () =>
          this.deps.engine.open({
            ...person,
            locale,
            title: "direct messages",
            place: { platform: "discord", channelId: message.channelId, description: "direct messages", visibility: "direct" },
          }),
        );
        this.clearIdle(message.channelId);
        await this.answers.answer(session, batch, channel);
        this.scheduleIdleClose(message.channelId, Date.now());
      },
    });
  }

  private async inThread(message: Message, session: SessionSummary, person: Person, guest?: Guest): Promise<void> {
    const channel = message.channel as AnswerChannel;
    // The session as the message found it: one that ends meanwhile (/end) is not reopened by a message that waited.
    const found = session.status === "open" ? session : undefined;
    // A guest's messages wait in their own line: a turn answers one speaker.
    await this.take(guest ? `${message.channelId}:${guest.userId}` : message.channelId, person, {
      message,
      words: this.textOf(message),
      // The conversation's language is the session's (fixed when it opened): no settings read per message.
      locale: session.locale,
      run: async (batch) => {
        // A closed session's thread stays usable: a new message starts a new session (fresh snapshot).
        const open =
          found ??
          (await this.openOrReuse(message.channelId, async () => {
            const name = channel.isThread() ? channel.name : session.title;
            // Read from the thread each time: a thread made private since gets everything again.
            const visibility = channel.type === ChannelType.PrivateThread ? "private" : "public";
            // Only the owner starts a new conversation in the thread; it keeps the members they invited.
            return this.openInThread(
              message.channelId,
              name,
              message.guildId ?? "",
              { ...person, locale: session.locale ?? this.localeOf(person.userId) },
              visibility,
              session.guests,
            );
          }));
        // The owner's conversation ended while a guest's message waited: it is not read.
        if (guest && open.id !== session.id) return;
        await this.answers.answer(open, batch, channel, guest);
      },
    });
  }

  /**
   * Admits a message to its conversation (fair use): answers it now, with the next turn, or says
   * it was not read. Runs the conversation's turns until nothing waits for it.
   */
  private async take(conversation: string, person: Person, pending: Pending): Promise<void> {
    const admission = this.fairUse.offer(person.userId, conversation, pending);
    if (admission.kind === "refused") {
      // Where the message was sent, in order: one notice per burst. A session opened without a
      // language takes the person's setting, read only now that a notice is due.
      const say = sayIn(pending.locale ?? this.localeOf(person.userId));
      this.notices.refused(pending.message.channel as AnswerChannel, person.userId, excerptOf(pending.message, pending.words), admission.refusal, say);
      return;
    }
    if (admission.kind === "queued") return;
    let batch = [pending];
    while (batch.length > 0) {
      try {
        await batch[0]!.run(batch);
      } catch (error) {
        // Opening the session failed (the store is down): the person hears so instead of nothing.
        this.deps.log.error({ err: String(error) }, "could not answer a message");
        const say = sayIn(batch[0]!.locale ?? this.localeOf(person.userId));
        await (batch[0]!.message.channel as AnswerChannel)
          .send({ content: `⚠️ ${say("Something went wrong on my side. Please try again.", "我这边出了点问题，请再试一次。")}`, allowedMentions: NO_MENTIONS })
          .catch(() => {});
      }
      batch = this.fairUse.next(conversation);
    }
  }

  /** The channel's open session, or a new one from `open`; one at a time per channel. */
  private async openOrReuse(channelId: string, open: () => Promise<OpenSession>): Promise<OpenSession> {
    return this.opening.run(channelId, async () => {
      const existing = await this.deps.engine.sessionIn(channelId);
      const { id, userId, locale, guests } = existing?.status === "open" ? existing : await open();
      return { id, userId, locale, guests };
    });
  }

  private async startFromMention(message: Message, person: Person): Promise<void> {
    const text = this.textOf(message);
    const locale = this.localeOf(person.userId);
    // The thread started from a message has the message's id: messages in it wait for this first answer.
    await this.take(message.id, person, {
      message,
      words: text,
      locale,
      run: async () => {
        const name = (text.split("\n")[0] || `Chat with ${person.displayName}`).slice(0, THREAD_NAME_LIMIT);
        let thread;
        try {
          thread = await message.startThread({ name, autoArchiveDuration: 1440 });
        } catch (error) {
          this.deps.log.warn({ err: String(error) }, "could not start a thread");
          const say = sayIn(locale);
          await message
            .reply({
              content: say(
                "I couldn't start a thread here. Please check my permissions (Create Public Threads) and try again.",
                "我无法在这里创建子区。请检查我的权限（创建公开子区）后再试一次。",
              ),
              allowedMentions: { parse: [] },
            })
            .catch(() => {});
          return;
        }
        // A thread started from a message in a channel is public, as the channel is.
        const record = await this.openInThread(thread.id, name, message.guildId ?? "", { ...person, locale }, "public");
        const words = text || (message.attachments.size + message.stickers.size > 0 ? "" : "Hello!");
        await this.answers.answer(record, [{ message, words }], thread);
      },
    });
  }

  /** What the person said, without the mention of the bot. */
  private textOf(message: Message): string {
    return withoutMentionOf(message.content, this.deps.client.user!.id);
  }

  private localeOf(userId: string): string | undefined {
    return this.deps.engine.memoryOf(userId).readSettings().locale;
  }

  private clearIdle(channelId: string): void {
    clearTimeout(this.idleTimers.get(channelId));
    this.idleTimers.delete(channelId);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => {});
    return work;
  }
}
