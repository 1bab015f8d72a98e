import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { componentsOf, slashOption as s, type FakeMessage } from "../fakes/fake-discord/index.js";
import type { RecordedRequest } from "../fakes/fake-openai.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

const NOTE = "weekly game night in the lounge";
const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? "");

async function notesCommand(
  h: BotHarness,
  userId: string,
  sub: string,
  options: ReturnType<typeof s.string>[] = [],
  locale = "en-US",
  channelId = h.discord.textChannel.id,
) {
  const call = h.discord.runSlashCommand({ userId, channelId, name: "server-notes", locale, options: [s.subcommand(sub, options)] });
  const answer = await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content !== undefined));
  expect(answer.ephemeral).toBe(true);
  return answer.content!;
}

const serverNotes = (h: BotHarness, guildId = h.discord.guild.id) => readFile(join(h.home, "guilds", guildId, "SERVER.md"), "utf8").catch(() => "");

async function press(h: BotHarness, message: FakeMessage, label: string, userId: string) {
  const button = componentsOf(h.discord.message(message.id)!).find((c) => c.label === label)!;
  const click = h.discord.clickButton({ userId, messageId: message.id, customId: button.customId! });
  await h.discord.waitFor(() => h.discord.interactionResponses(click.id).length > 0);
  return click;
}

describe("server notes", () => {
  it("are written by Manage Server or the server-notes role, read by everyone, journalled with who, undoable, and refuse secrets", async () => {
    const h = await startBot({ env: { SERVER_NOTES_ROLE_ID: "" } });
    const { alice, bob } = h.discord;
    // Alice owns the server (Manage Server); Bob has no permission.
    expect(await notesCommand(h, bob.id, "add", [s.string("section", "Events"), s.string("content", `- the Friday thing: ${NOTE}`)])).toMatch(
      /^Only members with Manage Server/,
    );
    expect(await notesCommand(h, bob.id, "add", [s.string("section", "Events"), s.string("content", "- x")], "zh-CN")).toMatch(/^只有拥有“管理服务器”权限/);
    expect(await serverNotes(h)).toBe("");
    expect(await notesCommand(h, alice.id, "add", [s.string("section", "Events"), s.string("content", `- the Friday thing: ${NOTE}`)])).toMatch(
      /^Added to SERVER\.md › Events/,
    );
    expect(await notesCommand(h, bob.id, "view")).toContain(NOTE);
    const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8IoP4aS7dF1gH"].join("");
    const refused = await notesCommand(h, alice.id, "add", [s.string("section", "Bots"), s.string("content", `- the key is ${key}`)]);
    expect(refused).toMatch(
      /^SERVER\.md: refused, the text looks like an OpenAI API key, and passwords, keys, tokens and card numbers are never stored in memory\.\nNothing was changed\.$/,
    );
    // The model's hint ("tell the person so") is the model's: the moderator reads their own line.
    expect(refused).not.toMatch(/tell the person/);
    expect(await serverNotes(h)).not.toContain(key.slice(-12));
    await notesCommand(h, alice.id, "add", [s.string("section", "Rules"), s.string("content", "- be kind")]);
    const history = await notesCommand(h, bob.id, "history");
    expect(history).toMatch(/^Changes to SERVER\.md/);
    expect(history).toContain(`<@${alice.id}>`);
    expect(history).toContain("SERVER.md › Rules: + “be kind”");
    expect(await notesCommand(h, alice.id, "undo")).toMatch(/^Took back change 1/);
    expect(await serverNotes(h)).not.toContain("be kind");
    expect(await serverNotes(h)).toContain(NOTE);
  });

  it("a member with SERVER_NOTES_ROLE_ID may write too", async () => {
    const h = await startBot({ env: { SERVER_NOTES_ROLE_ID: "" } });
    const role = h.discord.manageThreadsRole.id;
    await h.stop();
    const again = await startBot({ discord: h.discord, model: h.model, home: h.home, env: { SERVER_NOTES_ROLE_ID: role } });
    const mod = again.discord.addUser({ username: "mod", roles: [role] });
    expect(await notesCommand(again, mod.id, "add", [s.string("section", "Events"), s.string("content", `- ${NOTE}`)])).toMatch(/^Added to/);
  });

  it("are in the prompt of every conversation in that server, never in a DM or another server", async () => {
    const h = await startBot();
    const { alice, bob } = h.discord;
    await notesCommand(h, alice.id, "add", [s.string("section", "Events"), s.string("content", `- the Friday thing: ${NOTE}`)]);
    h.model.setFallback(() => ({ text: "ok" }));
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: bob.id, content: "what is the Friday thing?", mentionsBot: true });
    await h.discord.waitFor(() => botMessages(h.discord, start.id)[0]);
    const dm = h.discord.openDm(bob.id);
    await h.discord.userSends({ channelId: dm.id, userId: bob.id, content: "hi in private" });
    await h.discord.waitFor(() => botMessages(h.discord, dm.id)[0]);
    const other = h.discord.addGuild({ name: "Another server" });
    const elsewhere = await h.discord.userSends({ channelId: other.textChannel.id, userId: bob.id, content: "hi over here", mentionsBot: true });
    await h.discord.waitFor(() => botMessages(h.discord, elsewhere.id)[0]);

    const inServer = h.model.requests.filter((r) => JSON.stringify(r.body).includes("what is the Friday thing?"));
    expect(inServer.length).toBeGreaterThan(0);
    for (const r of inServer) expect(systemOf(r)).toMatch(/<server-notes chars="\d+\/2000">[\s\S]*game night/);
    const others = h.model.requests.filter((r) => !inServer.includes(r));
    expect(others.length).toBeGreaterThanOrEqual(2);
    for (const r of others) expect(JSON.stringify(r.body)).not.toContain(NOTE);
  });

  it("the model only suggests: Save or Discard is for members who may write, and Save runs the checks", async () => {
    const h = await startBot();
    const { alice, bob } = h.discord;
    h.model.enqueue(
      { toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Events", content: `- the Friday thing: ${NOTE}` } }] },
      { text: "I suggested it to the moderators." },
    );
    const start = await h.discord.userSends({
      channelId: h.discord.textChannel.id,
      userId: bob.id,
      content: "FYI the Friday thing is game night",
      mentionsBot: true,
    });
    const suggestion = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("💡")));
    expect(suggestion.content).toContain(`SERVER.md › Events: + “- the Friday thing: ${NOTE}”`);
    expect(await serverNotes(h)).toBe("");
    // Bob (no permission) presses Save: a private line, nothing changes, the buttons stay.
    const refused = await press(h, suggestion, "Save", bob.id);
    expect(h.discord.interactionResponses(refused.id)[0]!.content).toMatch(/^Only members who may write/);
    expect(h.discord.interactionResponses(refused.id)[0]!.ephemeral).toBe(true);
    expect(await serverNotes(h)).toBe("");
    expect(componentsOf(h.discord.message(suggestion.id)!)).toHaveLength(2);
    // Alice saves it.
    await press(h, suggestion, "Save", alice.id);
    await h.discord.waitFor(() => h.discord.message(suggestion.id)!.content.startsWith("✅ Saved by"));
    expect(await serverNotes(h)).toContain(NOTE);
    expect(componentsOf(h.discord.message(suggestion.id)!)).toHaveLength(0);
    expect(await notesCommand(h, bob.id, "history")).toContain(`<@${alice.id}>`);

    // A suggestion in a DM is refused: server notes exist only in a server.
    h.model.enqueue({ toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Events", content: "- from a DM" } }] }, { text: "done" });
    const dm = h.discord.openDm(bob.id);
    await h.discord.userSends({ channelId: dm.id, userId: bob.id, content: "note this for the server" });
    await h.discord.waitFor(() => botMessages(h.discord, dm.id).find((m) => m.content.startsWith("done")));
    const toolAnswer = h.model.requests.at(-1)!.body.messages.find((m) => m.role === "tool");
    expect(String(toolAnswer?.content)).toContain("server notes exist only in a server");
  });

  it("a suggestion never carries what the person keeps private: a private section or private talk refuses it without quoting it", async () => {
    const h = await startBot();
    const { alice } = h.discord;
    const memory = h.engine.memoryOf(alice.id);
    await memory.user.write("## Health\n- allergic to kestrelnuts\n", { level: "person", by: { kind: "person" } });
    await memory.markPrivate("Health", true);
    // Told in a DM, a conversation the server never sees.
    const dm = h.discord.openDm(alice.id);
    h.model.enqueue({ text: "Thank you for telling me." });
    await h.discord.userSends({ channelId: dm.id, userId: alice.id, content: "I take lamotrigine for my epilepsy." });
    await h.discord.waitFor(() => botMessages(h.discord, dm.id).find((m) => m.content.startsWith("Thank you")));
    h.model.enqueue({ text: "Alice shared something about her health." });
    const end = h.discord.runSlashCommand({ userId: alice.id, channelId: dm.id, name: "end" });
    await h.discord.waitFor(() => h.discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
    await h.engine.settle();

    h.model.enqueue(
      {
        toolCalls: [
          { name: "server_notes_suggest", arguments: { section: "Members", content: "- Alice takes lamotrigine for her epilepsy" } },
          { name: "server_notes_suggest", arguments: { section: "Events", content: "- Alice is allergic to kestrelnuts" } },
        ],
      },
      { toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Events", content: `- the Friday thing: ${NOTE}` } }] },
      { text: "Suggested what I could." },
    );
    const start = await h.discord.userSends({
      channelId: h.discord.textChannel.id,
      userId: alice.id,
      content: "tell the mods about me and game night",
      mentionsBot: true,
    });
    await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Suggested what I could.")));
    const [health, allergy, gameNight] = h.model.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === "tool")
      .map((m) => JSON.parse(String(m.content)));
    for (const refused of [health, allergy]) {
      expect(refused.ok).toBe(false);
      expect(refused.error).toMatch(/keeps private/);
      expect(refused.error).not.toMatch(/lamotrigine|epilepsy|kestrelnut/i);
    }
    expect(gameNight).toMatchObject({ ok: true, pending: true });
    // Suggestions are put before the moderators after the answer is shown: waited for, not raced.
    await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("💡")));
    const posted = botMessages(h.discord, start.id).filter((m) => m.content.startsWith("💡"));
    expect(posted.map((m) => m.content)).toEqual([expect.stringContaining(NOTE)]);
    expect(JSON.stringify(h.engine.serverNotesOf(h.discord.guild.id).suggestions())).not.toMatch(/lamotrigine|kestrelnut/);
  });

  it("nothing said in a private thread is suggested to the server, and a guest's suggestion names the guest", async () => {
    const h = await startBot();
    const { alice, bob } = h.discord;
    const suggestion = { toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Events", content: `- the Friday thing: ${NOTE}` } }] };
    h.model.enqueue(suggestion, { text: "Tried." });
    const chat = h.discord.runSlashCommand({
      userId: alice.id,
      channelId: h.discord.textChannel.id,
      name: "chat",
      options: [s.string("topic", "mod stuff"), s.boolean("private", true)],
    });
    const hidden = await h.discord.waitFor(() => h.discord.threads.find((t) => t.name === "mod stuff"));
    await h.discord.waitFor(() => h.discord.interactionResponses(chat.id).some((r) => r.content?.includes(`<#${hidden.id}>`)));
    await h.discord.userSends({ channelId: hidden.id, userId: alice.id, content: "game night is on Friday in the lounge" });
    await h.discord.waitFor(() => botMessages(h.discord, hidden.id).find((m) => m.content.startsWith("Tried.")));
    const refused = JSON.parse(String(h.model.requests.at(-1)!.body.messages.find((m) => m.role === "tool")!.content));
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/this conversation is private/) });
    expect(botMessages(h.discord, hidden.id).filter((m) => m.content.startsWith("💡"))).toHaveLength(0);
    expect(h.engine.serverNotesOf(h.discord.guild.id).suggestions()).toEqual([]);

    // A public thread with Bob invited: Bob's words become a suggestion under his name, not Alice's.
    const invite = h.discord.runSlashCommand({
      userId: alice.id,
      channelId: h.discord.textChannel.id,
      name: "chat",
      options: [s.string("topic", "game night"), s.user("with", bob.id)],
    });
    const open = await h.discord.waitFor(() => h.discord.threads.find((t) => t.name === "game night"));
    await h.discord.waitFor(() => h.discord.interactionResponses(invite.id).some((r) => r.content?.includes(`<#${open.id}>`)));
    h.model.enqueue(suggestion, { text: "Suggested, Bob." });
    await h.discord.userSends({ channelId: open.id, userId: bob.id, content: "FYI the Friday thing is game night in the lounge" });
    const posted = await h.discord.waitFor(() => botMessages(h.discord, open.id).find((m) => m.content.startsWith("💡")));
    expect(posted.content).toContain(`<@${bob.id}>`);
    expect(posted.content).not.toContain(`<@${alice.id}>`);
    expect(h.engine.serverNotesOf(h.discord.guild.id).suggestions()).toMatchObject([{ userId: bob.id, content: `- the Friday thing: ${NOTE}` }]);
    // It was said in Alice's conversation: when she forgets the words, the suggestion goes too.
    await h.engine.forget(alice.id, "lounge");
    expect(h.engine.serverNotesOf(h.discord.guild.id).suggestions()).toEqual([]);
  });

  it("/memory view's glance in the server names its notes; in a DM it does not", async () => {
    const h = await startBot();
    await notesCommand(h, h.discord.alice.id, "add", [s.string("section", "Events"), s.string("content", `- ${NOTE}`)]);
    const glance = async (channelId: string) => {
      const call = h.discord.runSlashCommand({ userId: h.discord.bob.id, channelId, name: "memory", options: [s.subcommand("view", [])] });
      return (await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.embeds?.length))).embeds![0]!.description!;
    };
    expect(await glance(h.discord.textChannel.id)).toMatch(/SERVER\.md ▰.* · 1 section · this server's notes/);
    expect(await glance(h.discord.openDm(h.discord.bob.id).id)).not.toContain("SERVER.md");
  });
});

describe("the receipt of a conversation in a server", () => {
  it("lists what the model suggested for the server's notes and what became of it, in the person's language", async () => {
    const h = await startBot();
    const { alice, bob } = h.discord;
    await h.engine.memoryOf(bob.id).saveSettings({ locale: "zh-CN" });
    h.model.enqueue(
      { toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Events", content: `- the Friday thing: ${NOTE}` } }] },
      { toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Rules", content: "- no spoilers before Monday" } }] },
      { text: "I suggested both to the moderators." },
    );
    const start = await h.discord.userSends({
      channelId: h.discord.textChannel.id,
      userId: bob.id,
      content: "FYI the Friday thing is game night, and no spoilers",
      mentionsBot: true,
    });
    const suggestions = await h.discord.waitFor(() => {
      const posted = botMessages(h.discord, start.id).filter((m) => m.content.startsWith("💡"));
      return posted.length === 2 ? posted : undefined;
    });
    const game = suggestions.find((m) => m.content.includes(NOTE))!;
    const spoilers = suggestions.find((m) => m.content.includes("spoilers"))!;
    await press(h, game, "Save", alice.id);
    await h.discord.waitFor(() => h.discord.message(game.id)!.content.startsWith("✅"));
    await press(h, spoilers, "Discard", alice.id);
    await h.discord.waitFor(() => h.discord.message(spoilers.id)!.content.startsWith("Discarded"));
    // A third, still waiting when the conversation ends.
    h.model.enqueue(
      { toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Channels", content: "- #lounge is for voice chat" } }] },
      { text: "Suggested." },
    );
    await h.discord.userSends({ channelId: start.id, userId: bob.id, content: "and #lounge is for voice chat" });
    await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Suggested.")));
    h.model.setFallback({ text: "Bob told me about the server." });
    const call = h.discord.runSlashCommand({ userId: bob.id, channelId: start.id, name: "end" });
    await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content));
    const receipt = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.includes("服务器笔记")));
    expect(receipt.content).toContain("-# 💡 这次对话中我为本服务器笔记提出的建议（由管理员决定）：");
    expect(receipt.content).toContain(`已保存：SERVER.md › Events: + “- the Friday thing: ${NOTE}”`);
    expect(receipt.content).toContain("已丢弃：SERVER.md › Rules: + “- no spoilers before Monday”");
    expect(receipt.content).toContain("等待中：SERVER.md › Channels: + “- #lounge is for voice chat”");
    // Only the person's own changes get Undo buttons: the notes are the moderators'.
    expect(componentsOf(receipt)).toHaveLength(0);
  });
});
