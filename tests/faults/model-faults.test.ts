import { describe, expect, it } from "vitest";
import type { ScriptedReply } from "../fakes/fake-openai.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

/** Starts a thread with one good exchange, then returns a function that runs one more turn. */
async function threadWithBot(h: BotHarness) {
  const { discord, model } = h;
  model.enqueue({ text: "first answer" });
  const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hello", mentionsBot: true });
  await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === "first answer"));
  return { threadId: start.id, send: (content: string) => discord.userSends({ channelId: start.id, userId: discord.alice.id, content }) };
}

const noRetry = { "retry-after-ms": "0" };

describe("model faults seen from Discord", () => {
  it.each<[string, ScriptedReply[], RegExp]>([
    [
      "a 500 (after the SDK's retries)",
      [{ error: { status: 500, headers: noRetry } }, { error: { status: 500, headers: noRetry } }, { error: { status: 500, headers: noRetry } }],
      /model server had an error/,
    ],
    ["a malformed SSE stream", [{ text: "half an answer that", malformed: true }], /stopped answering in the middle/],
    ["a stream that stalls mid-answer", [{ text: "this answer stalls after a few words", stallAfterChunks: 2 }], /took too long/],
  ])("%s: one short line, the bot stays up, history consistent, next turn works", async (_label, replies, line) => {
    const h = await startBot({ env: { OPENAI_TIMEOUT_SECONDS: "1" } });
    const { discord, model, engine } = h;
    const { threadId, send } = await threadWithBot(h);
    const before = (await engine.latestIn(threadId))!.messages;
    model.enqueue(...replies);
    await send("this one fails");
    const warning = await discord.waitFor(() => botMessages(discord, threadId).find((m) => m.content.includes("⚠️")), 8000);
    expect(warning.content).toMatch(line);
    expect(warning.content.split("\n").filter((l) => l.startsWith("⚠️"))).toHaveLength(1);
    expect((await engine.latestIn(threadId))!.messages).toEqual(before);
    model.enqueue({ text: "recovered" });
    await send("try again");
    await discord.waitFor(() => botMessages(discord, threadId).find((m) => m.content === "recovered"), 8000);
    const last = model.requests.at(-1)!.body.messages;
    expect(last.slice(1).map((m) => m.content)).toEqual(["hello", "first answer", "try again"]);
  });

  it("a 429 with retry-after is retried and the person gets the answer", async () => {
    const h = await startBot();
    const { threadId, send } = await threadWithBot(h);
    h.model.enqueue({ error: { status: 429, headers: { "retry-after": "0" } } }, { text: "after the rate limit" });
    await send("busy?");
    await h.discord.waitFor(() => botMessages(h.discord, threadId).find((m) => m.content === "after the rate limit"), 8000);
  });

  it.each<[string, ScriptedReply]>([
    ["tool-call arguments that are not JSON", { toolCalls: [{ name: "memory_add", arguments: '{"file": "user", "section": ' }] }],
    ["a call to an unknown tool", { toolCalls: [{ name: "delete_everything", arguments: { all: true } }] }],
  ])("%s: the model is told, and its answer arrives", async (_label, reply) => {
    const h = await startBot();
    const { threadId, send } = await threadWithBot(h);
    h.model.enqueue(reply, { text: "Sorry, I could not save that." });
    await send("remember something");
    await h.discord.waitFor(() => botMessages(h.discord, threadId).find((m) => m.content === "Sorry, I could not save that."), 8000);
    const toolResult = h.model.requests.at(-1)!.body.messages.at(-1) as { role: string; content: string };
    expect(toolResult.role).toBe("tool");
    expect(JSON.parse(toolResult.content)).toMatchObject({ ok: false });
    const stored = (await h.engine.latestIn(threadId))!.messages.map((m) => m.role);
    expect(stored).toEqual(["user", "assistant", "user", "assistant", "tool", "assistant"]);
  });
});
