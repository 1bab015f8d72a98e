import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startCdnServer } from "./cdn-server.js";
import { clickButton, forgeButtonClick, selectMenu, type ButtonClickInput, type SelectMenuInput } from "./component-interactions.js";
import { FakeDiscordWorld, type AddedGuild, type NewGuild } from "./discord-actions.js";
import { FakeGateway, type DropOptions, type GatewayDispatchRecord, type GatewayHistoryEntry } from "./gateway.js";
import { FakeRestServer, type FailNextOptions } from "./http-server.js";
import { shardOfGuild } from "./sharding.js";
import { runSlashCommand, submitModal, type ModalSubmitInput, type SlashCommandInput } from "./interactions.js";
import type {
  CdnRequest,
  CommandRegistration,
  FakeDmChannel,
  FakeGuild,
  FakeInteraction,
  FakeMessage,
  FakeRole,
  FakeTextChannel,
  FakeThread,
  FakeUser,
  InteractionResponseRecord,
  RecordedRequest,
  RegisteredCommands,
} from "./model.js";
import { applicationRoutes } from "./routes/application-routes.js";
import { channelRoutes } from "./routes/channel-routes.js";
import { interactionRoutes } from "./routes/interaction-routes.js";
import { messageRoutes } from "./routes/message-routes.js";
import { FakeDiscordState, type FakeDiscordOptions, type NewUser } from "./state.js";
import type { FakeOAuth2 } from "./oauth2.js";
import { archiveThread, deleteThread, openDm, unarchiveThread, userSends, type UserMessageInput } from "./user-actions.js";

const ROUTES = [...applicationRoutes, ...channelRoutes, ...messageRoutes, ...interactionRoutes];

/**
 * Starts a fake Discord on loopback that the real discord.js client can log in to:
 * pass `apiUrl` as `rest.api` (or DISCORD_API_URL) and `token` to `login`.
 */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const state = new FakeDiscordState(options);
  let rest: FakeRestServer | undefined;
  const server = createServer((request, response) => {
    if (!rest) return void response.writeHead(503).end();
    rest.handle(request, response).catch((error: unknown) => {
      console.error("fake Discord could not answer a request:", error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cdn = await startCdnServer(state);
  const gateway = new FakeGateway(state, server);
  const world = new FakeDiscordWorld(state, gateway);
  rest = new FakeRestServer(world, ROUTES);
  return new FakeDiscord(world, rest, server, cdn);
}

export class FakeDiscord {
  private readonly state: FakeDiscordState;
  private readonly gateway: FakeGateway;

  constructor(
    private readonly world: FakeDiscordWorld,
    private readonly rest: FakeRestServer,
    private readonly server: Server,
    private readonly cdn: Server,
  ) {
    this.state = world.state;
    this.gateway = world.gateway;
  }

  /** `http://127.0.0.1:PORT/api`; discord.js adds `/v10`. */
  get apiUrl(): string {
    return `${this.state.baseUrl}/api`;
  }
  get gatewayUrl(): string {
    return this.gateway.url;
  }
  /** The fake's cdn.discordapp.com: `http://127.0.0.1:PORT`, another port than the API's. */
  get cdnUrl(): string {
    return this.state.cdnBaseUrl;
  }
  get token(): string {
    return this.state.token;
  }
  get applicationId(): string {
    return this.state.applicationId;
  }
  get botUser(): FakeUser {
    return this.state.botUser;
  }
  get guild(): FakeGuild {
    return this.state.defaultGuild;
  }
  get textChannel(): FakeTextChannel {
    return this.state.defaultTextChannel;
  }
  /** Login with Discord: register redirects, choose who is signed in to the browser, set the client secret. */
  get oauth2(): FakeOAuth2 {
    return this.state.oauth2;
  }
  /** The owner of the default guild. */
  get alice(): FakeUser {
    return this.state.alice;
  }
  /** A member with no roles beyond @everyone. */
  get bob(): FakeUser {
    return this.state.bob;
  }
  get manageThreadsRole(): FakeRole {
    return this.state.manageThreadsRole;
  }

  addUser(input: NewUser): FakeUser {
    return this.world.addUser(input);
  }

  /**
   * Adds the bot to a new guild with alice (owner), bob and a #general channel; with `forShard: [id, count]`
   * its id lands on that shard. Connected sessions of the owning shard get its GUILD_CREATE.
   */
  addGuild(input: NewGuild): AddedGuild {
    return this.world.addGuild(input);
  }

  /** The shard that owns the guild among `numShards` (by default the recommended count): `(id >> 22) % numShards`. */
  shardOf(guildId: string, numShards = this.recommendedShards): number {
    return shardOfGuild(guildId, numShards);
  }

  /** What `GET /gateway/bot` answers as `shards`; set it to make discord.js's `shards: "auto"` spawn that many. */
  get recommendedShards(): number {
    return this.state.recommendedShards;
  }
  set recommendedShards(count: number) {
    if (!Number.isInteger(count) || count < 1) throw new Error(`recommendedShards must be a whole number of at least 1; got ${count}`);
    this.state.recommendedShards = count;
  }

  addTextChannel(name: string, guildId = this.guild.id): FakeTextChannel {
    return this.world.addTextChannel(guildId, name);
  }

  /**
   * A person posting a message, with files (served by the CDN at signed links), stickers, embeds or a reply
   * reference. Rejects what Discord would refuse: an empty message, over 10 files or 3 stickers, a file
   * over 10 MiB (500 MiB with `premium`), a reply to a message not in the channel.
   */
  async userSends(input: UserMessageInput): Promise<FakeMessage> {
    return userSends(this.world, input);
  }

  openDm(userId: string): FakeDmChannel {
    return openDm(this.world, userId);
  }

  runSlashCommand(input: SlashCommandInput): FakeInteraction {
    return runSlashCommand(this.world, input);
  }

  submitModal(input: ModalSubmitInput): FakeInteraction {
    return submitModal(this.world, input);
  }

  /** Throws, dispatching nothing, when the person could not click it: see component-interactions.ts. */
  clickButton(input: ButtonClickInput): FakeInteraction {
    return clickButton(this.world, input);
  }

  /** A modified client sending a custom id the message does not carry (Discord itself refuses these). */
  forgeButtonClick(input: ButtonClickInput): FakeInteraction {
    return forgeButtonClick(this.world, input);
  }

  selectMenu(input: SelectMenuInput): FakeInteraction {
    return selectMenu(this.world, input);
  }

  archiveThread(threadId: string, options: { locked?: boolean } = {}): FakeThread {
    return archiveThread(this.world, threadId, options);
  }

  unarchiveThread(threadId: string): FakeThread {
    return unarchiveThread(this.world, threadId);
  }

  deleteThread(threadId: string): void {
    deleteThread(this.world, threadId);
  }

  /** Messages anyone can see in the channel, oldest first; ephemeral replies are in interactionResponses. */
  messagesIn(channelId: string): FakeMessage[] {
    return this.state.messagesIn(channelId);
  }

  /** Any message by id, including ephemeral replies and follow-ups and deleted messages (see `deleted`). */
  message(messageId: string): FakeMessage | undefined {
    return this.state.messages.get(messageId);
  }

  interaction(interactionId: string): FakeInteraction | undefined {
    return this.state.interactions.get(interactionId);
  }

  /** Callback, edits of @original, follow-ups and their edits, in the order the bot sent them. */
  interactionResponses(interactionId: string): InteractionResponseRecord[] {
    return this.state.interactions.get(interactionId)?.responses ?? [];
  }

  /** Every thread ever created, deleted ones included (see `deleted`). */
  get threads(): FakeThread[] {
    return [...this.state.channels.values()].filter((c): c is FakeThread => c.kind === "thread");
  }

  thread(threadId: string): FakeThread | undefined {
    return this.threads.find((t) => t.id === threadId);
  }

  /** When the bot said it was typing in the channel, as epoch milliseconds. */
  typingIn(channelId: string): number[] {
    return this.state.typing.filter((t) => t.channelId === channelId).map((t) => t.at);
  }

  get restRequests(): readonly RecordedRequest[] {
    return this.state.restRequests;
  }
  /** Every request to the CDN, in order, refused ones (404) included. */
  get cdnRequests(): readonly CdnRequest[] {
    return this.state.cdnRequests;
  }
  /** Requests no route answered (404) or that crashed the fake (500); a healthy test leaves this empty. */
  get unhandledRequests(): readonly RecordedRequest[] {
    return this.state.unhandledRequests;
  }
  get commandRegistrations(): readonly CommandRegistration[] {
    return this.state.commandRegistrations;
  }
  get commands(): RegisteredCommands {
    return this.state.commands;
  }
  get gatewayHistory(): readonly GatewayHistoryEntry[] {
    return this.gateway.history;
  }
  /** Gateway sessions with an open socket: one per logged-in client. */
  get openGatewaySessions(): number {
    return this.gateway.openSessionCount;
  }
  /** Open gateway sessions per shard id, e.g. `{ 0: 1, 1: 1 }`; a shard whose socket is closed is absent. */
  openGatewaySessionsByShard(): Record<number, number> {
    return this.gateway.openSessionsByShard();
  }
  /** Every dispatch each session was sent, READY and GUILD_CREATE included, with the session's shard. */
  get gatewayDispatches(): readonly GatewayDispatchRecord[] {
    return this.gateway.dispatches;
  }

  /** Polls until `predicate` returns something truthy, and resolves to it. */
  async waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs = 5000, description?: string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (Date.now() > deadline) {
        const what = description ?? predicate.toString().replace(/\s+/g, " ").slice(0, 200);
        const last = this.state.restRequests.at(-1);
        const lastRequest = last ? `${last.method} ${last.path} → ${last.status}` : "none";
        throw new Error(`fake Discord waited ${timeoutMs}ms for: ${what} (last REST request: ${lastRequest})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** The next matching REST request(s) get this answer instead, e.g. a 429 or a 500. */
  failNext(options: FailNextOptions): void {
    this.rest.failNext(options);
  }

  /** Cuts gateway connections, all of them or, with `shard`, only that shard's, as a lost network or a killed process would. */
  dropGatewayConnections(options: DropOptions = {}): void {
    this.gateway.dropConnections(options);
  }

  async close(): Promise<void> {
    await this.gateway.close();
    for (const server of [this.server, this.cdn]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
