import {
  Events,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayOpcodes,
  MessageFlags,
  Routes,
  type Client,
  type Message,
  type RESTGetAPIGatewayBotResult,
} from "discord.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startFakeDiscord, type AddedGuild, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { BOT_INTENTS, DiscordJsClients, nextEvent, nextInteraction } from "./fake-discord-client.js";

let discord: FakeDiscord;
let guildA: AddedGuild;
let guildB: AddedGuild;
const clients = new DiscordJsClients();
const rawSockets: WebSocket[] = [];

beforeEach(async () => {
  discord = await startFakeDiscord({ recommendedShards: 2 });
  guildA = discord.addGuild({ name: "Shard Zero Server", forShard: [0, 2] });
  guildB = discord.addGuild({ name: "Shard One Server", forShard: [1, 2] });
});

afterEach(async () => {
  for (const socket of rawSockets.splice(0)) socket.terminate();
  await clients.destroyAll();
  await discord.close();
});

/** A discord.js client running one shard of two, as each ShardingManager process does. */
function shardClient(shardId: number): Promise<Client<true>> {
  // discord.js waits up to 5 s between identifies of one client; tests may skip that wait.
  const ws = { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) };
  return clients.logIn(discord, { shards: [shardId], shardCount: 2, ws });
}

/** Messages from alice that reach the client, in order. */
function receivedMessages(client: Client): Message[] {
  const seen: Message[] = [];
  client.on(Events.MessageCreate, (message) => {
    if (message.author.id === discord.alice.id) seen.push(message);
  });
  return seen;
}

/** Alice posts in the channel and the test waits until the client has it; the client's socket delivers in order. */
async function aliceSendsAndClientSees(client: Client, channelId: string, content: string): Promise<Message> {
  const received = nextEvent(client, Events.MessageCreate, (m) => m.content === content);
  await discord.userSends({ channelId, userId: discord.alice.id, content });
  return (await received)[0];
}

function shardsSent(event: GatewayDispatchEvents, id: string): number[] {
  return discord.gatewayDispatches.filter((d) => d.event === event && (d.data as { id?: unknown }).id === id).map((d) => d.shard[0]);
}

/** A bare gateway connection, standing in for a shard process that the test can kill outright. */
async function rawGatewaySocket(): Promise<{ socket: WebSocket; frames: { op: number; t?: string; s?: number; d?: unknown }[] }> {
  const socket = new WebSocket(`${discord.gatewayUrl}/?v=10&encoding=json`);
  rawSockets.push(socket);
  const frames: { op: number; t?: string; s?: number; d?: unknown }[] = [];
  socket.on("message", (raw) => frames.push(JSON.parse(raw.toString()) as (typeof frames)[number]));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  await discord.waitFor(() => frames.some((f) => f.op === GatewayOpcodes.Hello), 2000, "HELLO");
  return { socket, frames };
}

function identifyFrame(shard: unknown): string {
  const intents = BOT_INTENTS.reduce((all, bit) => all | bit, 0);
  return JSON.stringify({ op: GatewayOpcodes.Identify, d: { token: discord.token, intents, shard, properties: {} } });
}

describe("fake Discord sharding, with one discord.js client per shard", () => {
  it("gives each shard's client READY with its shard and only the guilds that shard owns", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);

    // The default guild's id, 1000000000000000100, lands on shard 1 of 2.
    expect(discord.shardOf(discord.guild.id)).toBe(1);
    expect([...client0.guilds.cache.keys()]).toEqual([guildA.guild.id]);
    expect([...client1.guilds.cache.keys()].sort()).toEqual([discord.guild.id, guildB.guild.id].sort());
    expect(client1.guilds.cache.get(guildB.guild.id)?.channels.cache.get(guildB.textChannel.id)?.name).toBe("general");
    expect(client1.guilds.cache.get(guildB.guild.id)?.members.me?.permissions.has("ManageThreads")).toBe(true);
    const readies = discord.gatewayDispatches.filter((d) => d.event === GatewayDispatchEvents.Ready);
    expect(readies.map((d) => (d.data as { shard: unknown }).shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(discord.gatewayHistory.filter((e) => e.kind === "identify").map((e) => e.shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(discord.openGatewaySessionsByShard()).toEqual({ 0: 1, 1: 1 });
    expect(discord.unhandledRequests).toEqual([]);
  });

  it("delivers a message in shard 1's guild, and the thread started from it, to client 1 only", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);
    const seenBy0 = receivedMessages(client0);

    const message = await aliceSendsAndClientSees(client1, guildB.textChannel.id, "hello shard one");
    const thread = await message.startThread({ name: "On shard one" });
    await aliceSendsAndClientSees(client0, guildA.textChannel.id, "hello shard zero");

    expect(seenBy0.map((m) => m.content)).toEqual(["hello shard zero"]);
    expect(shardsSent(GatewayDispatchEvents.MessageCreate, message.id)).toEqual([1]);
    expect(shardsSent(GatewayDispatchEvents.ThreadCreate, thread.id)).toEqual([1]);
    expect(client0.channels.cache.has(thread.id)).toBe(false);
  });

  it("delivers a DM to shard 0 only, as Discord does", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);
    const seenBy1 = receivedMessages(client1);
    const dm = discord.openDm(discord.alice.id);

    const message = await aliceSendsAndClientSees(client0, dm.id, "psst");
    await aliceSendsAndClientSees(client1, guildB.textChannel.id, "after the DM");

    expect(message.guildId).toBeNull();
    expect(seenBy1.map((m) => m.content)).toEqual(["after the DM"]);
    expect(shardsSent(GatewayDispatchEvents.MessageCreate, message.id)).toEqual([0]);
  });

  it("sends a guild's slash command to its shard and a DM's to shard 0, answered through the same callback", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);

    const inGuild = nextInteraction(client1);
    const guildCommand = discord.runSlashCommand({ userId: discord.bob.id, channelId: guildB.textChannel.id, name: "ping" });
    const guildInteraction = await inGuild;
    if (!guildInteraction.isChatInputCommand()) throw new Error("expected a chat input command");
    await guildInteraction.reply({ content: "pong from shard one", flags: MessageFlags.Ephemeral });

    const inDm = nextInteraction(client0);
    const dmCommand = discord.runSlashCommand({ userId: discord.bob.id, channelId: discord.openDm(discord.bob.id).id, name: "ping" });
    const dmInteraction = await inDm;
    if (!dmInteraction.isChatInputCommand()) throw new Error("expected a chat input command");
    await dmInteraction.reply("pong from shard zero");

    expect(guildInteraction.guildId).toBe(guildB.guild.id);
    expect(shardsSent(GatewayDispatchEvents.InteractionCreate, guildCommand.id)).toEqual([1]);
    expect(shardsSent(GatewayDispatchEvents.InteractionCreate, dmCommand.id)).toEqual([0]);
    expect(discord.interactionResponses(guildCommand.id)).toMatchObject([{ kind: "callback", content: "pong from shard one" }]);
    expect(discord.interactionResponses(dmCommand.id)).toMatchObject([{ kind: "callback", content: "pong from shard zero" }]);
  });

  it("announces a guild the bot joins while connected to the owning shard only", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);

    const joined = nextEvent(client0, Events.GuildCreate);
    const added = discord.addGuild({ name: "Joined Later", forShard: [0, 2] });
    const [guild] = await joined;
    await aliceSendsAndClientSees(client1, guildB.textChannel.id, "fence");

    expect(guild.id).toBe(added.guild.id);
    expect(discord.shardOf(added.guild.id)).toBe(0);
    expect(client1.guilds.cache.has(added.guild.id)).toBe(false);
    expect(shardsSent(GatewayDispatchEvents.GuildCreate, added.guild.id)).toEqual([0]);
  });

  it("recommends the configured shard count from GET /gateway/bot", async () => {
    const client0 = await shardClient(0);

    const recommended = (await client0.rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
    discord.recommendedShards = 3;
    const afterChange = (await client0.rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;

    expect(recommended).toMatchObject({ url: discord.gatewayUrl, shards: 2, session_start_limit: { max_concurrency: 1 } });
    expect(afterChange.shards).toBe(3);
    expect(discord.shardOf(guildB.guild.id, 2)).toBe(1);
    expect(() => (discord.recommendedShards = 0)).toThrow(/at least 1/);
  });

  it("drops only shard 1's connection: client 1 resumes its session and client 0 is untouched", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);
    const client0ShardEvents: string[] = [];
    for (const event of [Events.ShardDisconnect, Events.ShardReconnecting, Events.ShardResume, Events.ShardError] as const) {
      client0.on(event, () => client0ShardEvents.push(event));
    }
    const resumed = nextEvent(client1, Events.ShardResume);

    discord.dropGatewayConnections({ shard: 1 });
    await resumed;
    const inB = await aliceSendsAndClientSees(client1, guildB.textChannel.id, "still on shard one?");
    const inA = await aliceSendsAndClientSees(client0, guildA.textChannel.id, "still on shard zero?");

    expect([inA.content, inB.content]).toEqual(["still on shard zero?", "still on shard one?"]);
    expect(client0ShardEvents).toEqual([]);
    expect(discord.gatewayHistory.filter((e) => e.kind === "resume").map((e) => e.shard)).toEqual([[1, 2]]);
    expect(discord.gatewayHistory.filter((e) => e.kind === "close").map((e) => e.shard)).toEqual([[1, 2]]);
    expect(discord.gatewayHistory.filter((e) => e.kind === "identify")).toHaveLength(2);
    expect(discord.openGatewaySessionsByShard()).toEqual({ 0: 1, 1: 1 });
  });

  it("forgets only shard 1's session when told so: client 1 identifies again as shard 1", async () => {
    const client0 = await shardClient(0);
    const client1 = await shardClient(1);

    discord.dropGatewayConnections({ shard: 1, closeCode: 4000, allowResume: false });
    await discord.waitFor(() => discord.gatewayHistory.filter((e) => e.kind === "identify").length === 3, 5000, "a third IDENTIFY");
    await aliceSendsAndClientSees(client1, guildB.textChannel.id, "back on shard one");
    await aliceSendsAndClientSees(client0, guildA.textChannel.id, "never left shard zero");

    expect(discord.gatewayHistory.filter((e) => e.kind === "identify").map((e) => e.shard)).toEqual([
      [0, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(discord.gatewayHistory.filter((e) => e.kind === "invalid-session")).toHaveLength(1);
    expect([...client1.guilds.cache.keys()].sort()).toEqual([discord.guild.id, guildB.guild.id].sort());
  });

  it("notices a killed shard's socket, keeps what it missed, and replays it to the RESUME of the restarted process", async () => {
    const client0 = await shardClient(0);
    const killed = await rawGatewaySocket();
    killed.socket.send(identifyFrame([1, 2]));
    await discord.waitFor(() => discord.openGatewaySessionsByShard()[1] === 1, 2000, "shard 1's session");
    const ready = killed.frames.find((f) => f.t === GatewayDispatchEvents.Ready)?.d as { session_id: string; shard: unknown };
    const lastSequence = Math.max(...killed.frames.map((f) => f.s ?? 0));

    killed.socket.terminate();
    await discord.waitFor(() => discord.gatewayHistory.some((e) => e.kind === "close" && e.shard?.[0] === 1), 2000, "the close");
    const missed = await discord.userSends({ channelId: guildB.textChannel.id, userId: discord.alice.id, content: "while you were down" });
    await aliceSendsAndClientSees(client0, guildA.textChannel.id, "shard zero carries on");
    const restarted = await rawGatewaySocket();
    restarted.socket.send(JSON.stringify({ op: GatewayOpcodes.Resume, d: { token: discord.token, session_id: ready.session_id, seq: lastSequence } }));
    await discord.waitFor(() => restarted.frames.some((f) => f.t === GatewayDispatchEvents.Resumed), 2000, "RESUMED");

    expect(ready.shard).toEqual([1, 2]);
    expect(discord.gatewayHistory.filter((e) => e.kind === "close").map((e) => [e.code, e.shard])).toEqual([[1006, [1, 2]]]);
    expect(discord.gatewayDispatches.find((d) => (d.data as { id?: unknown }).id === missed.id)).toMatchObject({ shard: [1, 2], delivered: false });
    const replayed = restarted.frames.filter((f) => f.op === GatewayOpcodes.Dispatch).map((f) => f.t);
    expect(replayed).toEqual([GatewayDispatchEvents.MessageCreate, GatewayDispatchEvents.Resumed]);
    expect(discord.gatewayHistory.at(-1)).toMatchObject({ kind: "resume", shard: [1, 2], replayed: 1 });
    expect(discord.openGatewaySessionsByShard()).toEqual({ 0: 1, 1: 1 });
  });

  it("lets a restarted shard process identify anew and get its guilds back", async () => {
    const killed = await rawGatewaySocket();
    killed.socket.send(identifyFrame([1, 2]));
    await discord.waitFor(() => discord.openGatewaySessionsByShard()[1] === 1, 2000, "shard 1's session");
    killed.socket.terminate();
    await discord.waitFor(() => discord.openGatewaySessionsByShard()[1] === undefined, 2000, "shard 1's socket to close");

    const restarted = await shardClient(1);
    const message = await aliceSendsAndClientSees(restarted, guildB.textChannel.id, "welcome back");

    expect(message.guildId).toBe(guildB.guild.id);
    expect([...restarted.guilds.cache.keys()].sort()).toEqual([discord.guild.id, guildB.guild.id].sort());
  });

  it("closes with 4010 Invalid shard when IDENTIFY names a shard outside num_shards", async () => {
    const { socket } = await rawGatewaySocket();
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));

    socket.send(identifyFrame([2, 2]));

    expect(await closed).toBe(GatewayCloseCodes.InvalidShard);
    expect(discord.gatewayHistory.some((e) => e.kind === "identify")).toBe(false);
  });

  it("keeps an unsharded client seeing every guild, with READY saying [0, 1]", async () => {
    const client = await clients.logIn(discord);

    expect([...client.guilds.cache.keys()].sort()).toEqual([discord.guild.id, guildA.guild.id, guildB.guild.id].sort());
    expect(discord.gatewayHistory.find((e) => e.kind === "identify")).toMatchObject({ shard: [0, 1] });
    await aliceSendsAndClientSees(client, guildA.textChannel.id, "one");
    await aliceSendsAndClientSees(client, guildB.textChannel.id, "two");
  });
});
