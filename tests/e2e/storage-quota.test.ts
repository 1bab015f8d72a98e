import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slashOption } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { localDate } from "../../src/lib/time.js";

const s = slashOption;

/** Alice's folder already holds a 60 KB conversation: past a quota of 50 KB. */
async function fullBot(): Promise<BotHarness> {
  const h = await startBot({ env: { STORAGE_QUOTA_MB: "0.05" } });
  const dir = join(h.home, "users", h.discord.alice.id, "conversations");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "2026-11-01-long-talk-aaaaaaaa.md"), `# long talk\n\n## 🧑 Alice\n${"tea and cake\n".repeat(4_600)}`);
  return h;
}

async function command(h: BotHarness, name: string, options: ReturnType<typeof s.subcommand>[] = [], locale?: string) {
  const call = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: h.discord.textChannel.id, name, options, ...(locale ? { locale } : {}) });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content || r.embeds?.length));
}

describe("a person over their storage quota (STORAGE_QUOTA_MB)", () => {
  it("still gets answers; hears once a conversation (and with each file) that nothing more is kept; files go unread; the conversation is not archived, its summary is", async () => {
    const h = await fullBot();
    h.model.enqueue({ text: "Hello Alice." }, { text: "Noted." }, { text: "Sure." }, { text: "Tea talk." });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "hi", mentionsBot: true });
    const first = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Hello Alice.")));
    await h.discord.waitFor(() => (h.discord.message(first.id)!.content.includes("💾") ? true : undefined));
    expect(h.discord.message(first.id)!.content).toBe(
      "Hello Alice.\n-# 💾 Your memory here is full (60 KB of 50 KB): I still answer, but this conversation won't be kept word for word and I don't read the files you attach. Delete conversations you no longer need (the web page's Conversations, from /memory web) or forget words with /memory forget, then try again; the bot's operator can raise STORAGE_QUOTA_MB.",
    );

    await h.discord.userSends({
      channelId: start.id,
      userId: h.discord.alice.id,
      content: "my notes",
      attachments: [{ filename: "notes.txt", contentType: "text/plain", data: "secret plans for the bakery" }],
    });
    const second = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Noted.") && m.content.includes("💾")));
    expect(second.content.split("\n")).toHaveLength(2);
    const asked = JSON.stringify(h.model.requests.at(-1)!.body.messages.at(-1));
    expect(asked).toContain("[file: notes.txt (not read: the person's memory storage is full)]");
    expect(asked).not.toContain("bakery");
    expect(h.discord.cdnRequests).toEqual([]);

    await h.discord.userSends({ channelId: start.id, userId: h.discord.alice.id, content: "thanks" });
    const third = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Sure.")));
    await new Promise((r) => setTimeout(r, 200));
    expect(h.discord.message(third.id)!.content).toBe("Sure.");

    const end = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: start.id, name: "end" });
    await h.discord.waitFor(() => h.discord.interactionResponses(end.id).find((r) => r.content));
    const dir = join(h.home, "users", h.discord.alice.id);
    await h.discord.waitFor(async () =>
      (await readFile(join(dir, "daily", `${localDate(new Date(), "UTC")}.md`), "utf8").catch(() => "")).includes("Tea talk.") ? true : undefined,
    );
    expect(await readdir(join(dir, "conversations"))).toEqual(["2026-11-01-long-talk-aaaaaaaa.md"]);
    // Nor does the session store keep its words: only the summary.
    const closed = await h.engine.latestIn(start.id);
    expect(closed).toMatchObject({ status: "closed", messages: [], summary: "Tea talk." });
  });

  it("counts the words of the conversation under way: the turn that takes the person past the quota hears it", async () => {
    const h = await startBot({ env: { STORAGE_QUOTA_MB: "0.05" } });
    const dir = join(h.home, "users", h.discord.alice.id, "conversations");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "2026-11-01-long-talk-aaaaaaaa.md"), "tea and cake\n".repeat(3_080));
    h.model.setFallback({ text: "Mm." });
    const long = (n: number) => `${n} ${"x".repeat(3_900)}`;
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: long(1), mentionsBot: true });
    const replies: string[] = [];
    for (let n = 1; n <= 4; n++) {
      if (n > 1) await h.discord.userSends({ channelId: start.id, userId: h.discord.alice.id, content: long(n) });
      const reply = await h.discord.waitFor(() => botMessages(h.discord, start.id).filter((m) => m.content.startsWith("Mm."))[n - 1]);
      replies.push(reply.id);
    }
    await new Promise((r) => setTimeout(r, 200));
    const contents = replies.map((id) => h.discord.message(id)!.content);
    expect(contents.slice(0, 3)).toEqual(["Mm.", "Mm.", "Mm."]);
    expect(contents[3]).toMatch(/^Mm\.\n-# 💾 Your memory here is full \(5\d KB of 50 KB\)/);
  });

  it("shows the usage in /memory view, and refuses an import with the usage, what it adds and what to delete (in Chinese too)", async () => {
    const h = await fullBot();
    const view = await command(h, "memory", [s.subcommand("view", [])]);
    expect(view.embeds![0]!.fields).toContainEqual({ name: "Storage", value: "60 KB of 50 KB", inline: true });
    const zh = await command(h, "memory", [s.subcommand("view", [])], "zh-CN");
    expect(zh.embeds![0]!.fields).toContainEqual({ name: "存储空间", value: "已用 60 KB，共 50 KB", inline: true });

    const upload = [s.attachment("file", { filename: "USER.md", data: "## Likes\n- tea\n" })];
    const refused = await command(h, "memory", [s.subcommand("import", upload)]);
    expect(refused.content).toMatch(
      /^USER\.md was not imported\. Your memory here is full: it uses 60 KB of its 50 KB, and this would add 1 KB\. Delete conversations .* Nothing was changed\.$/,
    );
    const refusedZh = await command(h, "memory", [s.subcommand("import", upload)], "zh-CN");
    expect(refusedZh.content).toMatch(/^USER\.md 没有导入。你在这里的记忆空间已满：已用 60 KB，共 50 KB，这次会再增加 1 KB。.*没有做任何改动。$/);
    expect(await readFile(join(h.home, "users", h.discord.alice.id, "USER.md"), "utf8").catch(() => "none")).toBe("none");
    // Someone else, under the quota, imports as before.
    const bob = h.discord.runSlashCommand({
      userId: h.discord.bob.id,
      channelId: h.discord.textChannel.id,
      name: "memory",
      options: [s.subcommand("import", upload)],
    });
    const preview = await h.discord.waitFor(() => h.discord.interactionResponses(bob.id).find((r) => r.content));
    expect(preview.content).toMatch(/^\*\*Import USER\.md\*\*: 1 file\(s\) would be written\./);
  });
});
