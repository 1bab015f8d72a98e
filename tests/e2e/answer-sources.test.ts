import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderConversation } from "../../src/memory/conversation-log.js";
import { componentsOf, type FakeMessage } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

async function withMemory(h: BotHarness, userId = h.discord.alice.id): Promise<string> {
  const dir = join(h.home, "users", userId);
  await mkdir(join(dir, "conversations"), { recursive: true });
  await writeFile(join(dir, "USER.md"), "## Likes\n- green tea with Piranesi nights\n");
  const log = {
    title: "books",
    place: "a thread",
    opened: "",
    closed: "",
    sessionId: "s",
    visibility: "public" as const,
    discord: h.discord.guild.id,
    messages: [{ speaker: "person" as const, name: "Alice", text: "My sister recommended Piranesi." }],
  };
  await writeFile(join(dir, "conversations", "2026-10-02-books-aaaaaaaa.md"), renderConversation(log));
  return dir;
}

async function answerWithSearch(h: BotHarness, text: string, userId = h.discord.alice.id): Promise<FakeMessage> {
  h.model.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "Piranesi" } }] }, { text });
  const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId, content: "what did my sister recommend?", mentionsBot: true });
  return h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith(text) && m.components.length > 0));
}

function press(h: BotHarness, message: { id: string }, label: string, userId = h.discord.alice.id) {
  const button = componentsOf(h.discord.message(message.id)!).find((c) => c.label === label)!;
  return h.discord.clickButton({ userId, messageId: message.id, customId: button.customId! });
}

describe("where an answer's memory came from", () => {
  it("names up to three sources under the answer, and Not right? lets the owner forget one or correct a section", async () => {
    const h = await startBot();
    const dir = await withMemory(h);
    const reply = await answerWithSearch(h, "Your sister recommended Piranesi.");
    const footer = reply.content.split("\n").find((line) => line.startsWith("-# 🔎"));
    expect(footer).toMatch(/^-# 🔎 from (“books” \(2026-10-02\) · USER\.md › Likes|USER\.md › Likes · “books” \(2026-10-02\))$/);
    expect(componentsOf(reply).map((c) => c.label)).toEqual(["Not right?"]);

    const bobs = press(h, reply, "Not right?", h.discord.bob.id);
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(bobs.id).find((r) => r.content))).content).toMatch(/belong to someone else's memory/);

    // Correct the USER.md section in a form.
    const menuClick = press(h, reply, "Not right?");
    const menuAnswer = await h.discord.waitFor(() => h.discord.interactionResponses(menuClick.id).find((r) => r.components?.length));
    expect(menuAnswer.ephemeral).toBe(true);
    const menuMessage = h.discord.message(menuAnswer.messageId!)!;
    const [menu] = componentsOf(menuMessage);
    const user = menu!.options!.find((o) => o.label === "USER.md › Likes")!;
    h.discord.selectMenu({ userId: h.discord.alice.id, messageId: menuMessage.id, customId: menu!.customId!, values: [user.value] });
    await h.discord.waitFor(() => h.discord.message(menuMessage.id)!.content.startsWith("**USER.md › Likes**"));
    expect(h.discord.message(menuMessage.id)!.content).toBe("**USER.md › Likes**\n> - green tea with Piranesi nights");
    expect(componentsOf(h.discord.message(menuMessage.id)!).map((c) => c.label)).toEqual(["Forget", "Correct"]);
    const correct = press(h, menuMessage, "Correct");
    const modal = (await h.discord.waitFor(() => h.discord.interactionResponses(correct.id).find((r) => r.modal)))!.modal!;
    expect(modal.inputs[0]!.value).toBe("- green tea with Piranesi nights");
    const submit = h.discord.submitModal({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      customId: modal.customId,
      fields: { text: "- oolong, no sugar" },
    });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(submit.id)[0])).content).toBe(
      "Corrected USER.md › Likes; it is in /memory history and can be undone.",
    );
    expect(await readFile(join(dir, "USER.md"), "utf8")).toBe("## Likes\n- oolong, no sugar\n");
    expect((await h.engine.memoryOf(h.discord.alice.id).history())[0]).toMatchObject({
      by: { kind: "person" },
      changes: [{ file: "USER.md", section: "Likes" }],
    });

    // Forget the conversation's message, through the forget flow.
    const again = press(h, reply, "Not right?");
    const second = h.discord.message((await h.discord.waitFor(() => h.discord.interactionResponses(again.id).find((r) => r.components?.length))).messageId!)!;
    const [menu2] = componentsOf(second);
    const books = menu2!.options!.find((o) => o.label.startsWith("“books”"))!;
    h.discord.selectMenu({ userId: h.discord.alice.id, messageId: second.id, customId: menu2!.customId!, values: [books.value] });
    await h.discord.waitFor(() => h.discord.message(second.id)!.content.startsWith("**“books”"));
    expect(componentsOf(h.discord.message(second.id)!).map((c) => c.label)).toEqual(["Forget"]);
    press(h, second, "Forget");
    await h.discord.waitFor(() => h.discord.message(second.id)!.content.startsWith("Forgetting"));
    expect(h.discord.message(second.id)!.content).toMatch(/^Forgetting “My sister recommended Piranesi\.” removes .*1 conversation message/);
    press(h, second, "Forget");
    await h.discord.waitFor(() => h.discord.message(second.id)!.content.startsWith("Forgotten"));
    expect(await readFile(join(dir, "conversations", "2026-10-02-books-aaaaaaaa.md"), "utf8")).not.toContain("recommended Piranesi");
  });

  it("links a source to the person's Discord message while it exists, and names the conversation when it does not", async () => {
    const h = await startBot();
    h.model.enqueue({ text: "What a lovely recommendation." }, { text: "Alice's sister recommended Piranesi." });
    const first = await h.discord.userSends({
      channelId: h.discord.textChannel.id,
      userId: h.discord.alice.id,
      content: "My sister recommended the novel Piranesi.",
      mentionsBot: true,
    });
    await h.discord.waitFor(() => botMessages(h.discord, first.id).find((m) => m.content === "What a lovely recommendation."));
    const end = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: first.id, name: "end" });
    await h.discord.waitFor(() => h.discord.interactionResponses(end.id).find((r) => r.content));
    const [file] = await readdir(join(h.home, "users", h.discord.alice.id, "conversations"));
    const archived = await readFile(join(h.home, "users", h.discord.alice.id, "conversations", file!), "utf8");
    expect(archived).toContain(`- discord: ${h.discord.guild.id}\n`);
    expect(archived).toContain(`-# 🔗 ${h.discord.textChannel.id}/${first.id}\n`);
    const reply = await answerWithSearch(h, "Your sister recommended Piranesi.");
    expect(reply.content).toContain(`](<https://discord.com/channels/${h.discord.guild.id}/${h.discord.textChannel.id}/${first.id}>)`);
    // The message is gone from Discord (a new process asks, and Discord answers Unknown Message): no link.
    const again = await h.restart();
    again.discord.failNext({
      method: "GET",
      route: "/channels/:channelId/messages/:messageId",
      status: 404,
      body: { code: 10008, message: "Unknown Message" },
      times: 3,
    });
    const plain = await answerWithSearch(again, "It was Piranesi.");
    expect(plain.content).toMatch(/\n-# 🔎 from .*“My sister recommended the novel Piranes…” \(\d{4}-\d{2}-\d{2}\)/);
    expect(plain.content).not.toContain("https://discord.com/channels/");
  });

  it("speaks Chinese, and shows no footer when the answer did not search", async () => {
    const h = await startBot();
    await withMemory(h);
    await h.engine.memoryOf(h.discord.alice.id).saveSettings({ locale: "zh-CN" });
    const reply = await answerWithSearch(h, "你姐姐推荐了 Piranesi。");
    expect(reply.content).toMatch(/\n-# 🔎 来自 .*“books”（2026-10-02）/);
    expect(componentsOf(reply).map((c) => c.label)).toEqual(["不对？"]);
    h.model.enqueue({ text: "好的。" });
    await h.discord.userSends({ channelId: reply.channelId, userId: h.discord.alice.id, content: "谢谢" });
    const plain = await h.discord.waitFor(() => h.discord.messagesIn(reply.channelId).find((m) => m.content === "好的。"));
    expect(componentsOf(plain)).toEqual([]);
  });
});
