import { randomBytes } from "node:crypto";
import { storageFullTurnLine } from "../present/storage-lines.js";
import { ChannelType, type Message, type TextBasedChannel } from "discord.js";
import { KeyedMutex } from "../lib/keyed-mutex.js";
import { describeChanges, keepConfirmation, sourceMessage, type SourceRef } from "../memory/index.js";
import { ModelError } from "../model/model-error.js";
import { SessionClosedError, TurnForgottenError, type SessionSummary } from "../engine/session-engine.js";
import type { Guest, SessionRecord } from "../sessions/session-record.js";
import { english, sayIn, type Say } from "../lib/locale.js";
import { messageCutLine, modelErrorLine, noImagesLine, noToolsLine } from "../present/model-errors.js";
import { refusalLine } from "./access.js";
import type { Access, Refusal } from "../lib/access.js";
import type { ConversationControl, Person } from "./bot-context.js";
import { BusyNotices, excerptOf, startRefusedLine } from "./busy-notice.js";
import { FairUse } from "./fair-use.js";
import { readIncoming, type Incoming } from "./incoming.js";
import { joinParts, type MessagePart } from "../lib/provenance.js";
import { proposalFooter } from "./views/proposal-footer.js";
import { type ClosingDeps, postSuggestions, sendReceipt } from "./closing.js";
import { tidyNoticeParts } from "./views/tidy-notice.js";
import { sourcesFooter } from "./views/sources.js";
import { withTimeout } from "../lib/with-timeout.js";
import type { ReceiptPlace } from "./views/receipt.js";
import { NO_MENTIONS, ReplyStream, type ReplyChannel } from "./reply-stream.js";
import { stopRow } from "./views/stop-row.js";

/** A message with nothing in it (no words, files or stickers): usually the Message Content intent is off. */
function emptyMessageLine(say: Say): string {
  return say(
    "I got a message with nothing I can read in it. (If every message arrives empty, the bot's Message Content intent is off.)",
    "我收到的消息里没有我能读的内容。（如果每条消息都是空的，说明机器人的 Message Content 权限没有开启。）",
  );
}

export interface ConversationDeps extends ClosingDeps {
  /** Who may use the bot (the allow lists; membership for DMs). */
  access: Access;
}

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

type AnswerChannel = TextBasedChannel & ReplyChannel & { id: string };

/** The session a message is answered in, as the one lookup that routed the message found it. */
interface OpenSession {
  id: string;
  /** Whose memory the session holds: proposals and sources are theirs, whoever wrote the message. */
  userId: string;
  locale: string | undefined;
  guests?: Guest[] | undefined;
}

/** Messages that waited for a turn are answered as one: their words and files in order, at most one message's images. */
function joinIncoming(parts: Incoming[], imagesPerMessage: number, say: Say): Incoming {
  if (parts.length === 1) return parts[0]!;
  const images = parts.flatMap((p) => p.message.images ?? []);
  const seen = images.slice(0, imagesPerMessage);
  const unseen = images.slice(imagesPerMessage);
  const all: MessagePart[] = [
    ...parts.flatMap((p) => p.message.parts ?? [{ origin: "typed" as const, text: p.message.text }]),
    ...unseen.map((image): MessagePart => ({ origin: "image", text: image.placeholder })),
  ].filter((part) => part.text !== "");
  const lines = parts.flatMap((p) => p.lines);
  if (unseen.length > 0) {
    lines.push(
      say(
        `🖼️ I looked at the first ${seen.length} images of these messages; send the others again to have them seen.`,
        `🖼️ 这几条消息里我只看了前 ${seen.length} 张图片；其余的请再发一次。`,
      ),
    );
  }
  return {
    message: { text: joinParts(all).text, parts: all, ...(seen.length > 0 ? { images: seen } : {}) },
    lines,
    unseenImages: parts.some((p) => p.unseenImages),
    usable: parts.some((p) => p.usable),
  };
}

/** Discord threads and DMs as sessions: who may talk, which session a message belongs to. */
export class Conversations implements ConversationControl {
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Serialises "find the open session or open one" per channel, so two quick messages share one. */
  private readonly opening = new KeyedMutex();
  /** Answers streaming now, by the turn id their Stop button carries, with the person whose turn it is. */
  private readonly streaming = new Map<string, { stop: AbortController; owner: string }>();
  /** Sessions already told that this model cannot see images. */
  private readonly toldNoVision = new Set<string>();
  private readonly toldFull = new Set<string>();
  /** Conversations told that this model cannot save to memory (once each). */
  private readonly toldNoTools = new Set<string>();
  /** When each person was last told, per reason, that their DMs are refused. */
  private readonly refusedDms = new Map<string, number>();
  /** Per person: messages a minute and conversations at once; per conversation: what waits for its answer. */
  private readonly fairUse: FairUse<Pending>;
  private readonly notices: BusyNotices;

  constructor(private readonly deps: ConversationDeps) {
    this.fairUse = new FairUse(deps.config.fairUse);
    this.notices = new BusyNotices(deps.log);
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
    this.toldNoVision.delete(sessionId);
    this.toldFull.delete(sessionId);
    this.toldNoTools.delete(sessionId);
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
    const turn = this.streaming.get(turnId);
    if (!turn) return "ended";
    if (turn.owner !== userId) return "not-yours";
    turn.stop.abort();
    return "stopped";
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
        await this.answer(session, batch, channel);
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
        await this.answer(open, batch, channel, guest);
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
        await this.answer(record, [{ message, words }], thread);
      },
    });
  }

  /** What the person said, without the mention of the bot. */
  private textOf(message: Message): string {
    const me = this.deps.client.user!.id;
    return message.content.replaceAll(new RegExp(`<@!?${me}>`, "g"), "").trim();
  }

  /**
   * Answers one message, or several that waited for the same turn, as one: what they bring
   * (words, replies, files, images) goes to the model, with a Stop button while it streams.
   */
  private async answer(
    session: OpenSession,
    batch: Pick<Pending, "message" | "words">[],
    channel: ReplyChannel & { id: string },
    guest?: Guest,
  ): Promise<void> {
    const sessionId = session.id;
    const owner = session.userId;
    // The Stop button is for whoever is being answered.
    const speaker = guest?.userId ?? owner;
    // The session's language, fixed when it opened (from the person's settings or their Discord client): the lookup that routed the message brought it.
    const say = sayIn(session.locale);
    const parts: Incoming[] = [];
    // Over the owner's storage quota: files are not read and the conversation will not be archived; they hear it once a conversation, and with every file.
    const full = await this.deps.engine.storageFull(owner, sessionId);
    // One message at a time: each reads at most its own attachments' worth.
    for (const { message, words } of batch)
      parts.push(await readIncoming(message, words, this.deps.config.attachments, say, { storageFull: full !== undefined }));
    const incoming = joinIncoming(parts, this.deps.config.attachments.imagesPerMessage, say);
    const notes = [...incoming.lines];
    if (full && (!this.toldFull.has(sessionId) || batch.some(({ message }) => message.attachments.size > 0))) {
      this.toldFull.add(sessionId);
      notes.unshift(storageFullTurnLine(full, say, { files: true }));
    }
    if (incoming.unseenImages && (!incoming.usable || !this.toldNoVision.has(sessionId))) {
      this.toldNoVision.add(sessionId);
      notes.unshift(
        incoming.usable
          ? say("🖼️ I can't see images with this model, so I answer your words only.", "🖼️ 这个模型看不到图片，所以我只回答你的文字。")
          : say("🖼️ I can't see images with this model; tell me in words what you'd like to know.", "🖼️ 这个模型看不到图片；请用文字告诉我你想知道什么。"),
      );
    }
    // Nothing the model could answer (a refused file, an image it cannot see): the bot's own lines, never silence.
    if (!incoming.usable) {
      const content = notes.length > 0 ? notes.join("\n") : emptyMessageLine(say);
      await channel.send({ content, allowedMentions: NO_MENTIONS }).catch((error: unknown) => this.deps.log.warn({ err: String(error) }, "could not answer"));
      this.notices.answered(channel.id);
      return;
    }
    const turnId = randomBytes(6).toString("hex");
    const stop = new AbortController();
    this.streaming.set(turnId, { stop, owner: speaker });
    const reply = new ReplyStream(channel, { log: this.deps.log, whileStreaming: () => [stopRow(speaker, turnId, say)] });
    reply.startTyping();
    try {
      // The turn is persisted before its final text is shown, so a crash never loses a shown answer.
      const result = await this.deps.engine.turn(sessionId, guest ? { ...incoming.message, from: guest } : incoming.message, {
        onDelta: (delta) => reply.push(delta),
        signal: stop.signal,
        sourceId: `${batch[0]!.message.channelId}/${batch[0]!.message.id}`,
      });
      this.streaming.delete(turnId);
      const saved = describeChanges(result.changes, say);
      const limits: string[] = [];
      if (result.limits.noTools && !this.toldNoTools.has(sessionId)) {
        this.toldNoTools.add(sessionId);
        limits.push(noToolsLine(say, "discord"));
      }
      if (result.limits.noImages) limits.push(noImagesLine(say));
      if (result.limits.messageCut) limits.push(messageCutLine(say));
      const lines = [
        ...(result.stopped ? [`-# ${say("stopped", "已停止")}`] : []),
        ...(saved ? [`-# ${saved}`] : []),
        ...notes.map((line) => `-# ${line}`),
        ...limits.map((line) => `-# ${line}`),
      ];
      const pending = result.proposals.length > 0 ? proposalFooter(owner, result.proposals, say) : { lines: [], components: [] };
      const tidied = result.tidied ? tidyNoticeParts(owner, result.tidied, say) : { lines: [], components: [] };
      // The sources are kept (as references, no text) for "Not right?": an hour, in the person's folder.
      const sources =
        result.sources.length > 0
          ? sourcesFooter(
              owner,
              result.sources,
              await this.sourceLinks(owner, result.sources),
              await keepConfirmation(this.deps.engine.memoryOf(owner).dir, "sources", { sources: result.sources }),
              say,
            )
          : { lines: [], components: [] };
      await reply.finish(
        [...lines, ...sources.lines, ...tidied.lines, ...pending.lines].join("\n") || undefined,
        // Save / Discard first: a waiting change must keep its buttons.
        [...pending.components, ...tidied.components, ...sources.components].slice(0, 5),
      );
      const guildId = batch[0]!.message.guildId;
      if (result.suggestions.length > 0 && guildId) await postSuggestions(this.deps, guildId, result.suggestions, channel);
    } catch (error) {
      this.streaming.delete(turnId);
      const line =
        error instanceof ModelError
          ? `⚠️ ${modelErrorLine(error, say, { showAddress: false })}`
          : error instanceof SessionClosedError
            ? say(
                `This conversation had just ended, so I didn't read ${batch.length === 1 ? "that message" : `those ${batch.length} messages`}. Mention me or use /chat to start a new one.`,
                `这段对话刚刚结束，所以我没有读${batch.length === 1 ? "那条消息" : `那 ${batch.length} 条消息`}。提到我或使用 /chat 开始新的对话。`,
              )
            : error instanceof TurnForgottenError
              ? say(
                  "Something in this conversation was forgotten while I answered (with /memory forget), so I didn't keep this exchange. Please send your message again.",
                  "回答期间，这段对话中的部分内容被忘记了（/memory forget），所以这次交流没有保存。请再发一次你的消息。",
                )
              : `⚠️ ${say("Something went wrong on my side. Please try again.", "我这边出了点问题，请再试一次。")}`;
      if (error instanceof ModelError) {
        // The operator's side of the line: what failed and where, never what was said.
        const { status, baseURL, model, reason, refusal } = error.details;
        this.deps.log.warn({ sessionId, kind: error.kind, status, baseURL, model, reason, refusal }, `model request failed: ${modelErrorLine(error, english)}`);
      } else if (!(error instanceof SessionClosedError || error instanceof TurnForgottenError)) {
        this.deps.log.error({ err: error, sessionId }, "turn failed");
      }
      await reply.fail(line);
    } finally {
      // The answer (or its failure line) is below any notice now: a later refusal gets a new one.
      this.notices.answered(channel.id);
    }
  }

  /**
   * A link to each conversation source's Discord message while it still exists (asked of Discord,
   * at most three at once, a second and a half each); undefined where there is none, and the
   * footer names the conversation and its date instead.
   */
  private async sourceLinks(owner: string, sources: readonly SourceRef[]): Promise<(string | undefined)[]> {
    const memory = this.deps.engine.memoryOf(owner);
    return Promise.all(
      sources.map(async (ref) => {
        const found = await sourceMessage(memory, ref).catch(() => undefined);
        if (!found) return undefined;
        const [channelId, messageId] = found.id.split("/") as [string, string];
        const exists = await withTimeout(
          (async () => {
            const channel = await this.deps.client.channels.fetch(channelId);
            if (!channel?.isTextBased()) return false;
            await channel.messages.fetch(messageId);
            return true;
          })(),
          1_500,
        ).catch(() => false);
        return exists ? `https://discord.com/channels/${found.place}/${channelId}/${messageId}` : undefined;
      }),
    );
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
