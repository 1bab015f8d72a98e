import {
  ActionRowBuilder,
  ChannelType,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  InteractionResponseType,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Client,
  type ClientOptions,
  type Message,
} from "discord.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slashOption, startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { DiscordJsClients, nextEvent, nextInteraction } from "./fake-discord-client.js";

let discord: FakeDiscord;
const clients = new DiscordJsClients();

beforeEach(async () => {
  discord = await startFakeDiscord();
});

afterEach(async () => {
  await clients.destroyAll();
  await discord.close();
});

function loggedInClient(overrides: Partial<ClientOptions> = {}): Promise<Client<true>> {
  return clients.logIn(discord, overrides);
}

async function messageFromAlice(client: Client, content: string, channelId = discord.textChannel.id): Promise<Message> {
  const received = nextEvent(client, Events.MessageCreate, (m) => m.author.id === discord.alice.id && m.content.endsWith(content));
  await discord.userSends({ channelId, userId: discord.alice.id, content });
  const [message] = await received;
  return message;
}

describe("fake Discord with the real discord.js client", () => {
  it("logs in and sees the default guild, its text channel and the bot user", async () => {
    const client = await loggedInClient();

    expect(client.user.id).toBe(discord.botUser.id);
    const guild = client.guilds.cache.get(discord.guild.id);
    expect(guild?.name).toBe(discord.guild.name);
    expect(guild?.channels.cache.get(discord.textChannel.id)?.name).toBe("general");
    expect(guild?.members.me?.permissions.has("ManageThreads")).toBe(true);
    expect(discord.gatewayHistory.filter((e) => e.kind === "identify")).toHaveLength(1);
    expect(discord.unhandledRequests).toEqual([]);
  });

  it("delivers a user's message mentioning the bot with the bot in its mentions", async () => {
    const client = await loggedInClient();
    const received = nextEvent(client, Events.MessageCreate);

    await discord.userSends({ channelId: discord.textChannel.id, userId: discord.bob.id, content: "hello there", mentionsBot: true });

    const [message] = await received;
    expect(message.content).toBe(`<@${discord.botUser.id}> hello there`);
    expect(message.mentions.has(client.user)).toBe(true);
    expect(message.member?.id).toBe(discord.bob.id);
  });

  it("records a thread started from a message, the bot's message in it and each edit in order", async () => {
    const client = await loggedInClient();
    const message = await messageFromAlice(client, "let's talk");

    const thread = await message.startThread({ name: "Talk with Alice" });
    await thread.sendTyping();
    const sent = await thread.send("thinking…");
    await sent.edit({ content: "half an answer", allowedMentions: { parse: [] } });
    await sent.edit("the whole answer");

    expect(thread.id).toBe(message.id);
    expect(discord.thread(thread.id)).toMatchObject({
      parentId: discord.textChannel.id,
      name: "Talk with Alice",
      type: ChannelType.PublicThread,
      ownerId: discord.botUser.id,
      archived: false,
    });
    const [recorded] = discord.messagesIn(thread.id);
    expect(recorded?.content).toBe("the whole answer");
    expect(recorded?.edits.map((e) => e.content)).toEqual(["half an answer", "the whole answer"]);
    expect(recorded?.edits[0]?.allowedMentions).toEqual({ parse: [] });
    expect(discord.typingIn(thread.id)).toHaveLength(1);
  });

  it("delivers a DM through a partial channel and records the bot's reply", async () => {
    const client = await loggedInClient();
    const dm = discord.openDm(discord.alice.id);

    const message = await messageFromAlice(client, "psst", dm.id);
    expect(message.channel.type).toBe(ChannelType.DM);
    expect(message.guildId).toBeNull();
    await message.reply("hello in private");

    const reply = discord.messagesIn(dm.id).find((m) => m.authorId === discord.botUser.id);
    expect(reply).toMatchObject({ content: "hello in private", referencedMessageId: message.id });
  });

  it("passes slash command subcommands and options, and records an ephemeral reply", async () => {
    const client = await loggedInClient();
    const arrived = nextInteraction(client);

    const sent = discord.runSlashCommand({
      userId: discord.bob.id,
      channelId: discord.textChannel.id,
      name: "memory",
      options: [slashOption.subcommand("view", [slashOption.string("file", "user")])],
      locale: "de",
    });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");
    expect(interaction.id).toBe(sent.id);
    expect(interaction.commandName).toBe("memory");
    expect(interaction.options.getSubcommand()).toBe("view");
    expect(interaction.options.getString("file")).toBe("user");
    expect(interaction.locale).toBe("de");
    expect(interaction.memberPermissions?.has("ManageThreads")).toBe(false);
    await interaction.reply({ content: "only for you", flags: MessageFlags.Ephemeral });

    expect(discord.interactionResponses(sent.id)).toMatchObject([
      { kind: "callback", callbackType: InteractionResponseType.ChannelMessageWithSource, content: "only for you", ephemeral: true },
    ]);
    expect(discord.messagesIn(discord.textChannel.id)).toEqual([]);
  });

  it("records a deferred reply, its edit and a follow-up carrying a file", async () => {
    const client = await loggedInClient();
    const arrived = nextInteraction(client);
    const sent = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "export" });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");

    await interaction.deferReply();
    await interaction.editReply("here is your export");
    await interaction.followUp({ content: "the file", files: [{ attachment: Buffer.from("# Notes\n"), name: "x.md" }] });

    const responses = discord.interactionResponses(sent.id);
    expect(responses.map((r) => r.kind)).toEqual(["callback", "original-edit", "follow-up"]);
    expect(responses[0]?.callbackType).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(responses[1]?.content).toBe("here is your export");
    expect(responses[2]?.attachments.map((a) => [a.filename, a.text])).toEqual([["x.md", "# Notes\n"]]);
    expect(discord.messagesIn(discord.textChannel.id).map((m) => m.content)).toEqual(["here is your export", "the file"]);
  });

  it("records a modal built with Label components and delivers its submission", async () => {
    const client = await loggedInClient();
    const arrived = nextInteraction(client);
    const command = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "remember" });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");

    const note = new TextInputBuilder().setCustomId("note").setStyle(TextInputStyle.Paragraph).setMaxLength(500).setValue("draft");
    await interaction.showModal(
      new ModalBuilder()
        .setCustomId("remember-modal")
        .setTitle("Remember something")
        .addLabelComponents(new LabelBuilder().setLabel("What should I remember?").setTextInputComponent(note)),
    );
    expect(discord.interactionResponses(command.id)[0]?.modal).toEqual({
      customId: "remember-modal",
      title: "Remember something",
      layout: "label",
      inputs: [
        {
          customId: "note",
          label: "What should I remember?",
          description: null,
          style: TextInputStyle.Paragraph,
          required: true,
          value: "draft",
          placeholder: null,
          minLength: null,
          maxLength: 500,
        },
      ],
    });

    const submitted = nextInteraction(client);
    discord.submitModal({ userId: discord.alice.id, channelId: discord.textChannel.id, customId: "remember-modal", fields: { note: "I like tea" } });
    const submission = await submitted;
    if (!submission.isModalSubmit()) throw new Error("expected a modal submit");
    expect(submission.customId).toBe("remember-modal");
    expect(submission.fields.getTextInputValue("note")).toBe("I like tea");
  });

  it("records a modal built with action rows, the older layout", async () => {
    const client = await loggedInClient();
    const arrived = nextInteraction(client);
    const command = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "remember" });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");

    const input = new TextInputBuilder().setCustomId("note").setLabel("Note").setStyle(TextInputStyle.Short);
    await interaction.showModal(
      new ModalBuilder().setCustomId("old-modal").setTitle("Old").setComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
    );
    expect(discord.interactionResponses(command.id)[0]?.modal).toMatchObject({
      layout: "action-row",
      inputs: [{ customId: "note", label: "Note" }],
    });

    const submitted = nextInteraction(client);
    discord.submitModal({ userId: discord.alice.id, channelId: discord.textChannel.id, customId: "old-modal", fields: { note: "ok" } });
    const submission = await submitted;
    if (!submission.isModalSubmit()) throw new Error("expected a modal submit");
    expect(submission.fields.getTextInputValue("note")).toBe("ok");
    const unknownField = { userId: discord.alice.id, channelId: discord.textChannel.id, customId: "old-modal", fields: { other: "x" } };
    expect(() => discord.submitModal(unknownField)).toThrow(/no text input "other"/);
  });

  it("tells the client when a person archives and then deletes a thread, after which fetching it fails with 10003", async () => {
    const client = await loggedInClient();
    const message = await messageFromAlice(client, "start a thread");
    const thread = await message.startThread({ name: "Soon gone" });

    const updated = nextEvent(client, Events.ThreadUpdate);
    discord.archiveThread(thread.id, { locked: true });
    const [, afterArchive] = await updated;
    expect(afterArchive.archived).toBe(true);
    expect(afterArchive.locked).toBe(true);

    const deleted = nextEvent(client, Events.ThreadDelete);
    discord.deleteThread(thread.id);
    const [gone] = await deleted;
    expect(gone.id).toBe(thread.id);

    const failure = await client.channels.fetch(thread.id).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiscordAPIError);
    expect((failure as DiscordAPIError).code).toBe(10003);
  });

  it("lets discord.js retry an edit answered 429 until it lands", async () => {
    const client = await loggedInClient();
    const channel = client.channels.cache.get(discord.textChannel.id);
    if (!channel?.isSendable()) throw new Error("expected a sendable channel");
    const sent = await channel.send("first");

    discord.failNext({ method: "PATCH", route: "/channels/:channelId/messages/:messageId", status: 429, times: 2 });
    await sent.edit("second");

    const edits = discord.restRequests.filter((r) => r.method === "PATCH");
    expect(edits.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(discord.message(sent.id)?.content).toBe("second");
  });

  it("fails thread creation with a 500 once discord.js has spent its three retries", async () => {
    const client = await loggedInClient();
    const message = await messageFromAlice(client, "make a thread");

    discord.failNext({ method: "POST", route: "/channels/:channelId/messages/:messageId/threads", status: 500, times: 4 });

    await expect(message.startThread({ name: "never" })).rejects.toMatchObject({ status: 500 });
    expect(discord.threads).toEqual([]);
  });

  it("forgets an interaction the bot does not answer within the deadline", async () => {
    await discord.close();
    discord = await startFakeDiscord({ interactionAckDeadlineMs: 50 });
    const client = await loggedInClient();
    const arrived = nextInteraction(client);
    discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "slow" });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");

    await new Promise((resolve) => setTimeout(resolve, 100));

    await expect(interaction.deferReply()).rejects.toMatchObject({ code: 10062 });
  });

  it("resumes after the gateway connection drops and still delivers messages", async () => {
    const client = await loggedInClient();

    discord.dropGatewayConnections();
    await discord.waitFor(() => discord.gatewayHistory.some((e) => e.kind === "resume"), 5000, "a RESUME");
    const message = await messageFromAlice(client, "are you still there?");

    expect(message.content).toBe("are you still there?");
    expect(discord.gatewayHistory.filter((e) => e.kind === "identify")).toHaveLength(1);
  });

  it("re-identifies when the session cannot be resumed", async () => {
    // discord.js waits up to 5 s between identifies of one client; tests may skip that wait.
    const client = await loggedInClient({ ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) } });

    discord.dropGatewayConnections({ closeCode: 4000, allowResume: false });
    await discord.waitFor(() => discord.gatewayHistory.filter((e) => e.kind === "identify").length === 2, 5000, "a second IDENTIFY");
    const message = await messageFromAlice(client, "hello again");

    expect(message.content).toBe("hello again");
    expect(discord.gatewayHistory.some((e) => e.kind === "invalid-session")).toBe(true);
  });

  it("lets a second client log in after the first was destroyed, with the same state", async () => {
    const first = await loggedInClient();
    const firstMessage = await messageFromAlice(first, "remember me");
    await firstMessage.startThread({ name: "Kept" });
    await first.destroy();
    await discord.waitFor(() => discord.openGatewaySessions === 0, 5000, "the first client's session to end");

    const second = await loggedInClient();
    const keptThread = second.channels.cache.get(firstMessage.id);
    expect(keptThread?.isThread() && keptThread.name).toBe("Kept");
    const message = await messageFromAlice(second, "it's me again");
    expect(message.content).toBe("it's me again");
  });

  it("acknowledges heartbeats", async () => {
    await discord.close();
    discord = await startFakeDiscord({ heartbeatIntervalMs: 100 });
    const client = await loggedInClient();

    await discord.waitFor(() => client.ws.ping >= 0, 2000, "a measured heartbeat");
  });

  it("blanks message content for a client without the MessageContent intent, unless it mentions the bot", async () => {
    const client = await loggedInClient({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] });

    const plain = nextEvent(client, Events.MessageCreate);
    await discord.userSends({ channelId: discord.textChannel.id, userId: discord.bob.id, content: "secret" });
    expect((await plain)[0].content).toBe("");

    const mention = nextEvent(client, Events.MessageCreate);
    await discord.userSends({ channelId: discord.textChannel.id, userId: discord.bob.id, content: "hi", mentionsBot: true });
    expect((await mention)[0].content).toBe(`<@${discord.botUser.id}> hi`);
  });

  it("answers unknown routes with a 404 and records them", async () => {
    const client = await loggedInClient();

    await expect(client.rest.get("/nothing/here")).rejects.toMatchObject({ status: 404 });
    expect(discord.unhandledRequests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /nothing/here"]);
  });
});
