import { describe, expect, it } from "vitest";
import { sayIn } from "../../src/lib/locale.js";
import { stopRow } from "../../src/discord/views/stop-row.js";
import { componentsOf, type FakeMessage } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

const lastUserText = (h: BotHarness) => {
  const content = h.model.requests.at(-1)!.body.messages.at(-1)!.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};

async function press(h: BotHarness, message: FakeMessage, userId: string) {
  const button = componentsOf(h.discord.message(message.id)!).find((c) => c.label === "Stop" || c.label === "停止")!;
  return h.discord.clickButton({ userId, messageId: message.id, customId: button.customId! });
}

/** Alice mentions the bot; returns the thread once the bot's first answer is complete. */
async function threadWithAnswer(h: BotHarness, answer = "Hello Alice.") {
  h.model.enqueue({ text: answer });
  const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "hi", mentionsBot: true });
  await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content === answer));
  return start.id;
}

describe("the Stop button", () => {
  it("rides on the streaming answer; only the owner stops it; the text so far stays with a stopped line and is what history keeps", async () => {
    const h = await startBot();
    const { discord, model } = h;
    model.enqueue({ text: "Counting slowly: " + Array.from({ length: 80 }, (_, i) => `n${i}`).join(" "), chunkSize: 6, tokensPerSecond: 20 });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "count", mentionsBot: true });
    const streaming = await discord.waitFor(() => botMessages(discord, start.id).find((m) => componentsOf(m).some((c) => c.label === "Stop")));

    const refused = await press(h, streaming, discord.bob.id);
    const refusal = await discord.waitFor(() => discord.interactionResponses(refused.id).find((r) => r.content));
    expect(refusal).toMatchObject({ ephemeral: true });
    expect(refusal.content).toMatch(/belong to someone else/);

    const pressed = await press(h, streaming, discord.alice.id);
    const stopped = await discord.waitFor(() => {
      const m = discord.message(streaming.id)!;
      return m.content.endsWith("\n-# stopped") ? m : undefined;
    }, 3000);
    expect(discord.interaction(pressed.id)).toBeDefined();
    expect(componentsOf(stopped)).toEqual([]);
    const shown = stopped.content.slice(0, -"\n-# stopped".length);
    expect(shown.startsWith("Counting slowly:")).toBe(true);
    expect(shown.length).toBeLessThan(200);
    await new Promise((r) => setTimeout(r, 400));
    expect(discord.message(streaming.id)!.content).toBe(stopped.content);
    const record = await h.engine.latestIn(start.id);
    expect(record?.messages.at(-1)).toEqual({ role: "assistant", content: shown });
  });

  it("is not on a quick short answer (one send, no edit) and leaves a finished answer without buttons", async () => {
    const h = await startBot();
    await threadWithAnswer(h, "Short and quick.");
    const [reply] = botMessages(h.discord, h.discord.threads[0]!.id);
    expect(reply!.edits).toEqual([]);
    expect(componentsOf(reply!)).toEqual([]);
  });

  it("on an answer that ended or was cut by a restart, pressing it only takes the button away; it says 停止 in Chinese", async () => {
    const h = await startBot();
    const threadId = await threadWithAnswer(h);
    const channel = h.bot.client.channels.cache.get(threadId);
    if (!channel?.isSendable()) throw new Error("expected the thread");
    const stale = await channel.send({ content: "an answer cut by a restart", components: [stopRow(h.discord.alice.id, "0123456789ab", sayIn("zh-CN"))] });
    const message = h.discord.message(stale.id)!;
    expect(componentsOf(message).map((c) => c.label)).toEqual(["停止"]);
    await press(h, message, h.discord.alice.id);
    await h.discord.waitFor(() => componentsOf(h.discord.message(stale.id)!).length === 0);
    expect(h.discord.message(stale.id)!.content).toBe("an answer cut by a restart");
  });
});

describe("the Stop button belongs to its turn's owner", () => {
  /** Alice's slow answer, streaming with its Stop button; returns it and the turn id the button carries. */
  async function slowAnswer(h: BotHarness) {
    const text = "Counting slowly: " + Array.from({ length: 60 }, (_, i) => `n${i}`).join(" ");
    h.model.enqueue({ text, chunkSize: 6, tokensPerSecond: 40 });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "count", mentionsBot: true });
    const streaming = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => componentsOf(m).some((c) => c.label === "Stop")));
    const turnId = componentsOf(streaming)[0]!.customId!.split(":")[2]!;
    return { text, streaming, turnId };
  }

  it("a Stop button for bob that names alice's turn does not stop alice's answer", async () => {
    const h = await startBot();
    const { text, streaming, turnId } = await slowAnswer(h);
    // A button Discord would accept (it is on the message, bob's id in it) but whose turn is someone else's.
    const channel = h.bot.client.channels.cache.get(streaming.channelId);
    if (!channel?.isSendable()) throw new Error("expected the thread");
    const lying = await channel.send({ content: "a stray button", components: [stopRow(h.discord.bob.id, turnId, sayIn("en"))] });
    const click = await press(h, h.discord.message(lying.id)!, h.discord.bob.id);
    const refusal = await h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
    expect(refusal).toMatchObject({ ephemeral: true });
    expect(refusal.content).toMatch(/someone else's answer/);
    // The whole answer, then the edit that takes the Stop button off (the last text may come a moment before it).
    const whole = await h.discord.waitFor(() => (h.discord.message(streaming.id)!.content === text ? h.discord.message(streaming.id) : undefined), 8000);
    expect(whole!.content).toBe(text);
    const done = await h.discord.waitFor(
      () => (componentsOf(h.discord.message(streaming.id)!).length === 0 ? h.discord.message(streaming.id) : undefined),
      8000,
    );
    expect(done!.content).toBe(text);
  });

  it("a forged Stop (a custom id the message does not carry) changes nothing", async () => {
    const h = await startBot();
    const { text, streaming, turnId } = await slowAnswer(h);
    const click = h.discord.forgeButtonClick({ userId: h.discord.bob.id, messageId: streaming.id, customId: `st:${h.discord.bob.id}:${turnId}` });
    const refusal = await h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
    expect(refusal).toMatchObject({ ephemeral: true });
    await h.discord.waitFor(() => h.discord.message(streaming.id)!.content === text, 8000);
    expect(h.discord.message(streaming.id)!.content).not.toMatch(/stopped/);
  });
});

describe("replies, stickers and links", () => {
  it("gives the model the message the person replied to", async () => {
    const h = await startBot();
    const threadId = await threadWithAnswer(h, "The library opens at nine.");
    const [answer] = botMessages(h.discord, threadId);
    h.model.enqueue({ text: "Yes, at nine." });
    await h.discord.userSends({ channelId: threadId, userId: h.discord.alice.id, content: "are you sure?", reference: { messageId: answer!.id } });
    await h.discord.waitFor(() => botMessages(h.discord, threadId).find((m) => m.content === "Yes, at nine."));
    expect(lastUserText(h)).toBe("[The person is replying to your own earlier answer: “The library opens at nine.”]\n\nare you sure?");
  });

  it("gives the model the message in the parent channel that started the thread, when the person replies to it", async () => {
    const h = await startBot();
    h.model.enqueue({ text: "Noted." }, { text: "It said to bring umbrellas." });
    const start = await h.discord.userSends({
      channelId: h.discord.textChannel.id,
      userId: h.discord.alice.id,
      content: "rain expected on Friday, bring umbrellas",
      mentionsBot: true,
    });
    await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content === "Noted."));
    await h.discord.userSends({ channelId: start.id, userId: h.discord.alice.id, content: "what did this say?", reference: { messageId: start.id } });
    await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("It said")));
    expect(lastUserText(h)).toBe("[The person is replying to a message by Alice: “rain expected on Friday, bring umbrellas”]\n\nwhat did this say?");
  });

  it("answers a message that is only a sticker, saying it sees only the sticker's name", async () => {
    const h = await startBot();
    const threadId = await threadWithAnswer(h);
    h.model.enqueue({ text: "Hello to you too!" });
    await h.discord.userSends({ channelId: threadId, userId: h.discord.alice.id, content: "", stickers: [{ id: "749054660769218631", name: "Wave" }] });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, threadId).find((m) => m.content.startsWith("Hello to you too!")));
    expect(reply.content).toBe("Hello to you too!\n-# 🏷️ I can't see stickers; I only know their names: “Wave”.");
    expect(lastUserText(h)).toBe("[sticker: “Wave” (you cannot see stickers, only their names)]");
  });

  it("answers a link with its preview, saying it cannot open links", async () => {
    const h = await startBot();
    const threadId = await threadWithAnswer(h);
    h.model.enqueue({ text: "A guide to oolong, it seems." });
    await h.discord.userSends({
      channelId: threadId,
      userId: h.discord.alice.id,
      content: "https://example.com/tea",
      embeds: [{ title: "Tea guide", description: "All about oolong", url: "https://example.com/tea" }],
    });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, threadId).find((m) => m.content.startsWith("A guide")));
    expect(reply.content).toMatch(/\n-# 🔗 I can't open links; I read only the address and the preview Discord shows, if any\.$/);
    expect(lastUserText(h)).toBe("https://example.com/tea\n\n[link preview: Tea guide — All about oolong (https://example.com/tea)]");
  });
});
