import { ChannelType, GatewayDispatchEvents, MessageFlags, MessageType } from "discord.js";
import { channelToApi, memberToApi, messageToApi, threadToApi } from "./entities.js";
import { type DiscordFailure, failures } from "./discord-errors.js";
import type { FakeGateway } from "./gateway.js";
import type {
  AllowedMentions,
  FakeChannel,
  FakeGuild,
  FakeMessage,
  FakeStickerItem,
  FakeTextChannel,
  FakeThread,
  FakeUser,
  MessageContentPatch,
} from "./model.js";
import { parseShard, type ShardTuple } from "./sharding.js";
import type { FakeDiscordState, NewThread, NewUser } from "./state.js";

export interface NewMessage extends MessageContentPatch {
  channel: FakeChannel;
  authorId: string;
  type?: MessageType;
  stickers?: FakeStickerItem[];
  tts?: boolean;
  nonce?: string | number;
  referencedMessageId?: string | null;
  webhookId?: string | null;
  interactionId?: string | null;
}

export interface NewGuild {
  name: string;
  /** `[shard_id, num_shards]`: the guild gets an id that lands on that shard; any id when left out. */
  forShard?: ShardTuple;
}

export interface AddedGuild {
  guild: FakeGuild;
  /** Its #general channel. */
  textChannel: FakeTextChannel;
}

export interface ThreadChanges {
  name?: string;
  archived?: boolean;
  locked?: boolean;
  autoArchiveDuration?: number;
  invitable?: boolean;
  rateLimitPerUser?: number;
}

/**
 * Changes to the fake's world that Discord would announce: each one updates the state and sends
 * the matching gateway dispatch. Used both by the REST routes (the bot acting) and by the
 * test-facing actions (people acting).
 */
export class FakeDiscordWorld {
  constructor(
    readonly state: FakeDiscordState,
    readonly gateway: FakeGateway,
  ) {}

  postMessage(input: NewMessage): FakeMessage | DiscordFailure {
    const { channel } = input;
    // An ephemeral interaction answer is seen by one person only: it does not touch the thread.
    const ephemeral = ((input.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
    if (channel.kind === "thread" && channel.archived && !ephemeral) {
      // Discord unarchives a thread on a new message, unless a moderator locked it.
      if (channel.locked) return failures.threadArchived();
      this.updateThread(channel, { archived: false });
    }
    const content = input.content ?? "";
    const guildId = channel.kind === "dm" ? null : channel.guildId;
    const referenced = input.referencedMessageId ? this.state.messages.get(input.referencedMessageId) : undefined;
    const mentions = this.mentionsIn(content, input.allowedMentions, referenced?.authorId ?? null);
    const message: FakeMessage = {
      id: this.state.ids.next(),
      channelId: channel.id,
      guildId,
      authorId: input.authorId,
      type: input.type ?? (referenced ? MessageType.Reply : MessageType.Default),
      content,
      embeds: input.embeds ?? [],
      components: input.components ?? [],
      attachments: input.attachments ?? [],
      stickers: input.stickers ?? [],
      flags: input.flags ?? 0,
      tts: input.tts ?? false,
      nonce: input.nonce,
      allowedMentions: input.allowedMentions,
      mentionUserIds: mentions.userIds,
      mentionRoleIds: mentions.roleIds,
      mentionEveryone: mentions.everyone,
      timestamp: new Date().toISOString(),
      editedTimestamp: null,
      edits: [],
      referencedMessageId: referenced?.id ?? null,
      threadId: null,
      webhookId: input.webhookId ?? null,
      interactionId: input.interactionId ?? null,
      reactions: [],
      deleted: false,
    };
    this.state.messages.set(message.id, message);
    if (isEphemeral(message)) return message;
    channel.lastMessageId = message.id;
    if (channel.kind === "thread") {
      channel.messageCount += 1;
      channel.totalMessageSent += 1;
      channel.memberIds.add(input.authorId);
    }
    this.gateway.dispatch(GatewayDispatchEvents.MessageCreate, messageToApi(this.state, message, { forGateway: true }));
    return message;
  }

  editMessage(message: FakeMessage, patch: MessageContentPatch): FakeMessage | DiscordFailure {
    const channel = this.state.liveChannel(message.channelId);
    // An ephemeral answer is the person's alone: editing it does not touch the thread.
    if (channel?.kind === "thread" && channel.archived && !isEphemeral(message)) return failures.threadArchived();
    message.edits.push({
      at: Date.now(),
      content: patch.content,
      embeds: patch.embeds,
      components: patch.components,
      allowedMentions: patch.allowedMentions,
      attachments: patch.attachments,
      flags: patch.flags,
    });
    if (patch.content !== undefined) message.content = patch.content;
    if (patch.embeds !== undefined) message.embeds = patch.embeds;
    if (patch.components !== undefined) message.components = patch.components;
    if (patch.attachments !== undefined) message.attachments = patch.attachments;
    // Whether a message is ephemeral is settled when it is created; an edit cannot change it.
    if (patch.flags !== undefined) {
      message.flags = (message.flags & MessageFlags.Ephemeral) | (patch.flags & ~MessageFlags.Ephemeral);
    }
    // The first edit of a deferred reply replaces its "thinking…" state.
    message.flags &= ~MessageFlags.Loading;
    if (patch.allowedMentions !== undefined) message.allowedMentions = patch.allowedMentions;
    if (patch.content !== undefined) {
      const referencedAuthor = message.referencedMessageId ? (this.state.messages.get(message.referencedMessageId)?.authorId ?? null) : null;
      const mentions = this.mentionsIn(message.content, message.allowedMentions, referencedAuthor);
      message.mentionUserIds = mentions.userIds;
      message.mentionRoleIds = mentions.roleIds;
      message.mentionEveryone = mentions.everyone;
    }
    message.editedTimestamp = new Date().toISOString();
    if (!isEphemeral(message)) {
      this.gateway.dispatch(GatewayDispatchEvents.MessageUpdate, messageToApi(this.state, message, { forGateway: true }));
    }
    return message;
  }

  deleteMessage(message: FakeMessage): void {
    message.deleted = true;
    const channel = this.state.channels.get(message.channelId);
    if (channel?.kind === "thread" && channel.messageCount > 0) channel.messageCount -= 1;
    if (isEphemeral(message)) return;
    this.gateway.dispatch(GatewayDispatchEvents.MessageDelete, {
      id: message.id,
      channel_id: message.channelId,
      ...(message.guildId ? { guild_id: message.guildId } : {}),
    });
  }

  startThread(input: NewThread & { starterMessage?: FakeMessage }): FakeThread | DiscordFailure {
    if (input.starterMessage?.threadId) return failures.threadAlreadyCreated();
    const thread = this.state.addThread({ ...input, id: input.starterMessage?.id });
    if (input.starterMessage) input.starterMessage.threadId = thread.id;
    this.gateway.dispatch(GatewayDispatchEvents.ThreadCreate, { ...threadToApi(this.state, thread), newly_created: true });
    return thread;
  }

  updateThread(thread: FakeThread, changes: ThreadChanges): FakeThread {
    const archivedChanges = changes.archived !== undefined && changes.archived !== thread.archived;
    if (changes.name !== undefined) thread.name = changes.name;
    if (changes.archived !== undefined) thread.archived = changes.archived;
    if (changes.locked !== undefined) thread.locked = changes.locked;
    if (changes.invitable !== undefined) thread.invitable = changes.invitable;
    if (changes.rateLimitPerUser !== undefined) thread.rateLimitPerUser = changes.rateLimitPerUser;
    if (changes.autoArchiveDuration !== undefined) thread.autoArchiveDuration = changes.autoArchiveDuration;
    if (archivedChanges || changes.autoArchiveDuration !== undefined) thread.archiveTimestamp = new Date().toISOString();
    this.gateway.dispatch(GatewayDispatchEvents.ThreadUpdate, threadToApi(this.state, thread));
    return thread;
  }

  updateTextChannel(channel: FakeTextChannel, changes: { name?: string; topic?: string | null }): FakeTextChannel {
    if (changes.name !== undefined) channel.name = changes.name;
    if (changes.topic !== undefined) channel.topic = changes.topic;
    this.gateway.dispatch(GatewayDispatchEvents.ChannelUpdate, channelToApi(this.state, channel));
    return channel;
  }

  deleteChannel(channel: FakeChannel): void | DiscordFailure {
    if (channel.kind === "dm") return failures.wrongChannelType();
    channel.deleted = true;
    if (channel.kind === "thread") {
      this.gateway.dispatch(GatewayDispatchEvents.ThreadDelete, {
        id: channel.id,
        guild_id: channel.guildId,
        parent_id: channel.parentId,
        type: channel.type,
      });
      return;
    }
    // Deleting a channel takes its threads with it.
    for (const thread of this.state.threadsOf(channel.guildId)) if (thread.parentId === channel.id) thread.deleted = true;
    this.gateway.dispatch(GatewayDispatchEvents.ChannelDelete, channelToApi(this.state, channel));
  }

  addTextChannel(guildId: string, name: string): FakeTextChannel {
    const channel = this.state.addTextChannel(guildId, { name });
    this.gateway.dispatch(GatewayDispatchEvents.ChannelCreate, channelToApi(this.state, channel));
    return channel;
  }

  addGuild(input: NewGuild): AddedGuild {
    const shard = parseShard(input.forShard);
    if (!shard) throw new Error(`forShard must be [shard_id, num_shards] with 0 <= shard_id < num_shards; got ${JSON.stringify(input.forShard)}`);
    const added = this.state.addGuildWithBot({ id: this.state.ids.nextOnShard(...shard), name: input.name });
    this.gateway.guildJoined(added.guild);
    return added;
  }

  addUser(input: NewUser): FakeUser {
    const user = this.state.putUser(input);
    if (input.inGuild === false) return user;
    const guild = this.state.defaultGuild;
    const roleIds = [...(input.roles ?? [])];
    if (input.permissions !== undefined) {
      roleIds.push(this.state.addRole(guild.id, { name: `${user.username} permissions`, permissions: input.permissions }).id);
    }
    this.state.addMember(guild.id, user.id, roleIds);
    const member = guild.members.get(user.id);
    if (member) {
      this.gateway.dispatch(GatewayDispatchEvents.GuildMemberAdd, { ...memberToApi(this.state, member), guild_id: guild.id });
    }
    return user;
  }

  private mentionsIn(content: string, allowed: AllowedMentions | undefined, repliedUserId: string | null) {
    const mentions = parseMentions(content, allowed, repliedUserId);
    // Discord drops mentions of ids that are no user.
    return { ...mentions, userIds: mentions.userIds.filter((id) => this.state.users.has(id)) };
  }
}

export function isEphemeral(message: FakeMessage): boolean {
  return (message.flags & MessageFlags.Ephemeral) !== 0;
}

export function isGuildTextChannel(channel: FakeChannel): channel is FakeTextChannel {
  return channel.kind === "text" && channel.type === ChannelType.GuildText;
}

/** The mentions Discord would parse from content, limited by allowed_mentions as Discord limits them. */
function parseMentions(
  content: string,
  allowed: AllowedMentions | undefined,
  repliedUserId: string | null,
): { userIds: string[]; roleIds: string[]; everyone: boolean } {
  const userIds = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1] ?? "");
  const roleIds = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1] ?? "");
  const mentionsEveryone = /@(everyone|here)\b/.test(content);
  const allowUser = (id: string) => !allowed || allowed.parse?.includes("users") || allowed.users?.includes(id);
  const allowRole = (id: string) => !allowed || allowed.parse?.includes("roles") || allowed.roles?.includes(id);
  const users = new Set(userIds.filter((id) => id && allowUser(id)));
  // A reply pings its author unless allowed_mentions says replied_user: false (the default once the field is sent).
  if (repliedUserId && (!allowed || allowed.replied_user)) users.add(repliedUserId);
  return {
    userIds: [...users],
    roleIds: [...new Set(roleIds.filter((id) => id && allowRole(id)))],
    everyone: mentionsEveryone && (!allowed || allowed.parse?.includes("everyone") === true),
  };
}
