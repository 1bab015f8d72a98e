import { describe, expect, it } from "vitest";
import type { FakeDiscord } from "../fakes/fake-discord/index.js";
import type { FakeOpenAI, RecordedRequest } from "../fakes/fake-openai.js";
import { botMessages, startBot } from "../helpers/bot-harness.js";
import { eventually } from "../helpers/eventually.js";
import { png } from "../helpers/image-fixtures.js";

/** Characters a request sends after the frozen system prompt: the history, condensed or not, and the new words. */
const conversationChars = (request: RecordedRequest) => request.body.messages.slice(1).reduce((n, m) => n + JSON.stringify(m.content ?? "").length, 0);

const answers = (model: FakeOpenAI) => model.requests.filter((r) => r.body.tools);
const lastWords = (request: RecordedRequest) => String(request.body.messages.at(-1)?.content);
const notices = (discord: FakeDiscord, channelId: string) => botMessages(discord, channelId).filter((m) => m.content.startsWith("⏳"));

/** A model whose answers wait until the test opens the gate: a burst is all in before the first answer, however loaded the machine. */
function gatedModel(model: FakeOpenAI): () => void {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  model.setFallback(async (req) => {
    if (!req.body.tools) return { text: "A summary." };
    await gate;
    return { text: `Answer to ${req.body.messages.length} messages.` };
  });
  return open;
}

/** Starts a thread with a first exchange, then sends 40 messages at once in it, answers held back; returns what was typed. */
async function burstOf40(discord: FakeDiscord, model: FakeOpenAI) {
  model.setFallback({ text: "Hello!" });
  const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "let's talk", mentionsBot: true });
  await discord.waitFor(() => botMessages(discord, start.id)[0]);
  // The first turn has ended: the burst is all that is left to answer.
  await new Promise((r) => setTimeout(r, 200));
  const before = model.requests.length;
  const release = gatedModel(model);
  const typed: string[] = [];
  for (let i = 0; i < 40; i++) {
    const content = `Message ${i}: ${"some words typed quickly ".repeat(4).trim()}`;
    typed.push(content);
    await discord.userSends({ channelId: start.id, userId: discord.alice.id, content });
  }
  return { threadId: start.id, typed, release, typedChars: typed.reduce((n, t) => n + t.length, 0), sentSince: () => model.requests.slice(before) };
}

const answerCount = (discord: FakeDiscord, channelId: string) => botMessages(discord, channelId).filter((m) => m.content.startsWith("Answer")).length;

describe("a burst of messages in one thread", () => {
  it("answers a 40-message burst in two turns (one message, then the five that waited, together) and says once which 34 it did not read", async () => {
    const { discord, model } = await startBot();
    const { threadId, typed, typedChars, sentSince, release } = await burstOf40(discord, model);
    // Every message has been taken or refused once the notice counts 34: then the first answer may come.
    const notice = await discord.waitFor(() => notices(discord, threadId).find((m) => m.content.includes("34")), 8000);
    release();
    await discord.waitFor(() => answerCount(discord, threadId) >= 2, 8000);
    await new Promise((r) => setTimeout(r, 1200));
    // One line for the whole burst, edited as more came, never a flood of them.
    expect(notices(discord, threadId)).toHaveLength(1);
    expect(notice.content).toMatch(
      /^⏳ I'm still answering, and 5 more of your messages are waiting for me, so I didn't read 34 messages, from “Message 6:.*” to “Message 39:.*”\. Please send them again once I've answered\.$/,
    );
    expect(notice.allowedMentions).toEqual({ parse: [] });
    const sent = sentSince();
    expect(sent.map(lastWords)).toEqual([typed[0], typed.slice(1, 6).join("\n\n")]);
    expect(sent.reduce((n, r) => n + conversationChars(r), 0) / typedChars).toBeLessThan(3);
  });

  it("with room for all 40, answers them in joined turns and sends the model about what was typed, not 22 times it", async () => {
    const { discord, model } = await startBot({ env: { SESSION_QUEUE_MAX: "40", PERSON_MESSAGES_PER_MINUTE: "100" } });
    const { threadId, typed, typedChars, sentSince, release } = await burstOf40(discord, model);
    await new Promise((r) => setTimeout(r, 1000));
    release();
    await eventually(async () => typed.every((t) => sentSince().some((r) => lastWords(r).includes(t))), 8000, "every message answered");
    await discord.waitFor(() => answerCount(discord, threadId) >= sentSince().length, 8000);
    const sent = sentSince();
    // Each message reaches the model once; most of them in one joined turn.
    for (const t of typed) expect(sent.filter((r) => lastWords(r).includes(t))).toHaveLength(1);
    expect(sent.length).toBeLessThanOrEqual(3);
    expect(sent[0] && lastWords(sent[0])).toBe(typed[0]);
    // Before: one request per message, each with the whole history so far, 26 times the typed text.
    expect(sent.reduce((n, r) => n + conversationChars(r), 0) / typedChars).toBeLessThan(3);
    expect(notices(discord, threadId)).toEqual([]);
  });

  it("sends at most one message's worth of images for messages answered together, and names the others", async () => {
    const { discord, model, engine } = await startBot({ env: { OPENAI_VISION: "true", ATTACHMENT_IMAGES_PER_MESSAGE: "2" } });
    const release = gatedModel(model);
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "look", mentionsBot: true });
    const image = (name: string) => ({ filename: `${name}.png`, contentType: "image/png", data: png(8, 8), width: 8, height: 8 });
    // While the first answer is held back, both messages wait for it.
    // The first request is at the model (the session is open and busy): what follows waits for it.
    await discord.waitFor(() => answers(model).length >= 1, 15_000);
    for (const names of [
      ["a", "b"],
      ["c", "d"],
    ]) {
      await discord.userSends({ channelId: start.id, userId: discord.alice.id, content: `pictures ${names.join(" ")}`, attachments: names.map(image) });
    }
    await new Promise((r) => setTimeout(r, 1000));
    release();
    await discord.waitFor(() => answers(model).length >= 2, 5000);
    const joined = answers(model)[1]!.body.messages.at(-1)!.content as { type: string; text?: string }[];
    expect(joined.filter((part) => part.type === "image_url")).toHaveLength(2);
    expect(joined[0]!.text).toBe("pictures a b\n\npictures c d\n\n[image: c.png, 8×8]\n\n[image: d.png, 8×8]");
    const reply = await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.includes("first 2 images")), 5000);
    expect(reply.content).toMatch(/send the others again/);
    const stored = (await engine.latestIn(start.id))!.messages.filter((m) => m.role === "user").at(-1);
    expect(stored?.content).toContain("[image: a.png, 8×8]");
    expect(stored?.content).toContain("[image: d.png, 8×8]");
  });

  it("keeps each request within HISTORY_BUDGET_CHARS when turns follow each other at once, condensing older exchanges first", async () => {
    const { discord, model } = await startBot({ env: { SESSION_QUEUE_MAX: "1", PERSON_MESSAGES_PER_MINUTE: "100", HISTORY_BUDGET_CHARS: "2500" } });
    model.setFallback((req) => (req.body.tools ? { text: "x".repeat(400), firstTokenDelayMs: 150 } : { text: "They talked about x." }));
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "let's talk", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id)[0]);
    // Each message is sent as soon as the one before reaches the model: twelve turns back to back.
    for (let i = 0; i < 12; i++) {
      await discord.userSends({ channelId: start.id, userId: discord.alice.id, content: `Message ${i}: ${"y".repeat(200)}` });
      await discord.waitFor(() => answers(model).some((r) => lastWords(r).startsWith(`Message ${i}:`)), 8000);
    }
    await discord.waitFor(() => answers(model).length >= 13, 8000);
    for (const request of answers(model)) expect(JSON.stringify(request.body.messages.slice(1)).length).toBeLessThanOrEqual(2500);
    expect(model.requests.some((r) => !r.body.tools)).toBe(true);
  });
});

describe("limits per person", () => {
  it("reads at most PERSON_MESSAGES_PER_MINUTE a minute, tells once in the person's language which were not read, and holds /chat to it too", async () => {
    const { discord, model, engine } = await startBot({ env: { PERSON_MESSAGES_PER_MINUTE: "3" } });
    const release = gatedModel(model);
    await engine.memoryOf(discord.alice.id).saveSettings({ locale: "zh-CN" });
    const dm = discord.openDm(discord.alice.id);
    for (const content of ["first", "second", "third", "fourth", "fifth"]) await discord.userSends({ channelId: dm.id, userId: discord.alice.id, content });
    const notice = await discord.waitFor(() => notices(discord, dm.id).find((m) => m.content.includes("“fourth”、“fifth”")), 8000);
    release();
    expect(notice.content).toBe("⏳ 你发消息太快了（每分钟超过 3 条），所以我没有读这 2 条消息：“fourth”、“fifth”。请过一分钟再发一次。");
    await discord.waitFor(() => answers(model).length >= 2, 5000);
    expect(answers(model).map(lastWords)).toEqual(["first", "second\n\nthird"]);
    await new Promise((r) => setTimeout(r, 1200));
    expect(notices(discord, dm.id)).toHaveLength(1);

    const threads = discord.threads.length;
    const chat = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "chat" });
    const refusal = await discord.waitFor(() => discord.interactionResponses(chat.id)[0]);
    expect(refusal.ephemeral).toBe(true);
    expect(refusal.content).toMatch(/3 .*minute/);
    expect(discord.threads).toHaveLength(threads);
  });

  it("answers a person in at most PERSON_TURNS_AT_ONCE conversations at once, says so for the next, and takes it once one is done", async () => {
    const { discord, model } = await startBot();
    const release = gatedModel(model);
    const channelId = discord.textChannel.id;
    for (const content of ["first topic", "second topic", "third topic"]) {
      await discord.userSends({ channelId, userId: discord.alice.id, content, mentionsBot: true });
    }
    const notice = await discord.waitFor(() => notices(discord, channelId)[0], 5000);
    expect(notice.content).toMatch(/already answering you in 2 other conversations/);
    expect(notice.content).toContain("“third topic”");
    await discord.waitFor(() => discord.threads.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(discord.threads.map((t) => t.name)).toEqual(["first topic", "second topic"]);
    // Someone else is not held back by Alice's conversations.
    await discord.userSends({ channelId, userId: discord.bob.id, content: "bob's topic", mentionsBot: true });
    await discord.waitFor(() => discord.threads.some((t) => t.name === "bob's topic"));
    release();
    await discord.waitFor(() => discord.threads.every((t) => botMessages(discord, t.id).length > 0), 5000);
    await new Promise((r) => setTimeout(r, 200));
    await discord.userSends({ channelId, userId: discord.alice.id, content: "third topic again", mentionsBot: true });
    await discord.waitFor(() => discord.threads.some((t) => t.name === "third topic again"));
  });
});
