import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slashOption as s } from "../fakes/fake-discord/index.js";
import type { RecordedRequest } from "../fakes/fake-openai.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { PERSON } from "../../src/memory/memory-file.js";

// Words that exist only in Alice's private things: a private section, and a conversation in DMs.
const ALLERGY = "kestrelnut";
const DM_WORD = "zebrafinch";

const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? "");
const isPublicThreadRequest = (r: RecordedRequest) => systemOf(r).includes("in a public Discord thread");
const isPrivateThreadRequest = (r: RecordedRequest) => systemOf(r).includes("in a private Discord thread");
const toolResults = (r: RecordedRequest) => r.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

/** In DMs: Alice tells her allergy (the model saves it as private) and a code word; then /end writes the day's log. */
async function privateThings(h: BotHarness): Promise<void> {
  const { discord, model } = h;
  const dm = discord.openDm(discord.alice.id);
  model.enqueue(
    { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Health", content: `- allergic to ${ALLERGY}s`, private: true } }] },
    { text: "Noted, and kept private." },
  );
  await discord.userSends({ channelId: dm.id, userId: discord.alice.id, content: `I'm allergic to ${ALLERGY}s. The pharmacy code word is ${DM_WORD}.` });
  await discord.waitFor(() => botMessages(discord, dm.id).find((m) => m.content.startsWith("Noted, and kept private.")));
  model.enqueue({ text: `Alice told me about her ${ALLERGY} allergy and the code word ${DM_WORD}.` });
  const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: dm.id, name: "end" });
  await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
  await h.engine.settle();
}

describe("private things stay private in public places", () => {
  it("over every model request of a run: a private section and a DM conversation never reach a public thread; a private thread gets them", async () => {
    const h = await startBot();
    const { discord, model } = h;
    await privateThings(h);
    const settings = JSON.parse(await readFile(join(h.home, "users", discord.alice.id, "settings.json"), "utf8"));
    expect(settings.privateSections).toEqual(["health"]);
    expect(await readFile(join(h.home, "users", discord.alice.id, "USER.md"), "utf8")).toContain(ALLERGY);

    // A public thread: the model reads USER.md, today's log, and searches for both words.
    model.enqueue(
      {
        toolCalls: [
          { name: "memory_read", arguments: { file: "user" } },
          { name: "memory_read", arguments: { file: "daily" } },
          // Words of the private things, not the things themselves: whatever the model knows to ask, nothing comes back.
          { name: "memory_search", arguments: { query: "allergic" } },
          { name: "memory_search", arguments: { query: "pharmacy code word" } },
        ],
      },
      { text: "Happy to help with the menu." },
    );
    const start = await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: "What should I order for the picnic?",
      mentionsBot: true,
    });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.startsWith("Happy to help")));

    const publicRequests = model.requests.filter(isPublicThreadRequest);
    expect(publicRequests).toHaveLength(2);
    for (const request of publicRequests) {
      const body = JSON.stringify(request.body).toLowerCase();
      expect(body).not.toContain(ALLERGY);
      expect(body).not.toContain(DM_WORD);
    }
    const prompt = systemOf(publicRequests[0]!);
    expect(prompt).toContain("This conversation is in a public place");
    // The tools said how much they held back: the private section, the DM's log entry and messages.
    const [readUser, readDaily, searchAllergy, searchWord] = toolResults(publicRequests[1]!).map((text) => JSON.parse(text));
    expect(readUser).toMatchObject({ ok: true, note: "1 private section(s) are not shown in this public conversation" });
    expect(readDaily).toMatchObject({ ok: true, note: "1 private section(s) are not shown in this public conversation" });
    expect(searchAllergy.results).toEqual([]);
    expect(searchAllergy.held_back).toBeGreaterThanOrEqual(2);
    expect(searchWord.held_back).toBeGreaterThanOrEqual(2);

    // A private thread of hers: everything is there again.
    model.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "pharmacy code word" } }] }, { text: "Here is what I found." });
    const chat = discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "chat",
      options: [s.string("topic", "just us"), s.boolean("private", true)],
    });
    const thread = await discord.waitFor(() => discord.threads.find((t) => t.name === "just us"));
    await discord.waitFor(() => discord.interactionResponses(chat.id).some((r) => r.content?.includes(`<#${thread.id}>`)));
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "what was the code word?" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Here is what I found.")));
    const privateRequests = model.requests.filter(isPrivateThreadRequest);
    expect(systemOf(privateRequests[0]!)).toContain(ALLERGY);
    expect(systemOf(privateRequests[0]!)).toContain(DM_WORD);
    expect(systemOf(privateRequests[0]!)).not.toContain("This conversation is in a public place");
    const [found] = toolResults(privateRequests[1]!).map((text) => JSON.parse(text));
    expect(JSON.stringify(found.results)).toContain(DM_WORD);
    expect(found.held_back).toBeUndefined();
  });

  it("a receipt posted in a public thread names a change to a private section without its words", async () => {
    const h = await startBot();
    const { discord, model } = h;
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Family", content: "- sister Mirela lives in Cluj", private: true } }] },
      { text: "Noted." },
    );
    const start = await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: "My sister Mirela lives in Cluj.",
      mentionsBot: true,
    });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.startsWith("Noted.")));
    model.enqueue({ text: "Alice mentioned her sister." });
    discord.runSlashCommand({ userId: discord.alice.id, channelId: start.id, name: "end" });
    const receipt = await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.includes("What I changed")));
    expect(receipt.content).toContain("USER.md › Family 🔒 (private)");
    expect(receipt.content).not.toContain("Cluj");
  });

  it("in a public thread, a refused write's error names and sizes only the sections shown there", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const memory = h.engine.memoryOf(discord.alice.id);
    await memory.user.write(`## Likes\n- oolong\n\n## Therapy notes\n- ${"weekly sessions about the divorce; ".repeat(30)}\n`, PERSON);
    await memory.markPrivate("Therapy notes", true);
    const today = memory.file("daily");
    await today.write("## 08:00 · Therapy debrief\n- it went well\n", PERSON);
    model.enqueue(
      {
        toolCalls: [
          { name: "memory_replace", arguments: { file: "user", section: "Hobbies", old_text: "chess", new_text: "go" } },
          { name: "memory_add", arguments: { file: "user", section: "Likes", content: `- ${"green tea from Uji, ".repeat(20)}` } },
        ],
      },
      { toolCalls: [{ name: "memory_remove", arguments: { file: "daily", section: "Lunch" } }] },
      { text: "Done trying." },
    );
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "Note my tea habits", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.startsWith("Done trying.")));
    const [missing, full, missingToday] = toolResults(model.requests.at(-1)!).map((text) => JSON.parse(text));
    expect(missing.error).toBe('USER.md: there is no section "Hobbies" (sections: Likes)');
    expect(full.error).toMatch(/^USER\.md is full: \d+\/1400 chars; this adds \d+\. Sections \(chars\): "Likes" \d+\. Nothing was saved/);
    expect(missingToday.error).toMatch(/there is no section "Lunch" \(sections: none\)\./);
    for (const request of model.requests.filter(isPublicThreadRequest)) {
      const body = JSON.stringify(request.body).toLowerCase();
      expect(body).not.toContain("therapy");
      expect(body).not.toContain("divorce");
    }
  });

  it("a model in a DM cannot write under a public entry of today's log", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const dm = discord.openDm(discord.alice.id);
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "daily", section: "10:00 · picnic 🌐", content: "- the code word is zebrafinch" } }] },
      { text: "ok" },
    );
    await discord.userSends({ channelId: dm.id, userId: discord.alice.id, content: "note the code word" });
    await discord.waitFor(() => botMessages(discord, dm.id).find((m) => m.content.startsWith("ok")));
    const answer = String(model.requests.at(-1)!.body.messages.find((m) => m.role === "tool")!.content);
    expect(answer).toMatch(/is read in public threads/);
    const logs = await readFile(join(h.home, "users", discord.alice.id, "daily", `${new Date().toISOString().slice(0, 10)}.md`), "utf8").catch(() => "");
    expect(logs).not.toContain(DM_WORD);
  });
});

describe("public is per server", () => {
  it("a public thread in one server never gets what was said in a public thread of another; a thread of the same server does", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const SERVER_A_WORD = "heronplan";
    // A public thread in the default server: Alice talks about a plan, then /end writes today's 🌐 entry.
    model.enqueue({ text: "Sounds good." });
    const inA = await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: `Our team's ${SERVER_A_WORD} starts Monday.`,
      mentionsBot: true,
    });
    await discord.waitFor(() => botMessages(discord, inA.id).find((m) => m.content.startsWith("Sounds good.")));
    model.enqueue({ text: `Alice shared the team's ${SERVER_A_WORD}.` });
    const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: inA.id, name: "end" });
    await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
    await h.engine.settle();
    const today = await readFile(join(h.home, "users", discord.alice.id, "daily", `${new Date().toISOString().slice(0, 10)}.md`), "utf8");
    expect(today).toMatch(new RegExp(`🌐\\n.*${SERVER_A_WORD}`));

    // A public thread in another server: the model reads today's log and searches for the plan.
    const lookups = [
      { name: "memory_read", arguments: { file: "daily" } },
      { name: "memory_search", arguments: { query: "team plan Monday" } },
    ];
    const other = discord.addGuild({ name: "Another server" });
    model.enqueue({ toolCalls: lookups }, { text: "Nothing about that here." });
    const inB = await discord.userSends({ channelId: other.textChannel.id, userId: discord.alice.id, content: "What is on Monday?", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, inB.id).find((m) => m.content.startsWith("Nothing about that here.")));
    const inOther = model.requests.filter((r) => JSON.stringify(r.body).includes("What is on Monday?"));
    expect(inOther).toHaveLength(2);
    for (const request of inOther) expect(JSON.stringify(request.body).toLowerCase()).not.toContain(SERVER_A_WORD);
    const [readDaily, searched] = toolResults(inOther[1]!).map((text) => JSON.parse(text));
    expect(readDaily.note).toMatch(/not shown in this public conversation/);
    expect(searched.held_back).toBeGreaterThanOrEqual(1);

    // A new public thread in the first server: its entry and its messages are there.
    model.enqueue({ toolCalls: lookups }, { text: "Here it is." });
    const again = await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: "Remind me about Monday",
      mentionsBot: true,
    });
    await discord.waitFor(() => botMessages(discord, again.id).find((m) => m.content.startsWith("Here it is.")));
    const inSame = model.requests.filter((r) => JSON.stringify(r.body).includes("Remind me about Monday"));
    expect(systemOf(inSame[0]!)).toContain(SERVER_A_WORD);
    const [sameDaily, sameSearch] = toolResults(inSame[1]!).map((text) => JSON.parse(text));
    expect(JSON.stringify(sameDaily)).toContain(SERVER_A_WORD);
    expect(JSON.stringify(sameSearch.results)).toContain(SERVER_A_WORD);

    // Writing under that entry: refused from the other server's public thread, allowed from its own.
    const entry = /^## (.+🌐)$/m.exec(today)![1]!;
    const writeUnder = async (channelId: string, words: string) => {
      model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "daily", section: entry, content: `- ${words}` } }] }, { text: `wrote ${words}` });
      const thread = await discord.userSends({ channelId, userId: discord.alice.id, content: `note ${words}`, mentionsBot: true });
      await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith(`wrote ${words}`)));
      return JSON.parse(
        String(
          model.requests
            .at(-1)!
            .body.messages.filter((m) => m.role === "tool")
            .at(-1)!.content,
        ),
      );
    };
    expect(await writeUnder(other.textChannel.id, "otterword")).toMatchObject({ ok: false, error: expect.stringMatching(/is read in public threads/) });
    expect(await writeUnder(discord.textChannel.id, "same server note")).toMatchObject({ ok: true });
    const after = await readFile(join(h.home, "users", discord.alice.id, "daily", `${new Date().toISOString().slice(0, 10)}.md`), "utf8");
    expect(after).not.toContain("otterword");
    expect(after).toContain("same server note");
  });
});
