import type { APIEmbed } from "discord.js";
import { ATTACHMENT_SIZE_LIMIT, NITRO_ATTACHMENT_SIZE_LIMIT, toRecordedAttachment, type AttachmentInput } from "./attachments.js";
import { DiscordFailure } from "./discord-errors.js";
import { isEphemeral, type FakeDiscordWorld } from "./discord-actions.js";
import type { FakeDmChannel, FakeMessage, FakeStickerItem, FakeThread } from "./model.js";

/** What people do in the fake Discord: each step changes state and reaches connected bots as it would for real. */

export interface UserMessageInput {
  channelId: string;
  userId: string;
  content: string;
  /** Starts the message with `<@bot>` unless the content already mentions the bot. */
  mentionsBot?: boolean;
  /** Sends the message as a reply to this message (which pings its author, as the Discord client does by default). */
  replyToMessageId?: string;
  /** The same as `replyToMessageId`, in the shape of Discord's `message_reference`. In a thread, the message that started it may be named too. */
  reference?: { messageId: string };
  /** Files the person uploads with the message (at most 10, each at most 10 MiB), served by the fake CDN. */
  attachments?: AttachmentInput[];
  /** The person has Nitro, so each file may be up to 500 MiB instead of 10 MiB. */
  premium?: boolean;
  /** At most 3; sent as `sticker_items`. */
  stickers?: { id: string; name: string; formatType?: number }[];
  embeds?: APIEmbed[];
}

export function userSends(world: FakeDiscordWorld, input: UserMessageInput): FakeMessage {
  const { state } = world;
  const user = state.user(input.userId);
  const channel = state.channel(input.channelId);
  if (channel.kind !== "dm" && !state.guild(channel.guildId).members.has(user.id)) {
    throw new Error(`${user.username} is not a member of the guild of channel ${channel.id}`);
  }
  if (channel.kind === "dm" && channel.recipientId !== user.id) {
    throw new Error(`${user.username} is not in DM channel ${channel.id}; use discord.openDm(${user.id})`);
  }
  const botMention = `<@${state.botUserId}>`;
  const mentionsBotAlready = input.content.includes(botMention) || input.content.includes(`<@!${state.botUserId}>`);
  const content = input.mentionsBot && !mentionsBotAlready ? `${botMention} ${input.content}` : input.content;
  const repliedTo = input.reference?.messageId ?? input.replyToMessageId;
  // In a thread, the message that started it (in the parent channel) can be replied to as well.
  const starter = channel.kind === "thread" && repliedTo === channel.id ? state.liveMessage(channel.parentId, repliedTo) : undefined;
  const referenced = repliedTo ? (state.liveMessage(channel.id, repliedTo) ?? starter) : undefined;
  if (repliedTo && (!referenced || isEphemeral(referenced))) throw new Error(`message ${repliedTo} is not in channel ${channel.id}`);
  const { attachments = [], stickers = [], embeds = [] } = input;
  if (attachments.length > 10) throw new Error(`Discord takes at most 10 attachments a message; got ${attachments.length}`);
  if (stickers.length > 3) throw new Error(`Discord takes at most 3 stickers a message; got ${stickers.length}`);
  if (!content && attachments.length === 0 && stickers.length === 0 && embeds.length === 0) {
    throw new Error("Discord does not send an empty message: give content, attachments, stickers or embeds");
  }
  const sizeLimit = input.premium ? NITRO_ATTACHMENT_SIZE_LIMIT : ATTACHMENT_SIZE_LIMIT;
  const message = world.postMessage({
    channel,
    authorId: user.id,
    content,
    embeds,
    attachments: attachments.map((file) => toRecordedAttachment(state.ids.next(), file, sizeLimit)),
    stickers: stickers.map((s): FakeStickerItem => ({ id: s.id, name: s.name, formatType: s.formatType ?? 1 })),
    referencedMessageId: referenced?.id ?? null,
  });
  if (message instanceof DiscordFailure) {
    throw new Error(`${user.username} cannot send in ${channel.id}: ${message.message} (code ${message.code})`);
  }
  return message;
}

export function openDm(world: FakeDiscordWorld, userId: string): FakeDmChannel {
  world.state.user(userId);
  return world.state.dmChannelWith(userId);
}

/** A moderator archiving (and maybe locking) a thread from the Discord client. */
export function archiveThread(world: FakeDiscordWorld, threadId: string, options: { locked?: boolean } = {}): FakeThread {
  const thread = world.state.thread(threadId);
  return world.updateThread(thread, { archived: true, ...(options.locked !== undefined ? { locked: options.locked } : {}) });
}

export function unarchiveThread(world: FakeDiscordWorld, threadId: string): FakeThread {
  return world.updateThread(world.state.thread(threadId), { archived: false, locked: false });
}

export function deleteThread(world: FakeDiscordWorld, threadId: string): void {
  world.deleteChannel(world.state.thread(threadId));
}
