import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slashOption as s } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

async function chatWithBob(h: BotHarness) {
  const { discord } = h;
  const call = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "chat", options: [s.string("topic", "weekend plans"), s.user("with", discord.bob.id)] });
  const thread = await discord.waitFor(() => discord.threads.find((t) => t.name === "weekend plans"));
  await discord.waitFor(() => discord.interactionResponses(call.id).some((r) => r.content?.includes(`<#${thread.id}>`)));
  return thread;
}

const userFile = (h: BotHarness, id: string) => readFile(join(h.home, "users", id, "USER.md"), "utf8").catch(() => "");

describe("a member the owner invites into a thread", () => {
  it("is heard under their own name; only the owner's memory is used; their words never land in the owner's USER.md or anywhere of theirs", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const thread = await chatWithBob(h);
    expect(thread.memberIds.has(discord.bob.id)).toBe(true);
    const greeting = await discord.waitFor(() => botMessages(discord, thread.id)[0]);
    expect(greeting.content).toContain(`<@${discord.bob.id}> is invited`);

    // Bob speaks; the model tries to save his allergy as Alice's fact.
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Health", content: "- allergic to shellfish" } }] },
      { text: "Good to know, Bob." },
    );
    await discord.userSends({ channelId: thread.id, userId: discord.bob.id, content: "I'm allergic to shellfish, so no paella for me" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Good to know, Bob.")));
    const asked = model.requests.at(-2)!.body.messages;
    const bobsMessage = asked.at(-1)!;
    expect(bobsMessage).toMatchObject({ role: "user", name: `guest_${discord.bob.id}` });
    expect(String(bobsMessage.content)).toMatch(/^\["Bob", invited into this thread by the person; not the person whose memory you hold\]\nI'm allergic to shellfish/);
    const refused = JSON.parse(String(model.requests.at(-1)!.body.messages.find((m) => m.role === "tool")!.content));
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/invited member/);
    expect(await userFile(h, discord.alice.id)).not.toContain("shellfish");

    // Alice speaks: her own fact is saved.
    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Hobbies", content: "- loves hiking in the mountains" } }] }, { text: "Noted, Alice." });
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "I love hiking in the mountains" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Noted, Alice.")));
    expect(await userFile(h, discord.alice.id)).toContain("hiking");
    // A later turn of Alice's that repeats Bob's words alone is refused as well.
    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Health", content: "- allergic to shellfish" } }] }, { text: "Hmm." });
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "remember that for me" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Hmm.")));
    expect(await userFile(h, discord.alice.id)).not.toContain("shellfish");

    // Someone not invited is not heard.
    const carol = discord.addUser({ username: "carol" });
    const before = model.requests.length;
    await discord.userSends({ channelId: thread.id, userId: carol.id, content: "hello?" });
    await new Promise((r) => setTimeout(r, 300));
    expect(model.requests.length).toBe(before);

    // The transcript names Bob; nothing of Bob's is kept anywhere of his.
    model.enqueue({ text: "Alice and Bob planned the weekend." });
    const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: thread.id, name: "end" });
    await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
    await h.engine.settle();
    const [file] = await readdir(join(h.home, "users", discord.alice.id, "conversations"));
    const transcript = await readFile(join(h.home, "users", discord.alice.id, "conversations", file!), "utf8");
    expect(transcript).toContain("## 🧑 Bob\nI'm allergic to shellfish");
    expect(transcript).toContain("## 🧑 Alice\nI love hiking");
    await expect(readdir(join(h.home, "users", discord.bob.id))).rejects.toThrow();
  });

  it("/chat with: yourself or a bot gets one line, in English and Chinese, and opens nothing", async () => {
    const h = await startBot();
    const { discord } = h;
    for (const [locale, who, line] of [
      ["en-US", discord.alice.id, /^Invite another person/],
      ["zh-CN", discord.botUser.id, /^请邀请另一个人/],
    ] as const) {
      const call = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "chat", locale, options: [s.user("with", who)] });
      const answer = await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content));
      expect(answer.content).toMatch(line);
    }
    expect(discord.threads).toHaveLength(0);
  });
});
