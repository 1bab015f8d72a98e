import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { serveWeb } from "../../src/web/server.js";
import { slashOption as s } from "../fakes/fake-discord/index.js";
import { startBot, type BotHarness } from "../helpers/bot-harness.js";
import { freePort } from "../helpers/free-port.js";
import { csrfOf, WebClient } from "../helpers/web-client.js";

async function webCommand(h: BotHarness, userId: string, locale = "en-US") {
  const call = h.discord.runSlashCommand({ userId, channelId: h.discord.textChannel.id, name: "memory", options: [s.subcommand("web")], locale });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content !== undefined));
}

describe("/memory web", () => {
  it("answers the caller alone with a one-time link that signs them in to their own memory on the page", async () => {
    const port = await freePort();
    const h = await startBot({ env: { WEB_PORT: String(port) } });
    const web = await serveWeb(h.config, h, silentLogger);
    try {
      const answer = await webCommand(h, h.discord.alice.id);
      expect(answer.ephemeral).toBe(true);
      const link = /<(http:\/\/127\.0\.0\.1:\d+\/auth\/link\/[^>]+)>/.exec(answer.content!)![1]!;
      expect(answer.content).toContain("works once and for 10 minutes");
      const browser = new WebClient(`http://127.0.0.1:${port}`);
      const shown = await browser.get(link);
      const signed = await browser.post(new URL(link).pathname, { _csrf: csrfOf(shown.text) });
      expect(signed.status).toBe(303);
      await h.engine
        .memoryOf(h.discord.alice.id)
        .file("user")
        .add("Likes", "oolong", { level: "person", by: { kind: "person" } });
      expect((await browser.get("/memory/user")).text).toContain("oolong");
      // Used: a second browser with the same link is refused.
      const second = new WebClient(`http://127.0.0.1:${port}`);
      const again = await second.get(link);
      expect(again.status).toBe(410);
      expect(again.text).toContain("was used already");
    } finally {
      await web?.close();
    }
  });

  it("says in the person's language when the page is not set up, naming the two settings of the bot's .env that set it up", async () => {
    const h = await startBot();
    const answer = await webCommand(h, h.discord.alice.id, "zh-CN");
    expect(answer.ephemeral).toBe(true);
    expect(answer.content).toBe(
      "这个机器人没有设置网页。运行它的人需要在机器人的 .env 中添加 WEB_PORT（由机器人提供网页），或者在网页单独运行（npm run web）时添加 PUBLIC_URL，值为网页的地址。",
    );
    expect((await webCommand(h, h.discord.alice.id)).content).toBe(
      "The web page is not set up on this bot. Whoever runs it adds to the bot's .env either WEB_PORT (the bot serves the page) or, when the page runs on its own (npm run web), PUBLIC_URL with the page's address.",
    );
  });

  it("with the page run on its own (the README's recipe: PUBLIC_URL in the bot's .env, no WEB_PORT), links to that page", async () => {
    const h = await startBot({ env: { PUBLIC_URL: "http://127.0.0.1:8080" } });
    const answer = await webCommand(h, h.discord.alice.id);
    expect(answer.content).toMatch(/^Your memory on the web: <http:\/\/127\.0\.0\.1:8080\/auth\/link\/[^>]+>\n/);
  });
});
