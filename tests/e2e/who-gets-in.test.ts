import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { componentsOf, slashOption as s, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { startFakes } from "../helpers/fakes.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const memberLookups = (discord: FakeDiscord, userId: string) =>
  discord.restRequests.filter((r) => r.method === "GET" && r.route === "/guilds/:guildId/members/:userId" && r.path.endsWith(`/${userId}`));

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Sends a DM and waits for the bot's next message in that DM. */
async function dm(h: BotHarness, userId: string, content: string) {
  const channel = h.discord.openDm(userId);
  const before = botMessages(h.discord, channel.id).length;
  await h.discord.userSends({ channelId: channel.id, userId, content });
  return h.discord.waitFor(() => botMessages(h.discord, channel.id)[before]);
}

describe("who may DM the bot when an allow list is set", () => {
  it("with ALLOWED_GUILD_IDS, refuses a DM from someone in no allowed server once, in English and Chinese, and nothing reaches the model", async () => {
    const { discord, model, home } = await startFakes();
    const h = await startBot({ discord, model, home, env: { ALLOWED_GUILD_IDS: discord.guild.id } });
    const stranger = discord.addUser({ username: "mallory", inGuild: false });
    const channel = discord.openDm(stranger.id);
    for (const content of ["hello", "are you there?", "please answer"]) await discord.userSends({ channelId: channel.id, userId: stranger.id, content });
    const refusal = await discord.waitFor(() => botMessages(discord, channel.id)[0]);
    await settle();
    expect(refusal.content).toMatch(/only answer direct messages from members of the servers/);
    expect(refusal.content).toMatch(/只回复.*服务器成员的私信/);
    // One line, not one per message: a stranger cannot make the bot spam back.
    expect(botMessages(discord, channel.id)).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
    expect(memberLookups(discord, stranger.id).length).toBe(1);
    expect(await readFile(join(home, "users", stranger.id, "SOUL.md"), "utf8").catch(() => "none")).toBe("none");

    model.enqueue({ text: "Hi Alice." });
    expect((await dm(h, discord.alice.id, "hello")).content).toBe("Hi Alice.");
  });

  it("asks Discord about a member at most once a minute, and answers every message", async () => {
    const { discord, model, home } = await startFakes();
    const h = await startBot({ discord, model, home, env: { ALLOWED_GUILD_IDS: discord.guild.id } });
    model.enqueue({ text: "one" }, { text: "two" });
    expect((await dm(h, discord.alice.id, "first")).content).toBe("one");
    expect((await dm(h, discord.alice.id, "second")).content).toBe("two");
    expect(memberLookups(discord, discord.alice.id).length).toBe(1);
  });

  it("refuses slash commands in DMs from outsiders, privately and in their language", async () => {
    const { discord, model, home } = await startFakes();
    await startBot({ discord, model, home, env: { ALLOWED_GUILD_IDS: discord.guild.id } });
    const stranger = discord.addUser({ username: "mallory", inGuild: false, locale: "zh-CN" });
    const channel = discord.openDm(stranger.id);
    const view = discord.runSlashCommand({ userId: stranger.id, channelId: channel.id, name: "memory", options: [s.subcommand("view")] });
    const refused = await discord.waitFor(() => discord.interactionResponses(view.id)[0]);
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toMatch(/^抱歉，我只回复/);
    const english = discord.runSlashCommand({ userId: stranger.id, channelId: channel.id, name: "chat", locale: "en-US" });
    expect((await discord.waitFor(() => discord.interactionResponses(english.id)[0])).content).toMatch(/^Sorry, I only answer direct messages/);
    // A member of the allowed server gets the command.
    const alice = discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.openDm(discord.alice.id).id,
      name: "memory",
      options: [s.subcommand("view")],
    });
    const glance = await discord.waitFor(() => discord.interactionResponses(alice.id).find((r) => r.embeds?.length || r.content));
    expect(glance.content ?? "").not.toMatch(/Sorry/);
    expect(model.requests).toHaveLength(0);
  });

  it("refuses the buttons of someone who is no longer let in: the proposal stays as it was", async () => {
    const { discord, model, home } = await startFakes();
    const stranger = discord.addUser({ username: "mallory", inGuild: false });
    const channel = discord.openDm(stranger.id);
    // Before the operator set an allow list, the stranger chatted and got a proposal with Save / Discard.
    const open = await startBot({ discord, model, home });
    const settings = discord.runSlashCommand({
      userId: stranger.id,
      channelId: channel.id,
      name: "memory",
      options: [s.subcommand("settings", [s.string("ask_before_saving", "true")])],
    });
    await discord.waitFor(() => discord.interactionResponses(settings.id).find((r) => r.content));
    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } }] }, { text: "Noted?" });
    await discord.userSends({ channelId: channel.id, userId: stranger.id, content: "I love oolong" });
    const reply = await discord.waitFor(() => botMessages(discord, channel.id).find((m) => componentsOf(m).length > 0));
    await open.stop();

    await startBot({ discord, model, home, env: { ALLOWED_GUILD_IDS: discord.guild.id } });
    const proposals = join(home, "users", stranger.id, "proposals.json");
    const waiting = await readFile(proposals, "utf8");
    const save = componentsOf(reply).find((c) => c.label === "Save")!;
    const click = discord.clickButton({ userId: stranger.id, messageId: reply.id, customId: save.customId! });
    const refused = await discord.waitFor(() => discord.interactionResponses(click.id)[0]);
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toMatch(/only answer direct messages from members/);
    expect(await readFile(proposals, "utf8")).toBe(waiting);
    expect(componentsOf(discord.message(reply.id)!).map((c) => c.label)).toEqual(["Save", "Discard"]);
    expect(await readFile(join(home, "users", stranger.id, "USER.md"), "utf8").catch(() => "")).toBe("");
  });

  it("with ALLOWED_ROLE_IDS, admits a DM only from someone who holds an allowed role in a server the bot is in", async () => {
    const { discord, model, home } = await startFakes();
    const role = discord.manageThreadsRole.id;
    const h = await startBot({ discord, model, home, env: { ALLOWED_ROLE_IDS: role } });
    const moderator = discord.addUser({ username: "mod", roles: [role] });
    model.enqueue({ text: "Hello, mod." });
    expect((await dm(h, moderator.id, "hi")).content).toBe("Hello, mod.");
    const refusal = await dm(h, discord.bob.id, "hi");
    expect(refusal.content).toMatch(/only answer direct messages from members of the servers I serve who have the right role/);
    expect(model.requests).toHaveLength(1);
  });

  it("refuses when Discord cannot say whether the person is a member, and lets them in once it can", async () => {
    const { discord, model, home } = await startFakes();
    const h = await startBot({ discord, model, home, env: { ALLOWED_GUILD_IDS: discord.guild.id } });
    // discord.js tries a 500 four times before it gives up.
    discord.failNext({ method: "GET", route: "/guilds/:guildId/members/:userId", status: 500, times: 4 });
    const refusal = await dm(h, discord.alice.id, "hello");
    expect(refusal.content).toMatch(/couldn't check whether you may use me/);
    expect(refusal.content).toMatch(/无法确认/);
    expect(model.requests).toHaveLength(0);
    // The failure is not remembered: the next message asks again and is answered.
    model.enqueue({ text: "Sorry for the wait." });
    expect((await dm(h, discord.alice.id, "hello again")).content).toBe("Sorry for the wait.");
  });

  it("with ALLOW_DMS=false, a DM gets one line saying DMs are off, and a DM command is refused", async () => {
    const { discord, model, home } = await startFakes();
    const h = await startBot({ discord, model, home, env: { ALLOW_DMS: "false" } });
    const refusal = await dm(h, discord.alice.id, "hello");
    expect(refusal.content).toMatch(/direct messages are turned off/i);
    const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.openDm(discord.alice.id).id, name: "end", locale: "zh-CN" });
    expect((await discord.waitFor(() => discord.interactionResponses(end.id)[0])).content).toMatch(/关闭了私信/);
    expect(model.requests).toHaveLength(0);
  });
});
