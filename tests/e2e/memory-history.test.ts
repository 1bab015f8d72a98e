import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PERSON } from "../../src/memory/memory-file.js";
import { componentsOf, slashOption as s, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

/** Runs /memory <sub> and waits for its first answer with content. */
async function memory(h: BotHarness, sub: string, options: ReturnType<typeof s.string>[] = [], locale = "en-US") {
  const call = h.discord.runSlashCommand({
    userId: h.discord.alice.id,
    channelId: h.discord.textChannel.id,
    name: "memory",
    locale,
    options: [s.subcommand(sub, options)],
  });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content !== undefined));
}

/** The latest state of the message an interaction answered with (after updates). */
const messageOf = (discord: FakeDiscord, id: string) => discord.message(id)!;

async function talkAndSave(h: BotHarness): Promise<void> {
  h.model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong, no sugar" } }] }, { text: "Noted." });
  const start = await h.discord.userSends({
    channelId: h.discord.textChannel.id,
    userId: h.discord.alice.id,
    content: "I love oolong, no sugar",
    mentionsBot: true,
  });
  await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.includes("💾")));
}

describe("/memory history", () => {
  it("lists every change newest first, the model's in its conversation and the person's own, one line each, paged", async () => {
    const h = await startBot();
    await talkAndSave(h);
    const mine = h.engine.memoryOf(h.discord.alice.id);
    for (let i = 0; i < 11; i++) await mine.memory.add("Notes", `- note ${i}`, PERSON);
    const answer = await memory(h, "history");
    expect(answer.ephemeral).toBe(true);
    const lines = answer.content!.split("\n");
    expect(lines[0]).toBe("**History of your memory** · page 1/2 · newest first");
    expect(lines[1]).toMatch(/^• \d\d-\d\d \d\d:\d\d · you · MEMORY\.md › Notes: \+ “note 10”$/);
    expect(lines).toHaveLength(11);
    const [newer, older] = componentsOf(answer);
    expect([newer?.label, newer?.disabled, older?.label, older?.disabled]).toEqual(["◀ Newer", true, "Older ▶", false]);
    h.discord.clickButton({ userId: h.discord.alice.id, messageId: answer.messageId!, customId: older!.customId! });
    await h.discord.waitFor(() => messageOf(h.discord, answer.messageId!).content.includes("page 2/2"));
    const page2 = messageOf(h.discord, answer.messageId!);
    expect(page2.content).toContain("page 2/2");
    expect(page2.content).toMatch(/· AgentKit in “I love oolong, no sugar” · USER\.md › Likes: \+ “oolong, no sugar”/);
  });

  it("filters by file and speaks Chinese for zh-CN", async () => {
    const h = await startBot();
    await talkAndSave(h);
    await h.engine.memoryOf(h.discord.alice.id).memory.add("Notes", "- x", PERSON);
    const answer = await memory(h, "history", [s.string("file", "user")], "zh-CN");
    expect(answer.content).toMatch(
      /^\*\*你的记忆的改动记录\*\* · 第 1\/1 页 · 最新在前\n• .* · 助手（“I love oolong, no sugar”） · USER\.md › Likes: \+ “oolong, no sugar”$/,
    );
  });
});

describe("/memory undo", () => {
  it("offers the last changes in a menu; choosing one puts the section back and says so", async () => {
    const h = await startBot();
    await talkAndSave(h);
    const answer = await memory(h, "undo");
    const [menu] = componentsOf(answer);
    expect(menu?.options?.[0]).toMatchObject({ label: "USER.md › Likes: + “oolong, no sugar”" });
    h.discord.selectMenu({ userId: h.discord.alice.id, messageId: answer.messageId!, customId: menu!.customId!, values: [menu!.options![0]!.value] });
    await h.discord.waitFor(() => messageOf(h.discord, answer.messageId!).content.startsWith("↩"));
    const after = messageOf(h.discord, answer.messageId!);
    expect(after.content).toMatch(/^↩ Undone:\n• USER\.md › Likes: \+ “oolong, no sugar”/);
    expect(componentsOf(after)).toEqual([]);
    // Emptied, the file is gone (a missing file reads as empty).
    await expect(readFile(join(h.home, "users", h.discord.alice.id, "USER.md"), "utf8")).rejects.toThrow();
    // The undo is in history too, and can itself be undone.
    const again = await memory(h, "undo");
    expect(componentsOf(again)[0]?.options?.[0]?.label).toMatch(/^↩ undo: USER\.md › Likes: − removed/);
  });

  it("leaves a section that changed since alone, names the later change, and undoes both on request", async () => {
    const h = await startBot();
    await talkAndSave(h);
    const mine = h.engine.memoryOf(h.discord.alice.id);
    await mine.user.replace("Likes", "no sugar", "a little honey", PERSON);
    const answer = await memory(h, "undo");
    const [menu] = componentsOf(answer);
    const modelChange = menu!.options!.find((o) => o.label.includes("+ “oolong, no sugar”"))!;
    h.discord.selectMenu({ userId: h.discord.alice.id, messageId: answer.messageId!, customId: menu!.customId!, values: [modelChange.value] });
    await h.discord.waitFor(() => messageOf(h.discord, answer.messageId!).content.startsWith("Not undone"));
    const asked = messageOf(h.discord, answer.messageId!);
    expect(asked.content).toMatch(/^Not undone yet: the section changed since, by:\n• USER\.md › Likes: ~ “oolong, no sugar” → “oolong, a little honey”/);
    expect(await mine.user.read()).toBe("## Likes\n- oolong, a little honey\n");
    const [both, cancel] = componentsOf(asked);
    expect([both?.label, cancel?.label]).toEqual(["Undo these too", "Cancel"]);
    h.discord.clickButton({ userId: h.discord.alice.id, messageId: answer.messageId!, customId: both!.customId! });
    await h.discord.waitFor(() => messageOf(h.discord, answer.messageId!).content.startsWith("↩"));
    expect(messageOf(h.discord, answer.messageId!).content).toMatch(/^↩ Undone:/);
    expect(await mine.user.read()).toBe("");
  });
});
