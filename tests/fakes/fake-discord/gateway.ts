import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import {
  ApplicationFlags,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type APIMessage,
  type GatewayGuildMembersChunkDispatchData,
  type GatewayReadyDispatchData,
} from "discord.js";
import { WebSocket, WebSocketServer } from "ws";
import { guildCreateToApi, memberToApi, userToApi } from "./entities.js";
import type { FakeGuild } from "./model.js";
import { parseShard, shardReceives, type ShardTuple } from "./sharding.js";
import type { FakeDiscordState } from "./state.js";

export type GatewayHistoryEntry =
  | { kind: "connect"; at: number; query: Record<string, string> }
  | { kind: "identify"; at: number; sessionId: string; intents: number; shard: ShardTuple }
  | { kind: "resume"; at: number; sessionId: string; replayed: number; shard: ShardTuple }
  | { kind: "invalid-session"; at: number; sessionId: string }
  | { kind: "close"; at: number; code: number; sessionId: string | null; shard: ShardTuple | null };

/** One dispatch sent to one session; `delivered` is false when its socket was down (a RESUME replays it). */
export interface GatewayDispatchRecord {
  at: number;
  event: GatewayDispatchEvents;
  sessionId: string;
  shard: ShardTuple;
  sequence: number;
  data: unknown;
  delivered: boolean;
}

export interface DropOptions {
  /** Close with this code (4000 tells discord.js to resume); without one the socket is cut like a lost network. */
  closeCode?: number;
  /** false forgets the sessions too, so the client's RESUME is refused and it must IDENTIFY again. */
  allowResume?: boolean;
  /** Only the connections of sessions identified as this shard id; sockets not yet identified are left alone. */
  shard?: number;
}

interface GatewaySession {
  id: string;
  intents: number;
  /** Fixed at IDENTIFY; a RESUME keeps it. */
  shard: ShardTuple;
  sequence: number;
  /** Every dispatch sent, so a RESUME can replay what a dropped connection missed. */
  sent: { sequence: number; frame: string }[];
  socket: WebSocket | null;
}

interface Connection {
  session: GatewaySession | null;
  droppedByFake: boolean;
}

const REPLAY_LIMIT = 1000;
// What an unverified bot with the message content and members intents switched on in the portal reports.
const APPLICATION_FLAGS = ApplicationFlags.GatewayMessageContentLimited | ApplicationFlags.GatewayGuildMembersLimited;
const I = GatewayIntentBits;

/**
 * The gateway end of the fake: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME with replay,
 * and dispatches filtered by the intents each client asked for and routed to the shard that owns
 * their guild, as Discord filters and routes them.
 */
export class FakeGateway {
  readonly history: GatewayHistoryEntry[] = [];
  readonly dispatches: GatewayDispatchRecord[] = [];
  private readonly sessions = new Map<string, GatewaySession>();
  private readonly connections = new Map<WebSocket, Connection>();
  private readonly server: WebSocketServer;

  constructor(
    private readonly state: FakeDiscordState,
    httpServer: Server,
  ) {
    this.server = new WebSocketServer({ server: httpServer });
    this.server.on("connection", (socket, request) => this.accept(socket, new URL(request.url ?? "/", "ws://x")));
  }

  get url(): string {
    return this.state.baseUrl.replace(/^http/, "ws");
  }

  /** Sockets that have identified or resumed and are still open. */
  get openSessionCount(): number {
    return this.openSessions().length;
  }

  /** How many open sessions each shard id has. */
  openSessionsByShard(): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const session of this.openSessions()) counts[session.shard[0]] = (counts[session.shard[0]] ?? 0) + 1;
    return counts;
  }

  dispatch(event: GatewayDispatchEvents, data: unknown): void {
    const guildId = guildIdOf(event, data);
    for (const session of this.sessions.values()) {
      if (!shardReceives(session.shard, guildId)) continue;
      const visible = visibleData(event, data, session.intents, this.state.botUserId);
      if (visible !== undefined) this.send(session, event, visible);
    }
  }

  /** The bot joined a guild: the owning shard gets its GUILD_CREATE, as after READY. */
  guildJoined(guild: FakeGuild): void {
    for (const session of this.sessions.values()) {
      if (!shardReceives(session.shard, guild.id) || (session.intents & I.Guilds) === 0) continue;
      this.sendGuildCreate(session, guild);
    }
  }

  dropConnections(options: DropOptions = {}): void {
    const matches = (session: GatewaySession | null) => options.shard === undefined || (session !== null && session.shard[0] === options.shard);
    for (const [socket, connection] of this.connections) {
      if (!matches(connection.session)) continue;
      connection.droppedByFake = true;
      if (options.closeCode === undefined) socket.terminate();
      else socket.close(options.closeCode, "fake Discord dropped the connection");
    }
    if (options.allowResume === false) {
      for (const session of [...this.sessions.values()]) if (matches(session)) this.sessions.delete(session.id);
    }
  }

  async close(): Promise<void> {
    for (const socket of this.connections.keys()) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: WebSocket, url: URL): void {
    const connection: Connection = { session: null, droppedByFake: false };
    this.connections.set(socket, connection);
    this.history.push({ kind: "connect", at: Date.now(), query: Object.fromEntries(url.searchParams) });
    socket.on("close", (code) => this.onClose(socket, connection, code));
    socket.on("error", () => socket.terminate());
    // discord.js asks for compress=zlib-stream only when zlib-sync is installed; this fake speaks plain JSON.
    if (url.searchParams.get("encoding") !== "json" || url.searchParams.has("compress")) {
      socket.close(GatewayCloseCodes.DecodeError, "fake Discord speaks only encoding=json without compression");
      return;
    }
    this.sendFrame(socket, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.state.heartbeatIntervalMs } });
    socket.on("message", (raw) => this.onFrame(socket, connection, raw.toString()));
  }

  private onFrame(socket: WebSocket, connection: Connection, raw: string): void {
    let frame: { op?: unknown; d?: unknown };
    try {
      frame = JSON.parse(raw) as { op?: unknown; d?: unknown };
    } catch {
      socket.close(GatewayCloseCodes.DecodeError, "Error while decoding payload.");
      return;
    }
    const d = (frame.d ?? {}) as Record<string, unknown>;
    switch (frame.op) {
      case GatewayOpcodes.Heartbeat:
        this.sendFrame(socket, { op: GatewayOpcodes.HeartbeatAck });
        return;
      case GatewayOpcodes.Identify:
        this.identify(socket, connection, d);
        return;
      case GatewayOpcodes.Resume:
        this.resume(socket, connection, d);
        return;
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
        return;
      case GatewayOpcodes.RequestGuildMembers:
        if (connection.session) this.sendMembersChunk(connection.session, d);
        return;
      default:
        socket.close(GatewayCloseCodes.UnknownOpcode, "Unknown opcode.");
    }
  }

  private identify(socket: WebSocket, connection: Connection, d: Record<string, unknown>): void {
    if (connection.session) return socket.close(GatewayCloseCodes.AlreadyAuthenticated, "Already authenticated.");
    if (d.token !== this.state.token) return socket.close(GatewayCloseCodes.AuthenticationFailed, "Authentication failed.");
    const shard = parseShard(d.shard);
    if (!shard) return socket.close(GatewayCloseCodes.InvalidShard, "Invalid shard.");
    const intents = typeof d.intents === "number" ? d.intents : 0;
    if (!this.state.privilegedIntents && (intents & (I.MessageContent | I.GuildMembers | I.GuildPresences)) !== 0) {
      return socket.close(GatewayCloseCodes.DisallowedIntents, "Disallowed intent(s).");
    }
    const session: GatewaySession = {
      id: randomBytes(16).toString("hex"),
      intents: typeof d.intents === "number" ? d.intents : 0,
      shard,
      sequence: 0,
      sent: [],
      socket,
    };
    connection.session = session;
    this.sessions.set(session.id, session);
    this.history.push({ kind: "identify", at: Date.now(), sessionId: session.id, intents: session.intents, shard });

    const guilds = [...this.state.guilds.values()].filter((g) => g.members.has(this.state.botUserId) && shardReceives(shard, g.id));
    const ready: GatewayReadyDispatchData = {
      v: 10,
      user: { ...userToApi(this.state.botUser), verified: true, mfa_enabled: false, email: null },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.url,
      shard,
      application: { id: this.state.applicationId, flags: APPLICATION_FLAGS, flags_new: String(APPLICATION_FLAGS) },
    };
    this.send(session, GatewayDispatchEvents.Ready, ready);
    for (const guild of guilds) this.sendGuildCreate(session, guild);
  }

  private sendGuildCreate(session: GatewaySession, guild: FakeGuild): void {
    const includeAllMembers = (session.intents & I.GuildMembers) !== 0;
    this.send(session, GatewayDispatchEvents.GuildCreate, guildCreateToApi(this.state, guild, { includeAllMembers }));
  }

  private resume(socket: WebSocket, connection: Connection, d: Record<string, unknown>): void {
    if (d.token !== this.state.token) return socket.close(GatewayCloseCodes.AuthenticationFailed, "Authentication failed.");
    const session = typeof d.session_id === "string" ? this.sessions.get(d.session_id) : undefined;
    if (!session) {
      this.history.push({ kind: "invalid-session", at: Date.now(), sessionId: String(d.session_id) });
      this.sendFrame(socket, { op: GatewayOpcodes.InvalidSession, d: false });
      return;
    }
    if (session.socket && session.socket !== socket) {
      const previous = this.connections.get(session.socket);
      if (previous) previous.droppedByFake = true;
      session.socket.terminate();
    }
    session.socket = socket;
    connection.session = session;
    const since = typeof d.seq === "number" ? d.seq : 0;
    const missed = session.sent.filter((entry) => entry.sequence > since);
    for (const entry of missed) socket.send(entry.frame);
    this.history.push({ kind: "resume", at: Date.now(), sessionId: session.id, replayed: missed.length, shard: session.shard });
    this.send(session, GatewayDispatchEvents.Resumed, { _trace: ["fake-discord"] });
  }

  private sendMembersChunk(session: GatewaySession, d: Record<string, unknown>): void {
    const guild = typeof d.guild_id === "string" ? this.state.guilds.get(d.guild_id) : undefined;
    if (!guild || !shardReceives(session.shard, guild.id)) return;
    const wanted = Array.isArray(d.user_ids) ? d.user_ids.map(String) : typeof d.user_ids === "string" ? [d.user_ids] : null;
    const query = typeof d.query === "string" ? d.query.toLowerCase() : "";
    const limit = typeof d.limit === "number" && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
    const members = [...guild.members.values()]
      .filter((m) => (wanted ? wanted.includes(m.userId) : this.state.user(m.userId).username.startsWith(query)))
      .slice(0, limit);
    const chunk: GatewayGuildMembersChunkDispatchData = {
      guild_id: guild.id,
      members: members.map((m) => memberToApi(this.state, m)),
      chunk_index: 0,
      chunk_count: 1,
      not_found: wanted ? wanted.filter((id) => !guild.members.has(id)) : [],
      ...(typeof d.nonce === "string" ? { nonce: d.nonce } : {}),
    };
    this.send(session, GatewayDispatchEvents.GuildMembersChunk, chunk);
  }

  private onClose(socket: WebSocket, connection: Connection, code: number): void {
    this.connections.delete(socket);
    const session = connection.session;
    this.history.push({ kind: "close", at: Date.now(), code, sessionId: session?.id ?? null, shard: session?.shard ?? null });
    if (!session || session.socket !== socket) return;
    session.socket = null;
    // Discord ends the session when the client closes with 1000/1001; any other close stays resumable.
    if (!connection.droppedByFake && (code === 1000 || code === 1001)) this.sessions.delete(session.id);
  }

  private send(session: GatewaySession, event: GatewayDispatchEvents, data: unknown): void {
    session.sequence += 1;
    const frame = JSON.stringify({ op: GatewayOpcodes.Dispatch, t: event, s: session.sequence, d: data });
    session.sent.push({ sequence: session.sequence, frame });
    if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
    const delivered = session.socket?.readyState === WebSocket.OPEN;
    if (delivered) session.socket?.send(frame);
    const { id: sessionId, shard, sequence } = session;
    this.dispatches.push({ at: Date.now(), event, sessionId, shard, sequence, data, delivered });
  }

  private openSessions(): GatewaySession[] {
    return [...this.sessions.values()].filter((s) => s.socket?.readyState === WebSocket.OPEN);
  }

  private sendFrame(socket: WebSocket, frame: object): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }
}

/** The guild a dispatch is about, which decides its shard; null for DMs and other events of no guild. */
function guildIdOf(event: GatewayDispatchEvents, data: unknown): string | null {
  const record = data as Record<string, unknown>;
  if (typeof record.guild_id === "string") return record.guild_id;
  const E = GatewayDispatchEvents;
  const isGuildItself = event === E.GuildCreate || event === E.GuildUpdate || event === E.GuildDelete;
  return isGuildItself && typeof record.id === "string" ? record.id : null;
}

/** What a session with these intents receives of a dispatch: undefined when nothing, as Discord filters. */
function visibleData(event: GatewayDispatchEvents, data: unknown, intents: number, botUserId: string): unknown {
  const E = GatewayDispatchEvents;
  const has = (bit: number) => (intents & bit) !== 0;
  const record = data as Record<string, unknown>;
  const inGuild = typeof record.guild_id === "string";
  switch (event) {
    case E.GuildCreate:
    case E.GuildUpdate:
    case E.GuildDelete:
    case E.ChannelCreate:
    case E.ChannelUpdate:
    case E.ChannelDelete:
    case E.ThreadCreate:
    case E.ThreadUpdate:
    case E.ThreadDelete:
    case E.GuildRoleCreate:
      return has(I.Guilds) ? data : undefined;
    case E.GuildMemberAdd:
    case E.GuildMemberUpdate:
    case E.GuildMemberRemove:
      return has(I.GuildMembers) ? data : undefined;
    case E.MessageCreate:
    case E.MessageUpdate: {
      if (!has(inGuild ? I.GuildMessages : I.DirectMessages)) return undefined;
      return has(I.MessageContent) ? data : withoutContent(data as APIMessage, botUserId);
    }
    case E.MessageDelete:
      return has(inGuild ? I.GuildMessages : I.DirectMessages) ? data : undefined;
    case E.MessageReactionAdd:
    case E.MessageReactionRemove:
      return has(inGuild ? I.GuildMessageReactions : I.DirectMessageReactions) ? data : undefined;
    case E.TypingStart:
      return has(inGuild ? I.GuildMessageTyping : I.DirectMessageTyping) ? data : undefined;
    default:
      return data;
  }
}

/** Without the MessageContent intent Discord blanks content, except in DMs, mentions of the bot and its own messages. */
function withoutContent(message: APIMessage, botUserId: string): APIMessage {
  const inGuild = "guild_id" in message;
  const exempt = !inGuild || message.author.id === botUserId || message.mentions.some((u) => u.id === botUserId);
  if (exempt) return message;
  return { ...message, content: "", embeds: [], attachments: [], components: [] };
}
