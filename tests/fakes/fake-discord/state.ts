import { ChannelType, MessageFlags, PermissionFlagsBits } from "discord.js";
import { randomBytes } from "node:crypto";
import { FakeOAuth2 } from "./oauth2.js";
import type {
  CdnRequest,
  CommandRegistration,
  FakeChannel,
  FakeDmChannel,
  FakeGuild,
  FakeGuildChannel,
  FakeInteraction,
  FakeMessage,
  FakeRole,
  FakeTextChannel,
  FakeThread,
  FakeUser,
  RecordedAttachment,
  RecordedRequest,
  RegisteredCommands,
  TypingRecord,
} from "./model.js";
import { SnowflakeGenerator } from "./snowflake.js";

export interface FakeDiscordOptions {
  token?: string;
  /** Defaults to the bot user's id, as for every application created since 2020. */
  applicationId?: string;
  botUser?: { id: string; username: string };
  guild?: { id?: string; name?: string; preferredLocale?: string };
  textChannel?: { id?: string; name?: string };
  /** Real Discord says 41250; a test of heartbeats can ask for less. */
  heartbeatIntervalMs?: number;
  /** Discord forgets an interaction not answered within 3 s (10062 Unknown interaction); slow CI may need more. */
  interactionAckDeadlineMs?: number;
  /** What `GET /gateway/bot` recommends as `shards`; 1 unless said otherwise. */
  recommendedShards?: number;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** false: the portal's privileged intents (Message Content, Server Members) are off, so an IDENTIFY asking for them is closed with 4014. */
  privilegedIntents?: boolean;
}

/** What creating a thread needs, whichever route creates it. */
export interface NewThread {
  parent: FakeTextChannel;
  name: string;
  ownerId: string;
  type: FakeThread["type"];
  autoArchiveDuration: number;
  invitable: boolean;
  rateLimitPerUser: number;
}

export interface NewUser {
  id?: string;
  username: string;
  globalName?: string;
  locale?: string;
  bot?: boolean;
  /** Join the default guild (true unless said otherwise), with these role ids. */
  inGuild?: boolean;
  roles?: string[];
  /** Gives the member a role of their own carrying exactly these permissions. */
  permissions?: bigint;
}

const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

const P = PermissionFlagsBits;
const EVERYONE_PERMISSIONS =
  P.ViewChannel |
  P.SendMessages |
  P.SendMessagesInThreads |
  P.CreatePublicThreads |
  P.CreatePrivateThreads |
  P.ReadMessageHistory |
  P.AttachFiles |
  P.EmbedLinks |
  P.AddReactions |
  P.UseApplicationCommands |
  P.UseExternalEmojis |
  P.ChangeNickname;
const BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | P.ManageThreads | P.ManageMessages;

const DEFAULT_IDS = {
  bot: "1000000000000000001",
  guild: "1000000000000000100",
  textChannel: "1000000000000000101",
  manageThreadsRole: "1000000000000000102",
  botRole: "1000000000000000103",
  alice: "1000000000000000201",
  bob: "1000000000000000202",
} as const;

/** Everything the fake Discord knows. It only stores; discord-actions.ts also tells the gateways. */
export class FakeDiscordState {
  readonly ids = new SnowflakeGenerator();
  readonly token: string;
  readonly applicationId: string;
  readonly botUserId: string;
  readonly heartbeatIntervalMs: number;
  readonly interactionAckDeadlineMs: number;
  /** `http://127.0.0.1:PORT`, known once the server listens. */
  baseUrl = "";
  /** The CDN's own `http://127.0.0.1:PORT`. */
  cdnBaseUrl = "";
  /** What `GET /gateway/bot` answers as `shards`. */
  recommendedShards: number;
  /** Whether the Developer Portal has the privileged intents switched on. */
  privilegedIntents: boolean;
  /** Login with Discord: the authorize page, the token endpoint and the Bearer tokens (oauth2.ts). */
  readonly oauth2: FakeOAuth2;
  /** Signs attachment links (`hm`), so the CDN can tell links it issued from made-up ones. */
  readonly cdnSecret = randomBytes(32);

  readonly users = new Map<string, FakeUser>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, FakeMessage>();
  readonly interactions = new Map<string, FakeInteraction>();
  readonly commands: RegisteredCommands = { global: [], byGuild: new Map() };
  readonly commandRegistrations: CommandRegistration[] = [];
  readonly restRequests: RecordedRequest[] = [];
  readonly unhandledRequests: RecordedRequest[] = [];
  readonly typing: TypingRecord[] = [];
  readonly cdnRequests: CdnRequest[] = [];
  /** Files people gave slash commands' attachment options; they belong to no message. */
  readonly commandAttachments = new Map<string, { channelId: string; attachment: RecordedAttachment }>();

  readonly defaultGuild: FakeGuild;
  readonly defaultTextChannel: FakeTextChannel;
  readonly manageThreadsRole: FakeRole;
  readonly alice: FakeUser;
  readonly bob: FakeUser;

  constructor(options: FakeDiscordOptions = {}) {
    this.token = options.token ?? "fake-discord-bot-token";
    this.botUserId = options.botUser?.id ?? DEFAULT_IDS.bot;
    this.applicationId = options.applicationId ?? this.botUserId;
    this.oauth2 = new FakeOAuth2(this.applicationId);
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 41_250;
    this.interactionAckDeadlineMs = options.interactionAckDeadlineMs ?? 3000;
    this.recommendedShards = options.recommendedShards ?? 1;
    this.privilegedIntents = options.privilegedIntents ?? true;
    this.users.set(this.botUserId, {
      id: this.botUserId,
      username: options.botUser?.username ?? "AgentKit",
      globalName: null,
      bot: true,
      locale: "en-US",
    });

    const guildId = options.guild?.id ?? DEFAULT_IDS.guild;
    this.alice = this.putUser({ id: DEFAULT_IDS.alice, username: "alice", globalName: "Alice" });
    this.bob = this.putUser({ id: DEFAULT_IDS.bob, username: "bob", globalName: "Bob" });
    this.defaultGuild = this.addGuild({
      id: guildId,
      name: options.guild?.name ?? "AgentKit Test Server",
      ownerId: this.alice.id,
      preferredLocale: options.guild?.preferredLocale ?? "en-US",
    });
    this.manageThreadsRole = this.addRole(guildId, {
      id: DEFAULT_IDS.manageThreadsRole,
      name: "Manage Threads",
      permissions: P.ManageThreads,
    });
    const botRole = this.addRole(guildId, { id: DEFAULT_IDS.botRole, name: "AgentKit", permissions: BOT_ROLE_PERMISSIONS });
    botRole.botId = this.botUserId;
    this.addMember(guildId, this.botUserId, [botRole.id]);
    this.addMember(guildId, this.alice.id, []);
    this.addMember(guildId, this.bob.id, []);
    this.defaultTextChannel = this.addTextChannel(guildId, {
      id: options.textChannel?.id ?? DEFAULT_IDS.textChannel,
      name: options.textChannel?.name ?? "general",
    });
  }

  get botUser(): FakeUser {
    return this.user(this.botUserId);
  }

  putUser(input: NewUser): FakeUser {
    const user: FakeUser = {
      id: input.id ?? this.ids.next(),
      username: input.username,
      globalName: input.globalName ?? null,
      bot: input.bot ?? false,
      locale: input.locale ?? "en-US",
    };
    this.users.set(user.id, user);
    return user;
  }

  addGuild(input: { id?: string; name: string; ownerId: string; preferredLocale?: string }): FakeGuild {
    const id = input.id ?? this.ids.next();
    const guild: FakeGuild = {
      id,
      name: input.name,
      ownerId: input.ownerId,
      preferredLocale: input.preferredLocale ?? "en-US",
      joinedAt: new Date().toISOString(),
      roles: new Map(),
      members: new Map(),
    };
    // The @everyone role always shares the guild's id.
    guild.roles.set(id, { id, name: "@everyone", permissions: EVERYONE_PERMISSIONS, position: 0, botId: null });
    this.guilds.set(id, guild);
    return guild;
  }

  /** A guild the bot was added to: a role of its own, alice as owner, bob as member, and a #general channel. */
  addGuildWithBot(input: { id: string; name: string }): { guild: FakeGuild; textChannel: FakeTextChannel } {
    const guild = this.addGuild({ id: input.id, name: input.name, ownerId: this.alice.id });
    const botRole = this.addRole(guild.id, { name: this.botUser.username, permissions: BOT_ROLE_PERMISSIONS });
    botRole.botId = this.botUserId;
    this.addMember(guild.id, this.botUserId, [botRole.id]);
    this.addMember(guild.id, this.alice.id, []);
    this.addMember(guild.id, this.bob.id, []);
    return { guild, textChannel: this.addTextChannel(guild.id, { name: "general" }) };
  }

  addRole(guildId: string, input: { id?: string; name: string; permissions: bigint }): FakeRole {
    const guild = this.guild(guildId);
    const role: FakeRole = {
      id: input.id ?? this.ids.next(),
      name: input.name,
      permissions: input.permissions,
      position: guild.roles.size,
      botId: null,
    };
    guild.roles.set(role.id, role);
    return role;
  }

  addMember(guildId: string, userId: string, roleIds: string[]): void {
    this.guild(guildId).members.set(userId, { userId, roleIds, joinedAt: new Date().toISOString(), nick: null });
  }

  addTextChannel(guildId: string, input: { id?: string; name: string }): FakeTextChannel {
    const channel: FakeTextChannel = {
      kind: "text",
      type: ChannelType.GuildText,
      id: input.id ?? this.ids.next(),
      guildId,
      name: input.name,
      topic: null,
      position: [...this.channels.values()].filter((c) => c.kind === "text" && c.guildId === guildId).length,
      deleted: false,
      lastMessageId: null,
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  addThread(input: NewThread & { id?: string | undefined }): FakeThread {
    const now = new Date().toISOString();
    const thread: FakeThread = {
      kind: "thread",
      type: input.type,
      id: input.id ?? this.ids.next(),
      guildId: input.parent.guildId,
      parentId: input.parent.id,
      name: input.name,
      ownerId: input.ownerId,
      archived: false,
      locked: false,
      invitable: input.invitable,
      autoArchiveDuration: input.autoArchiveDuration,
      archiveTimestamp: now,
      createTimestamp: now,
      rateLimitPerUser: input.rateLimitPerUser,
      memberIds: new Set([input.ownerId]),
      messageCount: 0,
      totalMessageSent: 0,
      deleted: false,
      lastMessageId: null,
    };
    this.channels.set(thread.id, thread);
    return thread;
  }

  dmChannelWith(userId: string): FakeDmChannel {
    for (const channel of this.channels.values()) {
      if (channel.kind === "dm" && channel.recipientId === userId) return channel;
    }
    const channel: FakeDmChannel = {
      kind: "dm",
      type: ChannelType.DM,
      id: this.ids.next(),
      recipientId: userId,
      deleted: false,
      lastMessageId: null,
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  user(id: string): FakeUser {
    const user = this.users.get(id);
    if (!user) throw new Error(`fake Discord has no user ${id}; add one with discord.addUser() first`);
    return user;
  }

  guild(id: string): FakeGuild {
    const guild = this.guilds.get(id);
    if (!guild) throw new Error(`fake Discord has no guild ${id}`);
    return guild;
  }

  /** A channel that exists now; deleted ones are gone, as for Discord. */
  liveChannel(id: string): FakeChannel | undefined {
    const channel = this.channels.get(id);
    return channel && !channel.deleted ? channel : undefined;
  }

  channel(id: string): FakeChannel {
    const channel = this.liveChannel(id);
    if (!channel) throw new Error(`fake Discord has no channel ${id} (it may have been deleted)`);
    return channel;
  }

  thread(id: string): FakeThread {
    const channel = this.channel(id);
    if (channel.kind !== "thread") throw new Error(`channel ${id} is a ${channel.kind} channel, not a thread`);
    return channel;
  }

  liveMessage(channelId: string, messageId: string): FakeMessage | undefined {
    const message = this.messages.get(messageId);
    return message && !message.deleted && message.channelId === channelId ? message : undefined;
  }

  /** What anyone may see in the channel: ephemeral replies belong to their interaction only. */
  messagesIn(channelId: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channelId === channelId && !m.deleted && (m.flags & MessageFlags.Ephemeral) === 0);
  }

  threadsOf(guildId: string): FakeThread[] {
    return [...this.channels.values()].filter((c): c is FakeThread => c.kind === "thread" && c.guildId === guildId);
  }

  guildChannelsOf(guildId: string): FakeGuildChannel[] {
    return [...this.channels.values()].filter((c): c is FakeGuildChannel => c.kind !== "dm" && c.guildId === guildId && !c.deleted);
  }

  /** Guild-level permissions, computed as Discord does: owner and administrators get everything. */
  permissionsOf(guildId: string, userId: string): bigint {
    const guild = this.guild(guildId);
    if (guild.ownerId === userId) return ALL_PERMISSIONS;
    const member = guild.members.get(userId);
    let permissions = guild.roles.get(guild.id)?.permissions ?? 0n;
    for (const roleId of member?.roleIds ?? []) permissions |= guild.roles.get(roleId)?.permissions ?? 0n;
    return permissions & P.Administrator ? ALL_PERMISSIONS : permissions;
  }

  interactionByToken(token: string): FakeInteraction | undefined {
    for (const interaction of this.interactions.values()) if (interaction.token === token) return interaction;
    return undefined;
  }
}
