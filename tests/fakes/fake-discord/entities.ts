import {
  ApplicationIntegrationType,
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  InteractionType,
  type APIChannel,
  type APIDMChannel,
  type APIGuildMember,
  type APIMessage,
  type APIMessageComponentInteractionMetadata,
  type APIMessageInteractionMetadata,
  type APIRole,
  type APITextChannel,
  type APIThreadChannel,
  type APIUser,
  type GatewayGuildCreateDispatchData,
  type Locale,
  type ThreadAutoArchiveDuration,
} from "discord.js";
import { attachmentToApi } from "./attachments.js";
import type { FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeThread, FakeUser } from "./model.js";
import type { FakeDiscordState } from "./state.js";

// discord-api-types types flag fields as enums without a zero member; Discord sends 0 all the time.
const NO_FLAGS = 0 as never;

/** Turns the fake's state into the JSON shapes Discord sends, typed by discord-api-types. */

export function userToApi(user: FakeUser): APIUser {
  return {
    id: user.id,
    username: user.username,
    discriminator: "0",
    global_name: user.globalName,
    avatar: null,
    ...(user.bot ? { bot: true } : {}),
    public_flags: NO_FLAGS,
    flags: NO_FLAGS,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

/** `withUser: false` gives the partial member Discord attaches to messages, whose user is the author. */
export function memberToApi(state: FakeDiscordState, member: FakeMember, withUser = true): APIGuildMember {
  const base = {
    nick: member.nick,
    avatar: null,
    banner: null,
    roles: member.roleIds,
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
  return (withUser ? { ...base, user: userToApi(state.user(member.userId)) } : base) as APIGuildMember;
}

export function roleToApi(role: FakeRole): APIRole {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.botId !== null,
    mentionable: false,
    flags: NO_FLAGS,
    ...(role.botId ? { tags: { bot_id: role.botId } } : {}),
  };
}

export function threadToApi(state: FakeDiscordState, thread: FakeThread): APIThreadChannel {
  const botIsMember = thread.memberIds.has(state.botUserId);
  return {
    id: thread.id,
    type: thread.type,
    guild_id: thread.guildId,
    parent_id: thread.parentId,
    owner_id: thread.ownerId,
    name: thread.name,
    last_message_id: thread.lastMessageId,
    rate_limit_per_user: thread.rateLimitPerUser,
    message_count: thread.messageCount,
    member_count: Math.min(thread.memberIds.size, 50),
    total_message_sent: thread.totalMessageSent,
    flags: NO_FLAGS,
    applied_tags: [],
    thread_metadata: {
      archived: thread.archived,
      locked: thread.locked,
      auto_archive_duration: thread.autoArchiveDuration as ThreadAutoArchiveDuration,
      archive_timestamp: thread.archiveTimestamp,
      create_timestamp: thread.createTimestamp,
      ...(thread.type === ChannelType.PrivateThread ? { invitable: thread.invitable } : {}),
    },
    ...(botIsMember ? { member: { id: thread.id, user_id: state.botUserId, join_timestamp: thread.createTimestamp, flags: NO_FLAGS } } : {}),
  };
}

export function channelToApi(state: FakeDiscordState, channel: FakeChannel): APIChannel {
  switch (channel.kind) {
    case "thread":
      return threadToApi(state, channel);
    case "dm": {
      const dm: APIDMChannel = {
        id: channel.id,
        type: ChannelType.DM,
        name: null,
        last_message_id: channel.lastMessageId,
        flags: NO_FLAGS,
        recipients: [userToApi(state.user(channel.recipientId))],
      };
      return dm;
    }
    case "text": {
      const text: APITextChannel = {
        id: channel.id,
        type: ChannelType.GuildText,
        guild_id: channel.guildId,
        name: channel.name,
        position: channel.position,
        permission_overwrites: [],
        parent_id: null,
        topic: channel.topic,
        nsfw: false,
        last_message_id: channel.lastMessageId,
        rate_limit_per_user: 0,
        default_auto_archive_duration: 4320,
        flags: NO_FLAGS,
      };
      return text;
    }
  }
}

function interactionMetadataOf(state: FakeDiscordState, interactionId: string): APIMessageInteractionMetadata | undefined {
  const interaction = state.interactions.get(interactionId);
  if (!interaction) return undefined;
  const common = {
    id: interaction.id,
    user: userToApi(state.user(interaction.userId)),
    authorizing_integration_owners: interaction.guildId
      ? { [ApplicationIntegrationType.GuildInstall]: interaction.guildId }
      : { [ApplicationIntegrationType.UserInstall]: interaction.userId },
  };
  if (interaction.type === InteractionType.ApplicationCommand) {
    return { ...common, type: InteractionType.ApplicationCommand };
  }
  if (interaction.type === InteractionType.MessageComponent && interaction.componentMessageId) {
    const metadata: APIMessageComponentInteractionMetadata = {
      ...common,
      type: InteractionType.MessageComponent,
      interacted_message_id: interaction.componentMessageId,
    };
    return metadata;
  }
  return undefined;
}

export interface MessageShapeOptions {
  /** Gateway dispatches carry guild_id, the author's partial member and channel_type; REST answers do not all. */
  forGateway?: boolean;
  /** Stops a reply's referenced message from nesting further references. */
  nested?: boolean;
}

export function messageToApi(state: FakeDiscordState, message: FakeMessage, options: MessageShapeOptions = {}): APIMessage {
  const channel = state.channels.get(message.channelId);
  const guild = message.guildId ? state.guilds.get(message.guildId) : undefined;
  const mentionToApi = (userId: string): APIUser => {
    const member = guild?.members.get(userId);
    const user = userToApi(state.user(userId));
    return member ? ({ ...user, member: memberToApi(state, member, false) } as APIUser) : user;
  };
  const referenced = message.referencedMessageId ? state.messages.get(message.referencedMessageId) : undefined;
  const thread = message.threadId ? state.liveChannel(message.threadId) : undefined;
  const authorMember = guild?.members.get(message.authorId);
  const metadata = message.interactionId ? interactionMetadataOf(state, message.interactionId) : undefined;
  const api: APIMessage = {
    id: message.id,
    channel_id: message.channelId,
    author: userToApi(state.user(message.authorId)),
    content: message.content,
    timestamp: message.timestamp,
    edited_timestamp: message.editedTimestamp,
    tts: message.tts,
    mention_everyone: message.mentionEveryone,
    mentions: message.mentionUserIds.map(mentionToApi),
    mention_roles: message.mentionRoleIds,
    attachments: message.attachments.map((a) => attachmentToApi(state, message.channelId, a)),
    embeds: message.embeds,
    components: message.components,
    ...(message.stickers.length > 0 ? { sticker_items: message.stickers.map((s) => ({ id: s.id, name: s.name, format_type: s.formatType })) } : {}),
    pinned: false,
    type: message.type,
    flags: message.flags,
    ...(message.nonce !== undefined ? { nonce: message.nonce } : {}),
    ...(message.webhookId ? { webhook_id: message.webhookId, application_id: state.applicationId } : {}),
    ...(metadata ? { interaction_metadata: metadata } : {}),
    ...(referenced
      ? {
          message_reference: {
            type: 0,
            message_id: referenced.id,
            channel_id: referenced.channelId,
            ...(message.guildId ? { guild_id: message.guildId } : {}),
          },
          referenced_message: options.nested || referenced.deleted ? null : messageToApi(state, referenced, { nested: true }),
        }
      : {}),
    ...(thread && thread.kind === "thread" ? { thread: threadToApi(state, thread) } : {}),
  };
  if (!options.forGateway) return api;
  return {
    ...api,
    ...(message.guildId ? { guild_id: message.guildId } : {}),
    ...(authorMember && !message.webhookId ? { member: memberToApi(state, authorMember, false) } : {}),
    ...(channel ? { channel_type: channel.type } : {}),
  } as APIMessage;
}

export function guildCreateToApi(state: FakeDiscordState, guild: FakeGuild, options: { includeAllMembers: boolean }): GatewayGuildCreateDispatchData {
  const members = [...guild.members.values()].filter((m) => options.includeAllMembers || m.userId === state.botUserId);
  const channels = state.guildChannelsOf(guild.id);
  const firstText = channels.find((c) => c.kind === "text");
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: GuildVerificationLevel.None,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.Disabled,
    roles: [...guild.roles.values()].map(roleToApi),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: firstText?.id ?? null,
    system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotifications,
    rules_channel_id: null,
    vanity_url_code: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale as Locale,
    public_updates_channel_id: null,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    hub_type: null,
    safety_alerts_channel_id: null,
    incidents_data: null,
    max_members: 500_000,
    joined_at: guild.joinedAt,
    large: false,
    unavailable: false,
    member_count: guild.members.size,
    voice_states: [],
    members: members.map((m) => memberToApi(state, m)),
    channels: channels.filter((c) => c.kind === "text").map((c) => channelToApi(state, c)) as GatewayGuildCreateDispatchData["channels"],
    threads: channels.filter((c): c is FakeThread => c.kind === "thread" && !c.archived).map((t) => threadToApi(state, t)),
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
