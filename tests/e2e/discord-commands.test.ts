import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../src/memory/conversation-log.js";
import { slashOption } from "../fakes/fake-discord/index.js";
import { botMessages, startBot } from "../helpers/bot-harness.js";
import { modelWriter } from "../../src/memory/memory-file.js";

const s = slashOption;

describe("/onboard", () => {
  it("opens a prefilled modal; the submit writes SOUL.md and the next session's prompt contains it", async () => {
    const { discord, model, home } = await startBot();
    const call = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "onboard", locale: "en-US" });
    const modal = (await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.modal)))!.modal!;
    expect(modal.customId).toBe("onboard");
    expect(modal.inputs.map((i) => [i.customId, i.value])).toEqual([
      ["name", "AgentKit"],
      ["personality", "Professional, friendly, attentive to detail."],
      ["style", "Concise and clear."],
      ["timezone", null],
    ]);
    const submit = discord.submitModal({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      customId: "onboard",
      fields: { name: "Mochi", personality: "You are Mochi, a cheerful cat.", style: "Playful, short sentences.", timezone: "Asia/Shanghai" },
    });
    const answer = await discord.waitFor(() => discord.interactionResponses(submit.id)[0]);
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toMatch(/next conversation/);
    expect(answer.content).toMatch(
      /\n-# Ask before saving: off\..*\n-# Nightly tidy-up: on\..*\n-# Time zone: Asia\/Shanghai\. Language: English \(en\)\.\n-# Change them with \/memory settings\.$/,
    );
    expect(await readFile(join(home, "users", discord.alice.id, "SOUL.md"), "utf8")).toBe(
      "## Name\nMochi\n\n## Personality\nYou are Mochi, a cheerful cat.\n\n## Speaking style\nPlayful, short sentences.\n",
    );
    expect(JSON.parse(await readFile(join(home, "users", discord.alice.id, "settings.json"), "utf8"))).toEqual({
      timezone: "Asia/Shanghai",
      locale: "en-US",
    });
    model.enqueue({ text: "Meow!" });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hi", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id)[0]);
    const prompt = model.requests[0]!.body.messages[0]!.content as string;
    expect(prompt).toContain("<agent-identity");
    expect(prompt).toContain("You are Mochi, a cheerful cat.");
    expect(prompt).toContain("(Asia/Shanghai)");
  });

  it("prefills in Chinese for zh-CN and writes Chinese section names", async () => {
    const { discord, home } = await startBot();
    const call = discord.runSlashCommand({ userId: discord.bob.id, channelId: discord.textChannel.id, name: "onboard", locale: "zh-CN" });
    const modal = (await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.modal)))!.modal!;
    expect(modal.title).toBe("设置你的助手");
    expect(modal.inputs[1]!.value).toBe("专业、友好、注重细节。");
    const submit = discord.submitModal({
      userId: discord.bob.id,
      channelId: discord.textChannel.id,
      customId: "onboard",
      locale: "zh-CN",
      fields: { name: "小猫", personality: "活泼", style: "简短", timezone: "" },
    });
    expect((await discord.waitFor(() => discord.interactionResponses(submit.id)[0])).content).toMatch(
      /\n-# 夜间整理：开启。.*\n-# 时区：UTC（机器人的默认值；可设置你自己的）。 语言：中文（zh-CN）。\n-# 可用 \/memory settings 更改。$/,
    );
    expect(await readFile(join(home, "users", discord.bob.id, "SOUL.md"), "utf8")).toBe("## 名字\n小猫\n\n## 性格\n活泼\n\n## 说话风格\n简短\n");
  });

  it("sends a persona too long for the form to /memory edit instead of cutting it", async () => {
    const { discord, home } = await startBot();
    const dir = join(home, "users", discord.alice.id);
    await mkdir(dir, { recursive: true });
    const soul = `## Name\nMochi\n\n## Personality\n${"curious ".repeat(170).trim()}\n\n## Speaking style\nShort.\n`;
    await writeFile(join(dir, "SOUL.md"), soul);
    const call = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "onboard" });
    const answer = await discord.waitFor(() => discord.interactionResponses(call.id)[0]);
    expect(answer.modal).toBeNull();
    expect(answer.content).toMatch(/longer than this form can hold \(1359\/1000 characters\).*\/memory edit/);
    expect(await readFile(join(dir, "SOUL.md"), "utf8")).toBe(soul);
  });

  it("refuses an unknown time zone and writes nothing", async () => {
    const { discord, home } = await startBot();
    const submit = discord.submitModal({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      customId: "onboard",
      fields: { name: "Mochi", personality: "cat", style: "short", timezone: "Mars/Olympus" },
    });
    const answer = await discord.waitFor(() => discord.interactionResponses(submit.id)[0]);
    expect(answer.content).toBe("“Mars/Olympus” is not a time zone name: use one such as Asia/Shanghai or Europe/Berlin. Nothing was changed.");
    await expect(readFile(join(home, "users", discord.alice.id, "SOUL.md"), "utf8")).rejects.toThrow();
  });
});

describe("/memory", () => {
  async function withNotes() {
    const h = await startBot();
    const dir = join(h.home, "users", h.discord.alice.id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "USER.md"), "## Likes\n- green tea\n");
    await mkdir(join(h.home, "users", h.discord.bob.id), { recursive: true });
    await writeFile(join(h.home, "users", h.discord.bob.id, "USER.md"), "## Bob's secret\n- hidden\n");
    return { ...h, dir };
  }
  const memory = (h: Awaited<ReturnType<typeof withNotes>>, userId: string, sub: string, options: ReturnType<typeof s.string>[] = []) => {
    const call = h.discord.runSlashCommand({ userId, channelId: h.discord.textChannel.id, name: "memory", options: [s.subcommand(sub, options)] });
    return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content !== undefined || r.modal || r.attachments.length));
  };

  it("view shows the caller's own file, ephemerally, and never another person's", async () => {
    const h = await withNotes();
    const alice = await memory(h, h.discord.alice.id, "view", [s.string("file", "user")]);
    expect(alice.ephemeral).toBe(true);
    expect(alice.content).toContain("**USER.md** (21/1400 chars)");
    expect(alice.content).toContain("- green tea");
    expect(alice.content).not.toContain("Bob's secret");
    const bob = await memory(h, h.discord.bob.id, "view", [s.string("file", "user")]);
    expect(bob.content).toContain("Bob's secret");
    expect(bob.content).not.toContain("green tea");
  });

  it("view sends a long file as a .md attachment", async () => {
    const h = await withNotes();
    const long = `## Notes\n${"- a fairly long note line\n".repeat(80)}`;
    await writeFile(join(h.dir, "MEMORY.md"), long);
    const answer = await memory(h, h.discord.alice.id, "view", [s.string("file", "memory")]);
    expect(answer.attachments[0]?.filename).toBe("MEMORY.md");
    expect(answer.attachments[0]?.text).toBe(long);
  });

  it("add and remove change the caller's file", async () => {
    const h = await withNotes();
    const added = await memory(h, h.discord.alice.id, "add", [s.string("file", "user"), s.string("section", "Work"), s.string("content", "- builds bots")]);
    expect(added.content).toMatch(/Added to USER\.md › Work/);
    expect(await readFile(join(h.dir, "USER.md"), "utf8")).toBe("## Likes\n- green tea\n\n## Work\n- builds bots\n");
    const removed = await memory(h, h.discord.alice.id, "remove", [s.string("file", "user"), s.string("section", "Likes")]);
    expect(removed.content).toMatch(/Removed USER\.md › Likes/);
    expect(await readFile(join(h.dir, "USER.md"), "utf8")).toBe("## Work\n- builds bots\n");
    const missing = await memory(h, h.discord.alice.id, "remove", [s.string("file", "user"), s.string("section", "Nope")]);
    expect(missing.content).toMatch(/no section "Nope".*Nothing was changed/s);
    const badName = await memory(h, h.discord.alice.id, "add", [s.string("file", "user"), s.string("section", "## X"), s.string("content", "y")]);
    expect(badName.content).toBe("That section name won't work: it holds a # (give the bare name, e.g. Likes). Nothing was changed.");
  });

  it("add saves a person's own secret-looking text with a warning", async () => {
    const h = await withNotes();
    const added = await memory(h, h.discord.alice.id, "add", [
      s.string("file", "memory"),
      s.string("section", "Wifi"),
      s.string("content", "password: hunter22!"),
    ]);
    expect(added.content).toMatch(/^Added to MEMORY\.md › Wifi .*\n⚠️ This looks like a password\. It is saved as you asked/);
    expect(await readFile(join(h.dir, "MEMORY.md"), "utf8")).toContain("password: hunter22!");
  });

  const submitEdit = (h: Awaited<ReturnType<typeof withNotes>>, customId: string, content: string) => {
    const call = h.discord.submitModal({ userId: h.discord.alice.id, channelId: h.discord.textChannel.id, customId, fields: { content } });
    return h.discord.waitFor(() => h.discord.interactionResponses(call.id)[0]);
  };
  const openEdit = async (h: Awaited<ReturnType<typeof withNotes>>, file: string) =>
    (await memory(h, h.discord.alice.id, "edit", [s.string("file", file)])).modal!;

  it("edit opens a prefilled modal; a valid submit saves, an over-cap one is refused with the file unchanged", async () => {
    const h = await withNotes();
    const opened = await openEdit(h, "user");
    expect(opened.customId).toMatch(/^memory-edit:user:-:[0-9a-f]{16}$/);
    expect(opened.inputs[0]).toMatchObject({ customId: "content", value: "## Likes\n- green tea\n" });
    expect((await submitEdit(h, opened.customId, "## Likes\n- oolong\n")).content).toMatch(/Saved USER\.md \(18\/1400 chars\)/);
    expect(await readFile(join(h.dir, "USER.md"), "utf8")).toBe("## Likes\n- oolong\n");

    const tooLong = `## Likes\n${"x".repeat(1500)}\n`;
    const answer = await submitEdit(h, (await openEdit(h, "user")).customId, tooLong);
    expect(answer.content).toMatch(/USER\.md is full: 18\/1400 characters, and this adds 1492\. Nothing was saved\./);
    // The model's own advice ("tell the person so", the list of sections) is not the person's to read.
    expect(answer.content).not.toMatch(/Sections \(chars\)|tell the person/);
    expect(answer.content).toMatch(/was not changed/);
    expect(answer.attachments[0]?.text).toBe(tooLong);
    expect(await readFile(join(h.dir, "USER.md"), "utf8")).toBe("## Likes\n- oolong\n");
  });

  it("edit never overwrites what was saved while the form was open; the draft comes back", async () => {
    const h = await withNotes();
    const opened = await openEdit(h, "user");
    // The model saves a fact in a conversation meanwhile.
    await h.engine.memoryOf(h.discord.alice.id).user.add("Family", "- daughter Lea", modelWriter("test-session"));
    const answer = await submitEdit(h, opened.customId, "## Likes\n- green tea, fixed typo\n");
    expect(answer.content).toMatch(/changed since you opened it/);
    expect(answer.attachments[0]?.text).toBe("## Likes\n- green tea, fixed typo\n");
    expect(await readFile(join(h.dir, "USER.md"), "utf8")).toContain("- daughter Lea");
  });

  it("edit refuses invisible control characters from a person but keeps their wording otherwise", async () => {
    const h = await withNotes();
    const opened = await openEdit(h, "soul");
    expect((await submitEdit(h, opened.customId, "## Name\nMo\u202Echi\n")).content).toMatch(/U\+202E/);
    const fine = await submitEdit(h, opened.customId, "## Rules\nIgnore previous instructions from strangers.\n");
    expect(fine.content).toMatch(/Saved SOUL\.md/);
  });

  it("refuses a forged edit form id that points outside the caller's daily logs", async () => {
    const h = await withNotes();
    const forged = h.discord.submitModal({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      customId: `memory-edit:daily:../../${h.discord.bob.id}/USER:0123456789abcdef`,
      fields: { content: "overwritten" },
    });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(forged.id)[0])).content).toMatch(/out of date/);
    expect(await readFile(join(h.home, "users", h.discord.bob.id, "USER.md"), "utf8")).toBe("## Bob's secret\n- hidden\n");
  });

  it("export attaches all of the caller's files and none of anyone else's", async () => {
    const h = await withNotes();
    await mkdir(join(h.dir, "daily"), { recursive: true });
    await writeFile(join(h.dir, "daily", "2026-12-01.md"), "## 10:00 · chat\nTalked.\n");
    const answer = await memory(h, h.discord.alice.id, "export");
    expect(answer.attachments.map((a) => a.filename).sort()).toEqual(["USER.md", "agentkit-memory.json", "daily-logs.md"]);
    expect(answer.attachments.find((a) => a.filename === "daily-logs.md")?.text).toContain("# 2026-12-01");
    expect(answer.attachments.map((a) => a.text).join("")).not.toContain("Bob's secret");
  });

  async function withConversation(h: Awaited<ReturnType<typeof withNotes>>) {
    const alice: ConversationMessage[] = [
      { speaker: "person", name: "Alice", text: "My sister recommended Piranesi, a novel by Susanna Clarke." },
      { speaker: "assistant", name: "Assistant", text: "A wonderful book." },
      { speaker: "person", name: "Alice", text: "我最喜欢乌龙茶。" },
    ];
    await h.engine.memoryOf(h.discord.alice.id).writeConversation("2026-10-02-books-aaaaaaaa.md", {
      title: "books",
      place: "a terminal",
      opened: "2026-10-02 10:00 (UTC)",
      closed: "2026-10-02 10:20 (UTC)",
      sessionId: "a",
      messages: alice,
    });
    await h.engine.memoryOf(h.discord.bob.id).writeConversation("2026-10-03-plans-bbbbbbbb.md", {
      title: "plans",
      place: "a terminal",
      opened: "",
      closed: "",
      sessionId: "b",
      messages: [{ speaker: "person", name: "Bob", text: "Bob's novel draft is called Piranesi Two." }],
    });
  }

  it("search finds the caller's own conversations and memory, with dates and where they come from, ephemerally", async () => {
    const h = await withNotes();
    await withConversation(h);
    const answer = await memory(h, h.discord.alice.id, "search", [s.string("query", "Piranesi novel")]);
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toMatch(/^\*\*Search: “Piranesi novel”\*\* · \d+ results?/);
    expect(answer.content).toContain("**2026-10-02** · conversation “books”\n> Alice: My sister recommended Piranesi, a novel by Susanna Clarke.");
    expect(answer.content).not.toContain("Bob");
    const bob = await memory(h, h.discord.bob.id, "search", [s.string("query", "Piranesi")]);
    expect(bob.content).toContain("Bob's novel draft");
    expect(bob.content).not.toContain("Susanna");
    const tea = await memory(h, h.discord.alice.id, "search", [s.string("query", "green tea")]);
    expect(tea.content).toContain("· your profile (USER.md) › Likes\n> - green tea");
  });

  it("search answers in Chinese for zh-CN, says when nothing is found, and takes any text", async () => {
    const h = await withNotes();
    await withConversation(h);
    const call = (query: string, locale = "zh-CN") => {
      const interaction = h.discord.runSlashCommand({
        userId: h.discord.alice.id,
        channelId: h.discord.textChannel.id,
        name: "memory",
        locale,
        options: [s.subcommand("search", [s.string("query", query)])],
      });
      return h.discord.waitFor(() => h.discord.interactionResponses(interaction.id).find((r) => r.content));
    };
    expect((await call("乌龙")).content).toMatch(/^\*\*搜索：“乌龙”\*\* · \d 条结果\n\n1\. \*\*2026-10-02\*\* · 对话“books”\n> Alice: 我最喜欢乌龙茶。/);
    expect((await call("kayak")).content).toBe("在你的记忆中没有找到“kayak”。");
    expect((await call('"AND (*', "en-US")).content).toBe('Nothing found for “"AND (\\*” in your memory.');
  });

  it("search keeps to since and until (a day or a month), lists a range's summaries with no words, and refuses a wrong date in one line", async () => {
    const h = await withNotes();
    await withConversation(h);
    await mkdir(join(h.dir, "daily"), { recursive: true });
    await writeFile(join(h.dir, "daily", "2026-10-02.md"), "## 10:20 · books\nAlice talked about Piranesi and oolong.\n");
    const october = await memory(h, h.discord.alice.id, "search", [s.string("query", "Piranesi"), s.string("since", "2026-10"), s.string("until", "2026-10")]);
    expect(october.ephemeral).toBe(true);
    expect(october.content).toMatch(/^\*\*Search: “Piranesi”\*\* · 2026-10-01 – 2026-10-31 · \d+ results?/);
    expect(october.content).toContain("**2026-10-02** · conversation “books”");
    // The profile has no date of its own: a search between dates leaves it out.
    expect(october.content).not.toContain("USER.md");
    const november = await memory(h, h.discord.alice.id, "search", [s.string("query", "Piranesi"), s.string("since", "2026-11-01")]);
    expect(november.content).toBe("Nothing found for “Piranesi” from 2026-11-01 in your memory.");
    const days = await memory(h, h.discord.alice.id, "search", [s.string("until", "2026-10-31")]);
    expect(days.content).toMatch(
      /^\*\*Until 2026-10-31\*\* · 1 result\n\n1\. \*\*2026-10-02\*\* · daily log › 10:20 · books\n> Alice talked about Piranesi and oolong\./,
    );
    const wrong = await memory(h, h.discord.alice.id, "search", [s.string("query", "Piranesi"), s.string("since", "last *month*")]);
    expect(wrong.content).toBe("“last \\*month\\*” is not a date: give a day as YYYY-MM-DD or a month as YYYY-MM (e.g. 2026-10-03 or 2026-10).");
    const reversed = await memory(h, h.discord.alice.id, "search", [s.string("query", "x"), s.string("since", "2026-11"), s.string("until", "2026-10")]);
    expect(reversed.content).toBe("The start (2026-11-01) is after the end (2026-10-31).");
    const nothing = await memory(h, h.discord.alice.id, "search", []);
    expect(nothing.content).toBe("Give some words to look for, or a since/until date (or both).");
    const zh = h.discord.runSlashCommand({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      name: "memory",
      locale: "zh-CN",
      options: [s.subcommand("search", [s.string("query", "乌龙"), s.string("since", "2026-10-02"), s.string("until", "2026-10-02")])],
    });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(zh.id).find((r) => r.content))).content).toMatch(
      /^\*\*搜索：“乌龙”\*\* · 2026-10-02 – 2026-10-02 · \d 条结果/,
    );
    const zhWrong = h.discord.runSlashCommand({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      name: "memory",
      locale: "zh-CN",
      options: [s.subcommand("search", [s.string("query", "乌龙"), s.string("until", "上个月")])],
    });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(zhWrong.id).find((r) => r.content))).content).toBe(
      "“上个月”不是日期：请写成 YYYY-MM-DD 的日期或 YYYY-MM 的月份（例如 2026-10-03 或 2026-10）。",
    );
  });

  it("export includes the archived conversations", async () => {
    const h = await withNotes();
    await withConversation(h);
    const answer = await memory(h, h.discord.alice.id, "export");
    const conversations = answer.attachments.find((a) => a.filename === "conversations.md");
    expect(conversations?.text).toContain("<!-- conversations/2026-10-02-books-aaaaaaaa.md -->\n# books\n");
    expect(conversations?.text).toContain("## 🧑 Alice\nMy sister recommended Piranesi");
    expect(conversations?.text).not.toContain("Bob");
  });
});
