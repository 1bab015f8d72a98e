import { randomUUID } from "node:crypto";
import type { Message } from "discord.js";
import { storageFullTurnLine } from "../present/storage-lines.js";
import { describeChanges, keepSources, sourceMessage, type SourceRef } from "../memory/index.js";
import { ModelError } from "../model/model-error.js";
import { SessionClosedError, TurnForgottenError } from "../engine/session-engine.js";
import type { Guest } from "../sessions/session-record.js";
import { english, sayIn, type Say } from "../lib/locale.js";
import { messageCutLine, modelErrorLine, noImagesLine, noToolsLine } from "../present/model-errors.js";
import type { BusyNotices } from "./busy-notice.js";
import { readIncoming, type Incoming } from "./incoming.js";
import { joinParts, type MessagePart } from "../lib/provenance.js";
import { proposalFooter } from "./views/proposal-footer.js";
import { type ClosingDeps, postSuggestions } from "./closing.js";
import { tidyNoticeParts } from "./views/tidy-notice.js";
import { sourcesFooter } from "./views/sources.js";
import { withTimeout } from "../lib/with-timeout.js";
import { NO_MENTIONS, ReplyStream, type ReplyChannel } from "./reply-stream.js";
import { stopRow } from "./views/stop-row.js";

/** A message with nothing in it (no words, files or stickers): usually the Message Content intent is off. */
function emptyMessageLine(say: Say): string {
  return say(
    "I got a message with nothing I can read in it. (If every message arrives empty, the bot's Message Content intent is off.)",
    "我收到的消息里没有我能读的内容。（如果每条消息都是空的，说明机器人的 Message Content 权限没有开启。）",
  );
}

/** The session a message is answered in, as the one lookup that routed the message found it. */
export interface OpenSession {
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

/**
 * The turns of Discord conversations: what the messages bring (words, replies, files, images) goes
 * to the model, the answer streams into the channel with a Stop button, and its footer says what
 * was saved, what waits for the person's Save and where an answer came from. conversations.ts
 * routes a message here once it knows the session.
 */
export class Answers {
  /** Answers streaming now, by the turn id their Stop button carries, with the person whose turn it is. */
  private readonly streaming = new Map<string, { stop: AbortController; owner: string }>();
  /** Sessions already told that this model cannot see images. */
  private readonly toldNoVision = new Set<string>();
  private readonly toldFull = new Set<string>();
  /** Conversations told that this model cannot save to memory (once each). */
  private readonly toldNoTools = new Set<string>();

  constructor(
    private readonly deps: ClosingDeps,
    private readonly notices: BusyNotices,
  ) {}

  /** Stops a streaming answer (its Stop button) for its owner only; "ended" when it has already ended. */
  stop(turnId: string, userId: string): "stopped" | "not-yours" | "ended" {
    const turn = this.streaming.get(turnId);
    if (!turn) return "ended";
    if (turn.owner !== userId) return "not-yours";
    turn.stop.abort();
    return "stopped";
  }

  /** A session has closed: what it was told once is forgotten with it. */
  forget(sessionId: string): void {
    this.toldNoVision.delete(sessionId);
    this.toldFull.delete(sessionId);
    this.toldNoTools.delete(sessionId);
  }

  /**
   * Answers one message, or several that waited for the same turn, as one: what they bring
   * (words, replies, files, images) goes to the model, with a Stop button while it streams.
   */
  async answer(session: OpenSession, batch: { message: Message; words: string }[], channel: ReplyChannel & { id: string }, guest?: Guest): Promise<void> {
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
    // 12 hex digits as before, from randomUUID's entropy cache (randomBytes asks OpenSSL every turn).
    const turnId = randomUUID().replaceAll("-", "").slice(0, 12);
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
              await keepSources(this.deps.engine.memoryOf(owner), result.sources),
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
}
