import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ComponentType,
  DiscordAPIError,
  Events,
  InteractionResponseType,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  Routes,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Client,
  type Message,
  type MessageCreateOptions,
} from "discord.js";
import { describe, expect, it } from "vitest";
import { componentsOf, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { fakeDiscordPerTest, nextEvent, nextInteraction } from "./fake-discord-client.js";

let discord: FakeDiscord;
const clients = fakeDiscordPerTest((fresh) => (discord = fresh));

const button = (customId: string, label: string, style = ButtonStyle.Primary) => new ButtonBuilder().setCustomId(customId).setLabel(label).setStyle(style);

const row = (...buttons: ButtonBuilder[]) => new ActionRowBuilder<ButtonBuilder>().addComponents(...buttons);

const drinkSelect = () =>
  new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
    new StringSelectMenuBuilder()
      .setCustomId("drink")
      .setPlaceholder("Pick a drink")
      .setMinValues(1)
      .setMaxValues(2)
      .addOptions({ label: "Tea", value: "tea" }, { label: "Coffee", value: "coffee" }, { label: "Water", value: "water" }),
  );

async function botSends(client: Client<true>, options: MessageCreateOptions): Promise<Message> {
  const channel = client.channels.cache.get(discord.textChannel.id);
  if (!channel?.isSendable()) throw new Error("expected a sendable channel");
  return channel.send(options);
}

describe("fake Discord: message components", () => {
  it("delivers a button click with the message it is on, and applies the bot's update to that message", async () => {
    const client = await clients.logIn(discord);
    const sent = await botSends(client, {
      content: "Keep this note?",
      components: [row(button("keep", "Keep"), button("drop", "Drop", ButtonStyle.Danger))],
    });
    expect(componentsOf(discord.message(sent.id)!)).toEqual([
      { type: ComponentType.Button, customId: "keep", label: "Keep", disabled: false },
      { type: ComponentType.Button, customId: "drop", label: "Drop", disabled: false },
    ]);

    const arrived = nextInteraction(client);
    const click = discord.clickButton({ userId: discord.bob.id, messageId: sent.id, customId: "keep", locale: "fr" });
    const interaction = await arrived;
    if (!interaction.isButton()) throw new Error("expected a button interaction");
    expect(interaction.id).toBe(click.id);
    expect(interaction.customId).toBe("keep");
    expect(interaction.message.id).toBe(sent.id);
    expect(interaction.message.content).toBe("Keep this note?");
    expect(interaction.user.id).toBe(discord.bob.id);
    expect(interaction.guildId).toBe(discord.guild.id);
    expect(interaction.locale).toBe("fr");
    expect(interaction.appPermissions?.has("ManageThreads")).toBe(true);
    expect(interaction.memberPermissions?.has("ManageThreads")).toBe(false);

    const updated = nextEvent(client, Events.MessageUpdate);
    await interaction.update({ content: "Kept.", components: [] });
    const [, after] = await updated;

    expect(after.content).toBe("Kept.");
    expect(discord.message(sent.id)).toMatchObject({ content: "Kept.", components: [] });
    expect(discord.interactionResponses(click.id)).toMatchObject([
      { kind: "callback", callbackType: InteractionResponseType.UpdateMessage, messageId: sent.id, content: "Kept.", components: [] },
    ]);
    expect(discord.unhandledRequests).toEqual([]);
  });

  it("passes the values chosen in a string select, and edits the select's message after a deferred update", async () => {
    const client = await clients.logIn(discord);
    const sent = await botSends(client, { content: "What to drink?", components: [drinkSelect()] });
    expect(componentsOf(discord.message(sent.id)!)).toEqual([
      {
        type: ComponentType.StringSelect,
        customId: "drink",
        label: "Pick a drink",
        disabled: false,
        options: [
          { label: "Tea", value: "tea" },
          { label: "Coffee", value: "coffee" },
          { label: "Water", value: "water" },
        ],
      },
    ]);

    const arrived = nextInteraction(client);
    const choice = discord.selectMenu({ userId: discord.alice.id, messageId: sent.id, customId: "drink", values: ["tea", "water"] });
    const interaction = await arrived;
    if (!interaction.isStringSelectMenu()) throw new Error("expected a string select interaction");
    expect(interaction.values).toEqual(["tea", "water"]);
    expect(interaction.message.id).toBe(sent.id);

    await interaction.deferUpdate();
    await interaction.editReply({ content: "Tea and water it is.", components: [] });

    expect(discord.message(sent.id)).toMatchObject({ content: "Tea and water it is.", components: [] });
    expect(discord.interactionResponses(choice.id)).toMatchObject([
      { kind: "callback", callbackType: InteractionResponseType.DeferredMessageUpdate, messageId: sent.id },
      { kind: "original-edit", messageId: sent.id, content: "Tea and water it is." },
    ]);
    expect(discord.messagesIn(discord.textChannel.id)).toHaveLength(1);
  });

  it("refuses a click or a choice a person could not make", async () => {
    const client = await clients.logIn(discord);
    const disabled = button("gone", "Gone").setDisabled(true);
    const link = new ButtonBuilder().setURL("https://example.com").setLabel("Docs").setStyle(ButtonStyle.Link);
    const sent = await botSends(client, { content: "Choose", components: [row(button("ok", "OK"), disabled, link), drinkSelect()] });
    const at = { userId: discord.alice.id, messageId: sent.id };

    expect(() => discord.clickButton({ ...at, customId: "nope" })).toThrow(/has no component "nope"/);
    expect(() => discord.clickButton({ ...at, customId: "gone" })).toThrow(/disabled/);
    expect(() => discord.clickButton({ ...at, customId: "drink" })).toThrow(/is a string select, not a button/);
    expect(() => discord.selectMenu({ ...at, customId: "ok", values: [] })).toThrow(/is a button, not a string select/);
    expect(() => discord.selectMenu({ ...at, customId: "drink", values: ["milk"] })).toThrow(/"milk" is not one of its options/);
    expect(() => discord.selectMenu({ ...at, customId: "drink", values: [] })).toThrow(/at least 1/);
    expect(() => discord.selectMenu({ ...at, customId: "drink", values: ["tea", "coffee", "water"] })).toThrow(/at most 2/);
    expect(() => discord.selectMenu({ ...at, customId: "drink", values: ["tea", "tea"] })).toThrow(/twice/);
    expect(() => discord.clickButton({ ...at, messageId: "1", customId: "ok" })).toThrow(/no message 1/);

    await sent.delete();
    expect(() => discord.clickButton({ ...at, customId: "ok" })).toThrow(/deleted/);
  });

  it("finds an ephemeral reply by id, and lets only the person who ran the command click it", async () => {
    const client = await clients.logIn(discord);
    const arrived = nextInteraction(client);
    const command = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "forget" });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");
    await interaction.reply({ content: "Forget everything?", components: [row(button("yes", "Yes"))], flags: MessageFlags.Ephemeral });

    const replyId = discord.interactionResponses(command.id)[0]?.messageId ?? "";
    expect(discord.message(replyId)).toMatchObject({ content: "Forget everything?", flags: MessageFlags.Ephemeral });
    expect(componentsOf(discord.message(replyId)!).map((c) => c.customId)).toEqual(["yes"]);
    expect(() => discord.clickButton({ userId: discord.bob.id, messageId: replyId, customId: "yes" })).toThrow(/only alice can see/);

    const clicked = nextInteraction(client);
    const click = discord.clickButton({ userId: discord.alice.id, messageId: replyId, customId: "yes" });
    const press = await clicked;
    if (!press.isButton()) throw new Error("expected a button interaction");
    expect(press.message.flags.has(MessageFlags.Ephemeral)).toBe(true);
    await press.update({ content: "Forgotten.", components: [] });

    expect(discord.message(replyId)).toMatchObject({ content: "Forgotten.", components: [], flags: MessageFlags.Ephemeral });
    expect(discord.interactionResponses(click.id)[0]).toMatchObject({ callbackType: InteractionResponseType.UpdateMessage, ephemeral: true });
    expect(discord.messagesIn(discord.textChannel.id)).toEqual([]);
  });

  it("answers a click with an ephemeral reply and follow-ups, and edits both", async () => {
    const client = await clients.logIn(discord);
    const sent = await botSends(client, { content: "Status?", components: [row(button("status", "Status"))] });
    const arrived = nextInteraction(client);
    const click = discord.clickButton({ userId: discord.bob.id, messageId: sent.id, customId: "status" });
    const interaction = await arrived;
    if (!interaction.isButton()) throw new Error("expected a button interaction");

    await interaction.reply({ content: "Checking…", flags: MessageFlags.Ephemeral });
    const shared = await interaction.followUp("Everything is fine.");
    const secret = await interaction.followUp({ content: "Just for you.", flags: MessageFlags.Ephemeral });
    await interaction.editReply({ message: shared, content: "Everything is fine, really." });
    await interaction.editReply("Checked.");

    expect(discord.interactionResponses(click.id).map((r) => [r.kind, r.callbackType, r.ephemeral])).toEqual([
      ["callback", InteractionResponseType.ChannelMessageWithSource, true],
      ["follow-up", null, false],
      ["follow-up", null, true],
      ["follow-up-edit", null, false],
      ["original-edit", null, true],
    ]);
    expect(discord.messagesIn(discord.textChannel.id).map((m) => m.content)).toEqual(["Status?", "Everything is fine, really."]);
    expect(discord.message(secret.id)).toMatchObject({ content: "Just for you.", flags: MessageFlags.Ephemeral });
    expect(discord.message(sent.id)?.content).toBe("Status?");
  });

  it("lets the first follow-up after a deferred reply replace the thinking message, keeping the deferral's ephemerality", async () => {
    const client = await clients.logIn(discord);
    const arrived = nextInteraction(client);
    const command = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "export" });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");

    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const first = await interaction.followUp("Here is your export.");
    const second = await interaction.followUp("And a public note.");

    const originalId = discord.interactionResponses(command.id)[0]?.messageId;
    expect(first.id).toBe(originalId);
    expect(discord.message(first.id)).toMatchObject({ content: "Here is your export.", flags: MessageFlags.Ephemeral });
    expect(second.id).not.toBe(originalId);
    expect(discord.messagesIn(discord.textChannel.id).map((m) => m.content)).toEqual(["And a public note."]);
  });

  it("shows a modal from a button, and lets the submission update the button's message", async () => {
    const client = await clients.logIn(discord);
    const sent = await botSends(client, { content: "Your note: (none)", components: [row(button("edit-note", "Edit"))] });
    const arrived = nextInteraction(client);
    const click = discord.clickButton({ userId: discord.alice.id, messageId: sent.id, customId: "edit-note" });
    const interaction = await arrived;
    if (!interaction.isButton()) throw new Error("expected a button interaction");
    const input = new TextInputBuilder().setCustomId("note").setStyle(TextInputStyle.Short);
    await interaction.showModal(
      new ModalBuilder().setCustomId("note-modal").setTitle("Edit note").addLabelComponents(new LabelBuilder().setLabel("Note").setTextInputComponent(input)),
    );
    expect(discord.interactionResponses(click.id)[0]).toMatchObject({ callbackType: InteractionResponseType.Modal });

    const submitted = nextInteraction(client);
    const submit = discord.submitModal({ userId: discord.alice.id, channelId: discord.textChannel.id, customId: "note-modal", fields: { note: "tea" } });
    const submission = await submitted;
    if (!submission.isModalSubmit() || !submission.isFromMessage()) throw new Error("expected a modal submit from a message");
    expect(submission.message.id).toBe(sent.id);
    await submission.update({ content: "Your note: tea", components: [] });

    expect(discord.message(sent.id)).toMatchObject({ content: "Your note: tea", components: [] });
    expect(discord.interactionResponses(submit.id)).toMatchObject([
      { kind: "callback", callbackType: InteractionResponseType.UpdateMessage, messageId: sent.id },
    ]);
  });

  it("refuses an update response to a slash command, which has no message to update", async () => {
    const client = await clients.logIn(discord);
    const arrived = nextInteraction(client);
    const command = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "memory" });
    await arrived;

    const failure = await client.rest
      .post(Routes.interactionCallback(command.id, command.token), {
        body: { type: InteractionResponseType.DeferredMessageUpdate },
        auth: false,
      })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DiscordAPIError);
    expect((failure as DiscordAPIError).status).toBe(400);
    expect(discord.interaction(command.id)?.acknowledged).toBe(false);
  });
});
