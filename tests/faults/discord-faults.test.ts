import { describe, expect, it } from "vitest";
import { slashOption } from "../fakes/fake-discord/index.js";
import { botMessages, startBot } from "../helpers/bot-harness.js";

describe("Discord faults", () => {
  it("continues the session after the gateway connection drops mid-session", async () => {
    const { discord, model, engine } = await startBot();
    model.enqueue({ text: "before the drop" });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hi", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === "before the drop"));
    const sessionId = (await engine.latestIn(start.id))!.id;
    const droppedAt = Date.now();
    discord.dropGatewayConnections();
    // discord.js comes back on its own: a resume (or a fresh identify) after the drop.
    await discord.waitFor(
      () => discord.gatewayHistory.some((e) => (e.kind === "resume" || e.kind === "identify") && e.at >= droppedAt),
      10_000,
      "the client to reconnect",
    );
    model.enqueue({ text: "after the drop" });
    await discord.userSends({ channelId: start.id, userId: discord.alice.id, content: "still there?" });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === "after the drop"), 10_000);
    expect((await engine.latestIn(start.id))!.id).toBe(sessionId);
    expect(
      model.requests
        .at(-1)!
        .body.messages.slice(1)
        .map((m) => m.content),
    ).toEqual(["hi", "before the drop", "still there?"]);
  }, 30_000);

  it("respects 429s on message edits and never loses the final text", async () => {
    const { discord, model } = await startBot();
    const text = "A long streamed answer, word by word. ".repeat(8).trim();
    model.enqueue({ text, chunkSize: 8, tokensPerSecond: 20 });
    discord.failNext({ method: "PATCH", route: "/channels/:channelId/messages/:messageId", status: 429, times: 3, retryAfterSeconds: 0.3 });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "go", mentionsBot: true });
    const reply = await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === text), 15_000);
    const limited = discord.restRequests.filter((r) => r.method === "PATCH" && r.status === 429);
    expect(limited.length).toBe(3);
    expect(reply.content).toBe(text);
  }, 30_000);

  it("tells the person clearly when Discord fails to create the thread", async () => {
    const { discord, model } = await startBot();
    discord.failNext({ method: "POST", route: "/channels/:channelId/threads", status: 500, times: 4 });
    const call = discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "chat",
      options: [slashOption.string("topic", "x")],
    });
    const answer = await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content?.includes("couldn't create a thread")), 15_000);
    expect(answer.ephemeral).toBe(true);

    discord.failNext({ method: "POST", route: "/channels/:channelId/messages/:messageId/threads", status: 500, times: 4 });
    const mention = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "start one", mentionsBot: true });
    const reply = await discord.waitFor(
      () => discord.messagesIn(discord.textChannel.id).find((m) => m.authorId === discord.botUser.id && m.referencedMessageId === mention.id),
      15_000,
    );
    expect(reply.content).toMatch(/couldn't start a thread/);
    expect(reply.allowedMentions).toMatchObject({ parse: [] });
    expect(model.requests).toHaveLength(0);
  }, 30_000);
});
