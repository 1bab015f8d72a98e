import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tidyUp } from "../../src/engine/tidy/tidy-up.js";
import { renderConversation } from "../../src/memory/conversation-log.js";
import { ModelClient } from "../../src/model/model-client.js";
import { componentsOf, slashOption as s, type FakeMessage } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

const USER = "## Home\n- Lives in Paris\n- Has a cat called Miso\n- Bikes to work\n- Nurse at St. Mary's\n";

/** Alice talked about her move; a tidy-up replaces the stale city. */
async function tidied(h: BotHarness): Promise<void> {
  const memory = h.engine.memoryOf(h.discord.alice.id);
  await mkdir(memory.conversationsDir, { recursive: true });
  await writeFile(join(memory.dir, "USER.md"), USER);
  const today = new Date().toISOString().slice(0, 10);
  const said = "We live in Berlin since 2026-11-26!";
  const log = {
    title: "moving",
    place: "p",
    opened: "",
    closed: "",
    sessionId: "s",
    partsKept: true as const,
    messages: [{ speaker: "person" as const, name: "Alice", text: said, parts: [{ origin: "typed" as const, text: said }] }],
  };
  await writeFile(join(memory.conversationsDir, `${today}-moving-aaaaaaaa.md`), renderConversation(log));
  const operations = [
    {
      kind: "replace",
      file: "user",
      section: "Home",
      old_lines: ["- Lives in Paris"],
      new_lines: ["- Lives in Berlin (since 2026-11-26)"],
      reason: "moved",
      source: "conversations/x.md",
      quote: "We live in Berlin since 2026-11-26",
    },
  ];
  h.model.enqueue({ text: JSON.stringify({ operations }) });
  const model = new ModelClient({ baseURL: h.model.baseURL, apiKey: "t", model: "fake-model", maxRetries: 0 });
  expect((await tidyUp(memory, model)).kind).toBe("done");
}

async function firstReply(h: BotHarness, content: string): Promise<FakeMessage> {
  h.model.enqueue({ text: "Hello again!" });
  const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content, mentionsBot: true });
  return h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Hello again!") && !m.content.endsWith("▌")));
}

async function press(h: BotHarness, message: FakeMessage, label: string, userId = h.discord.alice.id) {
  const button = componentsOf(h.discord.message(message.id)!).find((c) => c.label === label)!;
  const click = h.discord.clickButton({ userId, messageId: message.id, customId: button.customId! });
  return h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
}

describe("the tidy-up's notice", () => {
  it("comes once, under the first answer of the next conversation, with Undo and Details for the owner only", async () => {
    const h = await startBot();
    await tidied(h);
    const reply = await firstReply(h, "hi");
    // A public thread: the notice says what kind of change, not the line of memory (Details, only for her, does).
    expect(reply.content).toBe("Hello again!\n-# 🧹 I tidied my notes: updated 1");
    expect(componentsOf(reply).map((c) => c.label)).toEqual(["Undo the tidy-up", "Details"]);
    expect((await press(h, reply, "Details", h.discord.bob.id)).content).toMatch(/belong to someone else's memory/);
    const details = await press(h, reply, "Details");
    expect(details.ephemeral).toBe(true);
    expect(details.content).toBe("🧹 What the tidy-up changed:\n- USER.md › Home: ~ “Lives in Paris” → “Lives in Berlin (since 2026-11-26)”");
    const undone = await press(h, reply, "Undo the tidy-up");
    expect(undone.ephemeral).toBe(true);
    expect(await readFile(join(h.home, "users", h.discord.alice.id, "USER.md"), "utf8")).toBe(USER);
    // Once: the next answer has no notice.
    h.model.enqueue({ text: "Still here." });
    await h.discord.userSends({ channelId: reply.channelId, userId: h.discord.alice.id, content: "and now?" });
    const next = await h.discord.waitFor(() =>
      h.discord.messagesIn(reply.channelId).find((m) => m.content.startsWith("Still here.") && !m.content.endsWith("▌")),
    );
    expect(next.content).toBe("Still here.");
  });

  it("goes by DM to who chose so, once, and waits for the next conversation when the DM cannot be sent", async () => {
    const h = await startBot();
    await h.engine.memoryOf(h.discord.alice.id).saveSettings({ tidyNotice: "dm" });
    await tidied(h);
    await h.bot.tidied(h.discord.alice.id);
    const dm = h.discord.openDm(h.discord.alice.id);
    const notice = await h.discord.waitFor(() => botMessages(h.discord, dm.id).find((m) => m.content.startsWith("🧹")));
    expect(notice.content).toBe("🧹 I tidied my notes: updated 1 (Home: Lives in Paris → Lives in Berlin (since 2026-11-26))");
    expect(componentsOf(notice).map((c) => c.label)).toEqual(["Undo the tidy-up", "Details"]);
    // Sent once: not again by DM, not under the next answer.
    await h.bot.tidied(h.discord.alice.id);
    expect(botMessages(h.discord, dm.id).filter((m) => m.content.startsWith("🧹"))).toHaveLength(1);
    expect((await firstReply(h, "hi")).content).toBe("Hello again!");
    // Bob chose DMs, but the bot cannot reach him there: the notice waits for his next conversation.
    await h.engine.memoryOf(h.discord.bob.id).saveSettings({ tidyNotice: "dm" });
    await writeFile(
      join(h.engine.memoryOf(h.discord.bob.id).dir, "tidy.json"),
      JSON.stringify({ notice: { entry: "x", counts: { merge: 2, replace: 0, remove: 0, move: 0 }, at: "2026-12-03T00:00:00Z" } }),
    );
    h.discord.failNext({
      method: "POST",
      route: "/channels/:channelId/messages",
      status: 403,
      body: { code: 50007, message: "Cannot send messages to this user" },
    });
    await h.bot.tidied(h.discord.bob.id);
    h.model.enqueue({ text: "Hi Bob." });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.bob.id, content: "hello", mentionsBot: true });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Hi Bob.") && !m.content.endsWith("▌")));
    expect(reply.content).toBe("Hi Bob.\n-# 🧹 I tidied my notes: merged 2");
  });

  it("speaks Chinese, and is a setting: tidy_up on, ask or off, and where the notice goes", async () => {
    const h = await startBot();
    const settings = async (options: ReturnType<typeof s.string>[], locale = "zh-CN") => {
      const call = h.discord.runSlashCommand({
        userId: h.discord.alice.id,
        channelId: h.discord.textChannel.id,
        name: "memory",
        locale,
        options: [s.subcommand("settings", options)],
      });
      return (await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content))).content;
    };
    expect(await settings([s.string("tidy_up", "ask")], "en-US")).toMatch(/^Nightly tidy-up: ask first/);
    expect(await settings([s.string("tidy_up", "off")])).toMatch(/^夜间整理：关闭/);
    expect(await settings([s.string("tidy_up", "on")])).toMatch(/^夜间整理：开启/);
    expect(JSON.parse(await readFile(join(h.home, "users", h.discord.alice.id, "settings.json"), "utf8"))).toMatchObject({ tidyUp: "on" });
    expect(await settings([s.string("tidy_notice", "dm")], "en-US")).toMatch(/^I tell you about a tidy-up in a direct message\./);
    expect(await settings([s.string("tidy_notice", "reply")])).toMatch(/^整理之后我会在下次对话的第一条回答下告诉你。/);
    expect(await settings([], "en-US")).toMatch(/^Ask before saving: off\..*\nNightly tidy-up: on\..*\nI tell you about a tidy-up under my first answer/s);
    await h.engine.memoryOf(h.discord.alice.id).saveSettings({ locale: "zh-CN" });
    await tidied(h);
    h.model.enqueue({ text: "你好！" });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "你好", mentionsBot: true });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("你好！") && !m.content.endsWith("▌")));
    expect(reply.content).toBe("你好！\n-# 🧹 我整理了笔记：更新 1 条");
    expect(componentsOf(reply).map((c) => c.label)).toEqual(["撤销整理", "详情"]);
  });

  it("that waits for a Save does not come in a public thread: it waits for a DM or a private thread", async () => {
    const h = await startBot();
    const dir = h.engine.memoryOf(h.discord.alice.id).dir;
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "tidy.json"),
      JSON.stringify({ notice: { counts: { merge: 0, replace: 1, remove: 0, move: 0 }, proposals: 1, at: "2026-12-03T00:00:00Z" } }),
    );
    expect((await firstReply(h, "hi")).content).toBe("Hello again!");
    expect(JSON.parse(await readFile(join(dir, "tidy.json"), "utf8")).notice.proposals).toBe(1);
  });
});
