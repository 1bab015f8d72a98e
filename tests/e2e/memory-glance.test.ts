import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { APIApplicationCommandOption, APIEmbed } from "discord.js";
import { describe, expect, it } from "vitest";
import { slashOption } from "../fakes/fake-discord/index.js";
import { startBot, type BotHarness } from "../helpers/bot-harness.js";
import { localDate, recentDates } from "../../src/lib/time.js";
import { PERSON } from "../../src/memory/memory-file.js";

const s = slashOption;

/** Text of exactly `total` code points: the head, then filler, then a line break. */
const sized = (head: string, total: number) => `${head}${"x".repeat(total - [...head].length - 1)}\n`;

async function writeFiles(h: BotHarness, userId: string, files: Record<string, string>): Promise<string> {
  const dir = join(h.home, "users", userId);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** `/memory view` as the person sends it, and the bot's first answer. */
async function view(h: BotHarness, userId: string, options: { locale?: string; file?: string } = {}) {
  const call = h.discord.runSlashCommand({
    userId,
    channelId: h.discord.textChannel.id,
    name: "memory",
    options: [s.subcommand("view", options.file ? [s.string("file", options.file)] : [])],
    ...(options.locale ? { locale: options.locale } : {}),
  });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content !== undefined || r.embeds?.length || r.attachments.length));
}

async function glance(h: BotHarness, userId: string, locale = "en-US"): Promise<APIEmbed> {
  const answer = await view(h, userId, { locale });
  expect(answer.ephemeral).toBe(true);
  expect(answer.embeds).toHaveLength(1);
  return answer.embeds![0]!;
}

const today = () => localDate(new Date(), "UTC");

describe("/memory view without a file: memory at a glance", () => {
  it("shows every file's usage as a bar with its sections, in one ephemeral embed", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, {
      "SOUL.md": "## Name\nMochi\n",
      "USER.md": sized("## Likes\n- green tea\n\n## Work\n- ", 574),
      [`daily/${today()}.md`]: sized("## 09:15 · tea talk\n", 500),
    });
    expect(await glance(h, h.discord.alice.id)).toEqual({
      title: "Your memory at a glance",
      description: [
        "SOUL.md ▰▱▱▱▱▱▱▱▱▱ 1% 14/2000 · 1 section",
        "USER.md ▰▰▰▰▱▱▱▱▱▱ 41% 574/1400 · 2 sections",
        "MEMORY.md ▱▱▱▱▱▱▱▱▱▱ 0% 0/2200 · empty",
        `daily/${today()}.md ▰▰▰▰▰▱▱▱▱▱ 50% 500/1000 · 1 section`,
      ].join("\n"),
      fields: [
        { name: "Last change (UTC)", value: "No changes yet.", inline: false },
        { name: "Archived daily logs", value: "0", inline: true },
        { name: "Saved conversations", value: "0", inline: true },
        { name: "Storage", value: "2 KB of 100 MB", inline: true },
      ],
      footer: { text: "One file in full: /memory view file:soul|user|memory|daily" },
    });
  });

  it("speaks Chinese to a zh-CN client", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, { "USER.md": sized("## 喜好\n- 乌龙茶\n\n## 工作\n- ", 574) });
    expect(await glance(h, h.discord.alice.id, "zh-CN")).toEqual({
      title: "你的记忆一览",
      description: [
        // No SOUL.md: the default persona it reads as, in the person's language.
        "SOUL.md ▰▱▱▱▱▱▱▱▱▱ 3% 55/2000 · 3 个小节",
        "USER.md ▰▰▰▰▱▱▱▱▱▱ 41% 574/1400 · 2 个小节",
        "MEMORY.md ▱▱▱▱▱▱▱▱▱▱ 0% 0/2200 · 空",
        `daily/${today()}.md ▱▱▱▱▱▱▱▱▱▱ 0% 0/1000 · 空`,
      ].join("\n"),
      fields: [
        { name: "最近改动（UTC）", value: "还没有改动。", inline: false },
        { name: "已归档的日志", value: "0", inline: true },
        { name: "保存的对话", value: "0", inline: true },
        { name: "存储空间", value: "已用 1 KB，共 100 MB", inline: true },
      ],
      footer: { text: "查看单个文件全文：/memory view file:soul|user|memory|daily" },
    });
  });

  it("shows a new person their own empty memory, and creates no file to do so", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, { "USER.md": "## Likes\n- green tea\n", "journal.jsonl": "" });
    const embed = await glance(h, h.discord.bob.id);
    expect(embed.description).toContain("USER.md ▱▱▱▱▱▱▱▱▱▱ 0% 0/1400 · empty");
    // Their persona is the default one, though no SOUL.md is written for it.
    expect(embed.description).toContain("SOUL.md ▰▱▱▱▱▱▱▱▱▱ 6% 116/2000 · 3 sections");
    expect(embed.description!.replace(/^SOUL\.md.*\n/, "")).not.toMatch(/[1-9]\d*%/);
    expect(embed.fields?.map((f) => f.value)).toEqual(["No changes yet.", "0", "0", "0 KB of 100 MB"]);
    // Past the recall index's debounce: nothing was written for Bob, not even an index.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(access(join(h.home, "users", h.discord.bob.id))).rejects.toThrow();
    await expect(access(join(h.home, "index", `${h.discord.bob.id}.sqlite`))).rejects.toThrow();
  });

  it("shows a file over its cap above 100% and says what that means", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, { "USER.md": sized("## Notes\n", 1568) });
    const embed = await glance(h, h.discord.alice.id);
    expect(embed.description).toContain("USER.md ▰▰▰▰▰▰▰▰▰▰ 112% 1568/1400 ⚠️ · 1 section");
    expect(embed.description).toMatch(/\n\n⚠️ USER\.md is over its cap: I only read the part that fits\. Shorten it with \/memory edit\.$/);
    const zh = await glance(h, h.discord.alice.id, "zh-CN");
    expect(zh.description).toMatch(/\n\n⚠️ USER\.md 超出上限：我只读取放得下的部分。请用 \/memory edit 精简。$/);
  });

  it("names the newest change to the person's memory, at its time in their zone", async () => {
    const h = await startBot();
    const entry = (id: string, at: string, by: object, before: string | null, after: string) => ({
      id,
      at,
      by,
      op: "add",
      changes: [{ file: "USER.md", section: "Likes", position: 0, before, after }],
    });
    const journal = [
      entry("a1", "2026-11-30T01:00:00.000Z", { kind: "person" }, null, "## Likes\n- green tea\n"),
      { done: "a1" },
      entry(
        "a2",
        "2026-12-02T06:03:00.000Z",
        { kind: "model", session: "s1", title: "tea talk" },
        "## Likes\n- green tea\n",
        "## Likes\n- green tea\n- oolong\n",
      ),
      { done: "a2" },
    ];
    await writeFiles(h, h.discord.alice.id, {
      "USER.md": "## Likes\n- green tea\n- oolong\n",
      "settings.json": JSON.stringify({ timezone: "Asia/Shanghai" }),
      "journal.jsonl": journal.map((line) => `${JSON.stringify(line)}\n`).join(""),
    });
    const en = await glance(h, h.discord.alice.id);
    expect(en.fields?.[0]).toEqual({
      name: "Last change (Asia/Shanghai)",
      value: "12-02 14:03 · AgentKit in “tea talk” · USER.md › Likes: + “oolong”",
      inline: false,
    });
    const zh = await glance(h, h.discord.alice.id, "zh-CN");
    expect(zh.fields?.[0]).toEqual({
      name: "最近改动（Asia/Shanghai）",
      value: "12-02 14:03 · 助手（“tea talk”） · USER.md › Likes: + “oolong”",
      inline: false,
    });
  });

  it("counts each archived day once, old logs not archived yet included, and the saved conversations", async () => {
    const h = await startBot();
    const [yesterday] = recentDates(new Date(), "UTC", 2);
    await writeFiles(h, h.discord.alice.id, {
      "daily/archive/2026-11-01.md": "## 10:00 · a\nx\n",
      "daily/archive/2026-11-02.md": "## 10:00 · b\nx\n",
      "daily/archive/.2026-11-04.md.123.abcdef.tmp": "half written",
      "daily/archive/notes.txt": "not a log",
      // Archived at the next close: the person would call it archived already.
      "daily/2026-11-02.md": "## 11:00 · b2\nx\n",
      "daily/2026-11-03.md": "## 10:00 · c\nx\n",
      // In the prompt: not archived.
      [`daily/${yesterday}.md`]: "## 10:00 · d\nx\n",
      [`daily/${today()}.md`]: "## 10:00 · e\nx\n",
      "conversations/2026-11-01-tea-talk-3f2a9c1b.md": "# tea talk\n",
      "conversations/2026-11-02-work-1234abcd.md": "# work\n",
      "conversations/.2026-11-03-x-00000000.md.1.ab.tmp": "half written",
    });
    const embed = await glance(h, h.discord.alice.id);
    expect(embed.fields?.slice(1)).toEqual([
      { name: "Archived daily logs", value: "3", inline: true },
      { name: "Saved conversations", value: "2", inline: true },
      { name: "Storage", value: "1 KB of 100 MB", inline: true },
    ]);
  });

  it("with a file, still shows that one file as text", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, { "USER.md": "## Likes\n- green tea\n" });
    const answer = await view(h, h.discord.alice.id, { file: "user" });
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toBe("**USER.md** (21/1400 chars)\n```md\n## Likes\n- green tea\n```");
    expect(answer.embeds ?? []).toEqual([]);
  });

  it("registers file as optional for view only, and says so in English and Chinese", async () => {
    const h = await startBot();
    const memory = h.discord.commands.byGuild.get(h.discord.guild.id)!.find((c) => c.name === "memory")!;
    const sub = (name: string) => (memory.options as APIApplicationCommandOption[]).find((o) => o.name === name) as { options?: APIApplicationCommandOption[] };
    const fileOf = (name: string) => sub(name).options!.find((o) => o.name === "file")!;
    expect(fileOf("view").required ?? false).toBe(false);
    expect(fileOf("view").description).toMatch(/^Optional/);
    expect(fileOf("view").description_localizations?.["zh-CN"]).toMatch(/^可不填/);
    for (const name of ["edit", "add", "remove"]) expect(fileOf(name).required).toBe(true);
  });
});

describe("/memory private", () => {
  async function markPrivate(h: BotHarness, section: string, isPrivate: boolean, locale = "en-US") {
    const call = h.discord.runSlashCommand({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      name: "memory",
      locale,
      options: [s.subcommand("private", [s.string("section", section), s.boolean("private", isPrivate)])],
    });
    return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content !== undefined));
  }

  it("marks a section private and back, shows 🔒 in /memory view and the glance, in English and Chinese, only to the caller", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, { "USER.md": "## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n" });
    const marked = await markPrivate(h, "health", true);
    expect(marked.ephemeral).toBe(true);
    expect(marked.content).toMatch(/^🔒 “health” is private/);
    const file = await view(h, h.discord.alice.id, { file: "user" });
    expect(file.content).toContain("🔒 Private (kept out of public threads): Health");
    expect((await glance(h, h.discord.alice.id)).description).toContain("🔒 Private, kept out of public threads: Health");
    // Bob's memory has nothing private: the setting is Alice's alone.
    expect((await glance(h, h.discord.bob.id)).description).not.toContain("🔒");
    const zh = await markPrivate(h, "家庭", true, "zh-CN");
    expect(zh.content).toContain("已设为私密");
    expect(zh.content).toContain("还没有 “家庭” 这个小节");
    // 家庭 has no section yet: the glance names only private sections there are.
    expect((await glance(h, h.discord.alice.id)).description).toMatch(/🔒 Private, kept out of public threads: Health$/);
    expect((await markPrivate(h, "Health", false)).content).toMatch(/no longer private/);
    expect((await view(h, h.discord.alice.id, { file: "user" })).content).not.toContain("🔒");
  });

  it("stops naming a private section once forget (or any change) removed it", async () => {
    const h = await startBot();
    await writeFiles(h, h.discord.alice.id, { "USER.md": "## Likes\n- oolong\n\n## Therapy notes\n- sees Dr Lind\n" });
    await markPrivate(h, "Therapy notes", true);
    expect((await glance(h, h.discord.alice.id)).description).toContain("🔒 Private, kept out of public threads: Therapy notes");
    await h.engine.memoryOf(h.discord.alice.id).user.remove("Therapy notes", PERSON);
    expect((await glance(h, h.discord.alice.id)).description).not.toContain("🔒");
  });

  it("refuses a section name with # or a line break in one line, and changes nothing", async () => {
    const h = await startBot();
    const answer = await markPrivate(h, "## Health", true);
    expect(answer.content).toMatch(/#/);
    expect(answer.content!.split("\n")).toHaveLength(1);
    await expect(access(join(h.home, "users", h.discord.alice.id, "settings.json"))).rejects.toThrow();
  });
});
