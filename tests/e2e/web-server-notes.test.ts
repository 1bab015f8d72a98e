import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { PERSON } from "../../src/memory/memory-file.js";
import { mintSignInToken, webSecret } from "../../src/sessions/web-sign-in.js";
import { serveWeb } from "../../src/web/server.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { freePort } from "../helpers/free-port.js";
import { csrfOf, WebClient } from "../helpers/web-client.js";

const NOTE = "weekly game night in the lounge";
const HIDDEN = "the moderators' secret handshake";

async function signedIn(h: BotHarness, port: number, userId: string): Promise<WebClient> {
  const browser = new WebClient(`http://127.0.0.1:${port}`);
  const link = `/auth/link/${mintSignInToken(await webSecret(h.home), userId)}`;
  await browser.post(link, { _csrf: csrfOf((await browser.get(link)).text) });
  return browser;
}

/** Bob talks in a thread of the default server and ends it: his conversation file names the server. */
async function bobTalksInTheServer(h: BotHarness): Promise<void> {
  h.model.setFallback({ text: "ok" });
  const start = await h.discord.userSends({
    channelId: h.discord.textChannel.id,
    userId: h.discord.bob.id,
    content: "what happens on Friday?",
    mentionsBot: true,
  });
  await h.discord.waitFor(() => botMessages(h.discord, start.id)[0]);
  const call = h.discord.runSlashCommand({ userId: h.discord.bob.id, channelId: start.id, name: "end" });
  await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content));
  const dir = join(h.home, "users", h.discord.bob.id, "conversations");
  await h.discord.waitFor(async () => (await readdir(dir).catch(() => [])).length > 0);
}

/** A bot with the web page, notes in its server, and a conversation of Bob's there. */
async function serverWithNotesBobTalksIn(): Promise<{ h: BotHarness; port: number }> {
  const port = await freePort();
  const h = await startBot({ env: { WEB_PORT: String(port) } });
  await h.engine.serverNotesOf(h.discord.guild.id).notes.add("Events", `- ${NOTE}`, PERSON);
  await bobTalksInTheServer(h);
  return { h, port };
}

describe("server notes on the web page", () => {
  it("shows the notes of the servers a person talks in while Discord says they are a member; a server only a file names shows nothing", async () => {
    const port = await freePort();
    const h = await startBot({ env: { WEB_PORT: String(port) } });
    const web = await serveWeb(h.config, h, silentLogger);
    try {
      const { bob } = h.discord;
      await h.engine.serverNotesOf(h.discord.guild.id).notes.add("Events", `- the Friday thing: ${NOTE}`, PERSON);
      // A server the bot is in and Bob is not, with notes of its own.
      const other = h.discord.addGuild({ name: "Moderators only" });
      other.guild.members.delete(bob.id);
      await h.engine.serverNotesOf(other.guild.id).notes.add("Rules", `- ${HIDDEN}`, PERSON);
      await bobTalksInTheServer(h);
      // An import could name any server in a conversation's `- discord:` line.
      const dir = join(h.home, "users", bob.id, "conversations");
      const [real] = await readdir(dir);
      const forged = (await readFile(join(dir, real!), "utf8")).replace(/^- discord: \d+$/m, `- discord: ${other.guild.id}`);
      await writeFile(join(dir, real!.replace(/\.md$/, "-x.md")), forged);

      const browser = await signedIn(h, port, bob.id);
      const page = await browser.get("/servers");
      expect(page.status).toBe(200);
      expect(page.text).toContain("AgentKit Test Server");
      expect(page.text).toContain(NOTE);
      expect(page.text).toContain("/server-notes");
      expect(page.text).not.toContain(HIDDEN);
      expect(page.text).not.toContain("Moderators only");
      expect((await browser.get("/")).text).toContain('href="/servers"');

      // Alice has no conversation in any server: no server's notes apply to her, in her language.
      await h.engine.memoryOf(h.discord.alice.id).saveSettings({ locale: "zh-CN" });
      const alice = await signedIn(h, port, h.discord.alice.id);
      expect((await alice.get("/servers")).text).toContain("还没有适用于你的服务器笔记");
    } finally {
      await web?.close();
    }
  });

  it("stops showing a server's notes once Discord says the person left it, and says when Discord cannot be asked", async () => {
    const { h, port } = await serverWithNotesBobTalksIn();
    h.discord.guild.members.delete(h.discord.bob.id);
    const web = await serveWeb(h.config, h, silentLogger);
    try {
      const page = await (await signedIn(h, port, h.discord.bob.id)).get("/servers");
      expect(page.text).not.toContain(NOTE);
      expect(page.text).toContain("notes apply to you yet");
    } finally {
      await web?.close();
    }
    // A web page without the bot's token cannot ask Discord: it shows nothing and says why.
    const { discord: _dropped, ...noToken } = h.config;
    const blind = await serveWeb(noToken, h, silentLogger);
    try {
      const page = await (await signedIn(h, port, h.discord.bob.id)).get("/servers");
      expect(page.text).toContain("DISCORD_TOKEN");
      expect(page.text).not.toContain(NOTE);
    } finally {
      await blind?.close();
    }
  });

  it("shows nothing of a server Discord did not answer for, says so, and shows it once Discord answers", async () => {
    const { h, port } = await serverWithNotesBobTalksIn();
    const web = await serveWeb(h.config, h, silentLogger);
    try {
      const browser = await signedIn(h, port, h.discord.bob.id);
      h.discord.failNext({ method: "GET", route: "/guilds/:guildId/members/:userId", status: 500, times: 2 }); // the first ask and its one retry
      const failed = await browser.get("/servers");
      expect(failed.text).toContain("Discord did not answer for some servers just now");
      expect(failed.text).not.toContain(NOTE);
      // No answer is not kept: the next visit asks again.
      const later = await browser.get("/servers");
      expect(later.text).toContain(NOTE);
      expect(later.text).not.toContain("Discord did not answer");
    } finally {
      await web?.close();
    }
  });
});
