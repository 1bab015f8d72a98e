import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { componentsOf, type FakeMessage } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { eventually } from "../helpers/eventually.js";

/** Alice mentions the bot; the model saves a fact; returns the thread id. */
async function conversationThatSaves(h: BotHarness, locale?: string): Promise<string> {
  if (locale) await h.engine.memoryOf(h.discord.alice.id).saveSettings({ locale });
  h.model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong, no sugar" } }] }, { text: "Noted." });
  const start = await h.discord.userSends({
    channelId: h.discord.textChannel.id,
    userId: h.discord.alice.id,
    content: "I love oolong, no sugar",
    mentionsBot: true,
  });
  await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.includes("💾")));
  h.model.setFallback({ text: "Alice likes oolong." });
  return start.id;
}

const receiptIn = (h: BotHarness, channelId: string): FakeMessage | undefined =>
  botMessages(h.discord, channelId).find((m) => m.content.includes("What I changed in my memory") || m.content.includes("对话中我对记忆做的改动"));

async function end(h: BotHarness, threadId: string): Promise<void> {
  const call = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: threadId, name: "end" });
  await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content?.includes("ended")), 5000);
}

/** USER.md, "" when missing (an undo that empties a file removes it). */
const userFile = (h: BotHarness) => readFile(join(h.home, "users", h.discord.alice.id, "USER.md"), "utf8").catch(() => "");

describe("the receipt at the end of a conversation", () => {
  it("lists each change with an Undo button, posted before /end archives the thread; Undo takes the change back", async () => {
    const h = await startBot();
    const thread = await conversationThatSaves(h);
    await end(h, thread);
    const receipt = receiptIn(h, thread)!;
    expect(receipt.content).toBe("-# 💾 What I changed in my memory during this conversation:\n1. USER.md › Likes: + “oolong, no sugar”");
    expect(receipt.allowedMentions).toEqual({ parse: [] });
    await h.discord.waitFor(() => h.discord.thread(thread)?.archived);
    // Posted while the thread was still open: before /end's archive.
    expect(Date.parse(receipt.timestamp)).toBeLessThanOrEqual(Date.parse(h.discord.thread(thread)!.archiveTimestamp));
    const [undo] = componentsOf(receipt);
    expect(undo?.label).toBe("Undo 1");
    const click = h.discord.clickButton({ userId: h.discord.alice.id, messageId: receipt.id, customId: undo!.customId! });
    const answer = await h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toMatch(/^↩ Undone:\n• USER\.md › Likes: \+ “oolong, no sugar”/);
    expect(await userFile(h)).toBe("");
  });

  it("refuses anyone but the owner with a private line, leaving the message and the memory as they were", async () => {
    const h = await startBot();
    const thread = await conversationThatSaves(h);
    await end(h, thread);
    const receipt = receiptIn(h, thread)!;
    const [undo] = componentsOf(receipt);
    const click = h.discord.clickButton({ userId: h.discord.bob.id, messageId: receipt.id, customId: undo!.customId! });
    const answer = await h.discord.waitFor(() => h.discord.interactionResponses(click.id)[0]);
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toMatch(/belong to someone else's memory/);
    expect(await userFile(h)).toBe("## Likes\n- oolong, no sugar\n");
    expect(h.discord.message(receipt.id)!.components).toEqual(receipt.components);
  });

  it("keeps its buttons working after a restart", async () => {
    const h = await startBot();
    const thread = await conversationThatSaves(h);
    await end(h, thread);
    const receipt = receiptIn(h, thread)!;
    const restarted = await h.restart();
    const click = restarted.discord.clickButton({ userId: h.discord.alice.id, messageId: receipt.id, customId: componentsOf(receipt)[0]!.customId! });
    expect((await restarted.discord.waitFor(() => restarted.discord.interactionResponses(click.id).find((r) => r.content))).content).toMatch(/^↩ Undone/);
    expect(await userFile(h)).toBe("");
  });

  it("goes to the person's DMs when someone else archives the thread, and nowhere when the thread is deleted", async () => {
    const h = await startBot();
    const archived = await conversationThatSaves(h);
    h.discord.archiveThread(archived);
    const dm = h.discord.openDm(h.discord.alice.id);
    const inDm = await h.discord.waitFor(() => receiptIn(h, dm.id), 5000);
    expect(inDm.content).toContain("USER.md › Likes");
    expect(receiptIn(h, archived)).toBeUndefined();
    // Where the message can still be edited, the used button shows it is done.
    h.discord.clickButton({ userId: h.discord.alice.id, messageId: inDm.id, customId: componentsOf(inDm)[0]!.customId! });
    await h.discord.waitFor(() => componentsOf(h.discord.message(inDm.id)!)[0]?.disabled === true);
    expect(componentsOf(h.discord.message(inDm.id)!)[0]?.label).toBe("Undo 1 ✓");

    const deleted = await conversationThatSaves(h);
    await h.engine.settle();
    const before = botMessages(h.discord, dm.id).length;
    h.discord.deleteThread(deleted);
    await eventually(async () => (await h.engine.latestIn(deleted))?.status === "closed", 5000, "the deleted thread's close");
    await h.engine.settle();
    expect(botMessages(h.discord, dm.id)).toHaveLength(before);
  });

  it("is not posted for a conversation that changed nothing, and speaks Chinese for zh-CN", async () => {
    const h = await startBot();
    h.model.enqueue({ text: "Hi!" }, { text: "Said hi." });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "hi", mentionsBot: true });
    await h.discord.waitFor(() => botMessages(h.discord, start.id)[0]);
    await end(h, start.id);
    expect(receiptIn(h, start.id)).toBeUndefined();

    const zh = await conversationThatSaves(h, "zh-CN");
    await end(h, zh);
    const receipt = receiptIn(h, zh)!;
    expect(receipt.content).toMatch(/^-# 💾 这次对话中我对记忆做的改动：\n1\. USER\.md › Likes: \+ “oolong, no sugar”$/);
    expect(componentsOf(receipt)[0]?.label).toBe("撤销 1");
  });
});
