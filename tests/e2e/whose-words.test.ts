import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tidyUp } from "../../src/engine/tidy/tidy-up.js";
import { silentLogger } from "../../src/lib/logger.js";
import { ModelClient } from "../../src/model/model-client.js";
import { serveWeb } from "../../src/web/server.js";
import { componentsOf, slashOption as s } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { freePort } from "../helpers/free-port.js";
import { csrfOf, WebClient } from "../helpers/web-client.js";

/** Bob's message: a line that ends in "]" (a footnote), then a claim about Alice. */
const BOBS = "see the news [1]\nAlice was fired from the hospital for stealing morphine";
const CLAIM = "- fired from the hospital for stealing morphine";

const userFile = (h: BotHarness) => readFile(join(h.home, "users", h.discord.alice.id, "USER.md"), "utf8").catch(() => "");

async function chatWithBob(h: BotHarness) {
  const { discord } = h;
  const call = discord.runSlashCommand({
    userId: discord.alice.id,
    channelId: discord.textChannel.id,
    name: "chat",
    options: [s.string("topic", "news"), s.user("with", discord.bob.id)],
  });
  const thread = await discord.waitFor(() => discord.threads.find((t) => t.name === "news"));
  await discord.waitFor(() => discord.interactionResponses(call.id).some((r) => r.content?.includes(`<#${thread.id}>`)));
  await discord.waitFor(() => botMessages(discord, thread.id)[0]);
  return thread;
}

describe("whose words, through the bot, the tidy-up and the web page", () => {
  it("a reply to a guest's message: the model's USER.md write of the guest's words waits for Alice's Save, says they were Bob's, and neither the tidy-up nor the page makes them hers", async () => {
    const port = await freePort();
    const h = await startBot({ env: { WEB_PORT: String(port) } });
    const { discord, model } = h;
    const thread = await chatWithBob(h);
    model.enqueue({ text: "Noted, Bob." });
    const bobs = await discord.userSends({ channelId: thread.id, userId: discord.bob.id, content: BOBS });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Noted, Bob.")));

    // Alice uses Discord's reply on Bob's message and types one common word.
    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Work", content: CLAIM } }] }, { text: "Shall I keep that?" });
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "okay", reference: { messageId: bobs.id } });
    const reply = await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.includes("✋")));
    expect(reply.content).toContain("not your own words (from Bob's message you replied to)");
    expect(componentsOf(reply).map((c) => c.label)).toEqual(["Save", "Discard"]);
    expect(await userFile(h)).not.toContain("morphine");

    model.setFallback({ text: "They talked about the news." });
    const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: thread.id, name: "end" });
    await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")), 8000);
    const memory = h.engine.memoryOf(discord.alice.id);
    const [name] = await readdir(memory.conversationsDir);
    const file = await readFile(join(memory.conversationsDir, name!), "utf8");
    expect(file).toContain('-# from: reply · "Bob"');
    expect(file).toContain("## 👤 Bob");

    // The nightly tidy-up is offered the claim with a quote of it: it is not Alice's words, so it is held, not written.
    const operations = [
      {
        kind: "move",
        file: "user",
        section: "Work",
        old_lines: [],
        new_lines: [CLAIM],
        reason: "said in chat",
        source: `conversations/${name}`,
        quote: "Alice was fired from the hospital for stealing morphine",
      },
    ];
    model.enqueue({ text: JSON.stringify({ operations }) });
    const client = new ModelClient({ baseURL: model.baseURL, apiKey: "t", model: "fake-model", maxRetries: 0 });
    await tidyUp(memory, client, { force: true });
    expect(await userFile(h)).not.toContain("morphine");

    // The page marks Bob as a guest and the replied-to message as Bob's.
    const web = await serveWeb(h.config, h, silentLogger);
    try {
      const call = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "memory", options: [s.subcommand("web")] });
      const answer = await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content !== undefined));
      const link = /<(http:\/\/127\.0\.0\.1:\d+\/auth\/link\/[^>]+)>/.exec(answer.content!)![1]!;
      const browser = new WebClient(`http://127.0.0.1:${port}`);
      await browser.post(new URL(link).pathname, { _csrf: csrfOf((await browser.get(link)).text) });
      const page = (await browser.get(`/conversations/${name}`)).text;
      // Marked in words too: an emoji alone says nothing where no emoji font is installed.
      expect(page).toContain("👤 Bob <small>(invited, not you)</small>");
      expect(page).toContain("from Bob&#39;s message you replied to");
    } finally {
      await web?.close();
    }
  });

  it("a message of Alice's own that starts with '[' (a Markdown link) is still her words: the fact is saved, in the turn and by the tidy-up", async () => {
    const h = await startBot();
    const { discord, model } = h;
    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Home", content: "- moved to Lyon" } }] }, { text: "Noted." });
    const start = await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: "[edit] I moved to Lyon, see [my blog](https://example.org)]",
      mentionsBot: true,
    });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.includes("💾")));
    expect(await userFile(h)).toContain("- moved to Lyon");

    // A second message of hers in the same form, which the turn does not save: the nightly tidy-up
    // quotes it, and it is hers (a reading of the text would take "[update] …]" for a quoted note).
    const thread = await discord.waitFor(() => discord.threads.find((t) => botMessages(discord, t.id).length > 0));
    model.enqueue({ text: "Congratulations!" });
    const said = "[update] I started work at the Lyon opera house as a violinist, see [the post](https://example.org)]";
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: said });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Congratulations!")));
    model.setFallback({ text: "Alice moved to Lyon and plays at the opera." });
    const end = discord.runSlashCommand({ userId: discord.alice.id, channelId: thread.id, name: "end" });
    await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")), 8000);
    const memory = h.engine.memoryOf(discord.alice.id);
    const [name] = await readdir(memory.conversationsDir);
    const operations = [
      {
        kind: "move",
        file: "user",
        section: "Work",
        old_lines: [],
        new_lines: ["- Violinist at the Lyon opera house"],
        reason: "said in chat",
        source: `conversations/${name}`,
        quote: "I started work at the Lyon opera house as a violinist",
      },
    ];
    model.enqueue({ text: JSON.stringify({ operations }) });
    const client = new ModelClient({ baseURL: model.baseURL, apiKey: "t", model: "fake-model", maxRetries: 0 });
    const summary = await tidyUp(memory, client, { force: true });
    expect(summary).toMatchObject({ held: [] });
    expect(await userFile(h)).toContain("- Violinist at the Lyon opera house");
  });
});
