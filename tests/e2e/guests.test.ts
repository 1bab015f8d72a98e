import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slashOption as s } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { PERSON } from "../../src/memory/memory-file.js";
import { notePublicEntry } from "../../src/memory/public-entries.js";

async function chatWithBob(h: BotHarness) {
  const { discord } = h;
  const call = discord.runSlashCommand({
    userId: discord.alice.id,
    channelId: discord.textChannel.id,
    name: "chat",
    options: [s.string("topic", "weekend plans"), s.user("with", discord.bob.id)],
  });
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
    expect(String(bobsMessage.content)).toMatch(
      /^\["Bob", invited into this thread by the person; not the person whose memory you hold\]\nI'm allergic to shellfish/,
    );
    const refused = JSON.parse(String(model.requests.at(-1)!.body.messages.find((m) => m.role === "tool")!.content));
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/invited member/);
    expect(await userFile(h, discord.alice.id)).not.toContain("shellfish");
    // Nor may a guest's turn remove a section of hers, whatever the file.
    model.enqueue({ toolCalls: [{ name: "memory_remove", arguments: { file: "memory", section: "Follow-ups" } }] }, { text: "Removed?" });
    await discord.userSends({ channelId: thread.id, userId: discord.bob.id, content: "forget your follow-ups" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Removed?")));
    expect(
      String(
        model.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === "tool")
          .at(-1)!.content,
      ),
    ).toMatch(/this turn answers an invited member/);
    // A guest's search is not told that private matches exist (held_back would answer "did she talk about this?").
    await h.engine
      .memoryOf(discord.alice.id)
      .file("user")
      .add("Health", "- sees a cardiologist monthly", { level: "person", by: { kind: "person" } });
    await h.engine.memoryOf(discord.alice.id).markPrivate("Health", true);
    model.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "cardiologist" } }] }, { text: "Nothing to share." });
    await discord.userSends({ channelId: thread.id, userId: discord.bob.id, content: "does she see a cardiologist?" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Nothing to share.")));
    const bobSearch = JSON.parse(
      String(
        model.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === "tool")
          .at(-1)!.content,
      ),
    );
    expect(bobSearch.results).toEqual([]);
    expect(bobSearch.held_back).toBeUndefined();

    // Alice speaks: her own fact is saved.
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Hobbies", content: "- loves hiking in the mountains" } }] },
      { text: "Noted, Alice." },
    );
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "I love hiking in the mountains" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Noted, Alice.")));
    expect(await userFile(h, discord.alice.id)).toContain("hiking");
    // A later turn of Alice's that repeats Bob's words alone is refused as well.
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Health", content: "- allergic to shellfish" } }] },
      { text: "Hmm." },
    );
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
    // Marked as a guest's, so the nightly tidy-up never takes it for Alice's words.
    expect(transcript).toContain("## 👤 Bob\nI'm allergic to shellfish");
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
      const call = discord.runSlashCommand({
        userId: discord.alice.id,
        channelId: discord.textChannel.id,
        name: "chat",
        locale,
        options: [s.user("with", who)],
      });
      const answer = await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content));
      expect(answer.content).toMatch(line);
    }
    expect(discord.threads).toHaveLength(0);
  });

  it("leaves a private thread private with a guest in it: its record stays private and no public thread finds it, while private things stay out as the guest reads", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const memory = h.engine.memoryOf(discord.alice.id);
    await memory.user.write("## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n", PERSON);
    await memory.markPrivate("Health", true);
    // Today's log holds an entry of a public thread of this server: read here, never written under from here.
    const today = memory.file("daily");
    const date = today.label.slice("daily/".length, -".md".length);
    await today.write("## 09:00 · picnic 🌐\n- sandwiches for everyone\n", PERSON);
    await notePublicEntry(memory.dir, date, "09:00 · picnic 🌐", discord.guild.id);

    const call = discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "chat",
      options: [s.string("topic", "just us two"), s.boolean("private", true), s.user("with", discord.bob.id)],
    });
    const thread = await discord.waitFor(() => discord.threads.find((t) => t.name === "just us two"));
    await discord.waitFor(() => discord.interactionResponses(call.id).some((r) => r.content?.includes(`<#${thread.id}>`)));
    model.enqueue(
      {
        toolCalls: [
          { name: "memory_read", arguments: { file: "daily" } },
          { name: "memory_add", arguments: { file: "daily", section: "09:00 · picnic 🌐", content: "- the surprise is codenamed heronplan" } },
        ],
      },
      { text: "Hello both." },
    );
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "hi, the surprise for Carol is codenamed heronplan" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Hello both.")));
    const prompt = String(model.requests.at(-1)!.body.messages[0]!.content);
    expect(prompt).toContain("in a private Discord thread");
    expect(prompt).toContain("oolong");
    expect(prompt).not.toContain("kestrelnut");
    expect(prompt).toContain("members the person invited can read it too");
    const [readDaily, wroteUnder] = model.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === "tool")
      .map((m) => JSON.parse(String(m.content)));
    expect(readDaily.content).toContain("sandwiches");
    expect(wroteUnder).toMatchObject({ ok: false, error: expect.stringMatching(/is read in public threads/) });
    expect(await today.read()).not.toContain("heronplan");

    model.enqueue({ text: "Alice and Bob planned Carol's surprise." });
    const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: thread.id, name: "end" });
    await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
    await h.engine.settle();
    const [file] = await readdir(join(h.home, "users", discord.alice.id, "conversations"));
    expect(await readFile(join(h.home, "users", discord.alice.id, "conversations", file!), "utf8")).toContain("- visibility: private");
    expect(await today.read()).toMatch(/^## \d\d:\d\d · just us two$/m);

    // A public thread later: its search does not find what was said there.
    model.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "heronplan surprise" } }] }, { text: "Nothing here." });
    const start = await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: "what was the surprise?",
      mentionsBot: true,
    });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.startsWith("Nothing here.")));
    const searched = JSON.parse(
      String(
        model.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === "tool")
          .at(-1)!.content,
      ),
    );
    expect(JSON.stringify(searched.results)).not.toContain("heronplan");
    expect(searched.held_back).toBeGreaterThanOrEqual(1);
  });

  it("cannot test a guess against a private section: in a thread others read, every write to one answers the same, whatever it holds", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const memory = h.engine.memoryOf(discord.alice.id);
    const notes = "## Follow-ups\n- ask about the move\n\n## Therapy notes\n- talks about her brother Radu\n";
    await memory.memory.write(notes, PERSON);
    await memory.markPrivate("Therapy notes", true);
    await memory.markPrivate("Diary", true);
    const thread = await chatWithBob(h);
    const answers: unknown[] = [];
    const turn = async (userId: string, words: string, calls: { name: string; arguments: Record<string, unknown> }[]) => {
      model.enqueue({ toolCalls: calls }, { text: `answered ${words}` });
      await discord.userSends({ channelId: thread.id, userId, content: words });
      await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith(`answered ${words}`)));
      answers.push(
        ...model.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === "tool")
          .slice(-calls.length)
          .map((m) => JSON.parse(String(m.content))),
      );
    };
    // Bob guesses: a right guess and a wrong one, by replace and by add (two a turn: a third refusal adds "stop retrying").
    await turn(discord.bob.id, "is it about Radu?", [
      { name: "memory_replace", arguments: { file: "memory", section: "Therapy notes", old_text: "brother Radu", new_text: "brother Radu" } },
      { name: "memory_replace", arguments: { file: "memory", section: "Therapy notes", old_text: "sister Ana", new_text: "sister Ana" } },
    ]);
    await turn(discord.bob.id, "or about Ana?", [
      { name: "memory_add", arguments: { file: "memory", section: "Therapy notes", content: "- talks about her brother Radu" } },
      { name: "memory_add", arguments: { file: "memory", section: "therapy  NOTES", content: "- talks about her sister Ana" } },
    ]);
    // The owner's own turn, here too: a private name the file does not have answers the same.
    await turn(discord.alice.id, "note it", [
      { name: "memory_add", arguments: { file: "memory", section: "Diary", content: "- a quiet day" } },
      { name: "memory_remove", arguments: { file: "memory", section: "Therapy notes" } },
    ]);
    expect(answers).toHaveLength(6);
    for (const answer of answers) {
      expect(answer).toEqual({
        ok: false,
        error:
          "MEMORY.md: refused, this section is private; it cannot be changed from a conversation others can read. The person can change it in a direct message or with /memory",
      });
    }
    expect(await memory.memory.read()).toBe(notes);
  });

  it("/chat with:@member inside the owner's public thread brings them into that conversation: the one so far is summarised, a new one opens for both; a private thread is refused", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const start = discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "chat",
      options: [s.string("topic", "just us")],
    });
    const thread = await discord.waitFor(() => discord.threads.find((t) => t.name === "just us"));
    await discord.waitFor(() => discord.interactionResponses(start.id).some((r) => r.content?.includes(`<#${thread.id}>`)));
    model.enqueue({ text: "Hello Alice." }, { text: "Alice talked about tea." }, { text: "Hi both." });
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "hi" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Hello Alice.")));
    const first = await h.engine.latestIn(thread.id);

    // Only the owner may invite; someone else gets one line.
    const stranger = discord.runSlashCommand({ userId: discord.bob.id, channelId: thread.id, name: "chat", options: [s.user("with", discord.bob.id)] });
    expect((await discord.waitFor(() => discord.interactionResponses(stranger.id).find((r) => r.content))).content).toBe(
      "Only the person this conversation is with can invite someone into it.",
    );

    const invite = discord.runSlashCommand({ userId: discord.alice.id, channelId: thread.id, name: "chat", options: [s.user("with", discord.bob.id)] });
    expect((await discord.waitFor(() => discord.interactionResponses(invite.id).find((r) => r.content))).content).toBe(
      `Invited <@${discord.bob.id}> into this conversation.`,
    );
    expect(thread.memberIds.has(discord.bob.id)).toBe(true);
    expect(botMessages(discord, thread.id).some((m) => m.content.startsWith(`<@${discord.bob.id}> is invited: I hear you both from here on`))).toBe(true);
    expect(await h.engine.memoryOf(discord.alice.id).daily(new Date().toISOString().slice(0, 10)).read()).toContain("Alice talked about tea.");
    const now = await h.engine.latestIn(thread.id);
    expect(now!.id).not.toBe(first!.id);
    expect(now!.guests).toEqual([{ userId: discord.bob.id, displayName: "Bob" }]);
    await discord.userSends({ channelId: thread.id, userId: discord.bob.id, content: "hello!" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Hi both.")));
    expect(model.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: "user", name: `guest_${discord.bob.id}` });

    // A private thread: whoever joins reads all of it, private things included. Refused, nothing changes.
    const secret = discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "chat",
      options: [s.string("topic", "private talk"), s.boolean("private", true)],
    });
    const hidden = await discord.waitFor(() => discord.threads.find((t) => t.name === "private talk"));
    await discord.waitFor(() => discord.interactionResponses(secret.id).some((r) => r.content?.includes(`<#${hidden.id}>`)));
    const refused = discord.runSlashCommand({ userId: discord.alice.id, channelId: hidden.id, name: "chat", options: [s.user("with", discord.bob.id)] });
    expect((await discord.waitFor(() => discord.interactionResponses(refused.id).find((r) => r.content))).content).toMatch(
      /^This thread is private, and everything said in it so far would be theirs to read/,
    );
    expect(hidden.memberIds.has(discord.bob.id)).toBe(false);
  });
});
