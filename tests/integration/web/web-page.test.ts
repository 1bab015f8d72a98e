import { readFile, writeFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { silentLogger } from "../../../src/lib/logger.js";
import { PERSON } from "../../../src/memory/memory-file.js";
import { mintSignInToken, webSecret } from "../../../src/sessions/web-sign-in.js";
import { buildWeb } from "../../../src/web/server.js";
import { startFakeDiscord, type FakeDiscord } from "../../fakes/fake-discord/index.js";
import { aliceInThread, setupEngine, type EngineSetup } from "../../helpers/engine.js";
import { csrfOf, WebClient } from "../../helpers/web-client.js";
import { freePort } from "../../helpers/free-port.js";
import { startLoopProbe } from "../../helpers/loop-probe.js";

const ALICE = "111";
const BOB = "222";

const running: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of running.splice(0).reverse()) await thing.close();
});

interface Page {
  setup: EngineSetup;
  app: FastifyInstance;
  base: string;
  secret: string;
  discord?: FakeDiscord;
  /** A browser signed in as this person through a one-time link. */
  signedIn(userId: string): Promise<WebClient>;
}

/** A browser's whole Login with Discord as `userId`, up to the callback's answer. */
async function signInWithDiscord(web: Page, discord: FakeDiscord, userId: string) {
  discord.oauth2.redirectUris.add(`${web.base}/auth/callback`);
  discord.oauth2.signedIn = userId;
  const client = new WebClient(web.base);
  const start = await client.get("/auth/discord");
  const back = (await fetch(start.location!, { redirect: "manual" })).headers.get("location")!;
  return { client, answer: await client.get(back) };
}

async function startPage(
  options: { setup?: EngineSetup; discord?: FakeDiscord; now?: () => Date; allowedGuilds?: string[]; publicUrl?: string } = {},
): Promise<Page> {
  const setup = options.setup ?? (await setupEngine());
  const secret = await webSecret(setup.home);
  const discord = options.discord;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await buildWeb({
    config: {
      publicUrl: options.publicUrl ?? base,
      oauth: discord ? { clientId: discord.applicationId, clientSecret: discord.oauth2.clientSecret, apiUrl: discord.apiUrl } : undefined,
      allowed: { guildIds: options.allowedGuilds ?? [], userIds: [], roleIds: [] },
      ...(discord ? { discord: { token: discord.token, clientId: discord.applicationId, guildId: undefined, apiUrl: discord.apiUrl } } : {}),
    },
    engine: setup.engine,
    store: setup.store,
    log: silentLogger,
    secret,
    ...(options.now ? { now: options.now } : {}),
  });
  await app.listen({ port, host: "127.0.0.1" });
  running.push(app);
  const signedIn = async (userId: string) => {
    const client = new WebClient(base);
    const token = mintSignInToken(secret, userId);
    const shown = await client.get(`/auth/link/${token}`);
    const done = await client.post(`/auth/link/${token}`, { _csrf: csrfOf(shown.text) });
    expect(done.status).toBe(303);
    return client;
  };
  return { setup, app, base, secret, ...(discord ? { discord } : {}), signedIn };
}

async function writeMemory(setup: EngineSetup, userId: string, label: string, text: string) {
  const dir = join(setup.home, "users", userId);
  await mkdir(join(dir, "conversations"), { recursive: true });
  await writeFile(join(dir, label), text);
}

describe("the web page: signing in", () => {
  it("signs in once with a /memory web link: the link shows a button, the POST uses it up, the cookie is HttpOnly and SameSite=Lax", async () => {
    const web = await startPage();
    const client = new WebClient(web.base);
    const token = mintSignInToken(web.secret, ALICE);
    // Opening the link (or a preview fetching it) signs nobody in and uses nothing up.
    const shown = await client.get(`/auth/link/${token}`);
    expect(shown.status).toBe(200);
    expect((await client.get("/")).text).toContain("/memory web");
    const signed = await client.post(`/auth/link/${token}`, { _csrf: csrfOf((await client.get(`/auth/link/${token}`)).text) });
    expect(signed).toMatchObject({ status: 303, location: "/" });
    const session = client.setCookies.filter((c) => c.startsWith("agentkit_session=")).at(-1)!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Max-Age=604800|Expires=/i);
    const overview = await client.get("/");
    expect(overview.text).toContain("USER.md");
    expect(overview.text).toContain("Sign out");

    // The same link again, in another browser: it says at once that it was used, with no Sign in button, and refuses a POST.
    const other = new WebClient(web.base);
    const opened = await other.get(`/auth/link/${token}`);
    expect(opened.status).toBe(410);
    expect(opened.text).toContain("This sign-in link was used already (each works once)");
    expect(opened.text).not.toContain(`action="/auth/link/${token}"`);
    // A form token of this browser (another, unused link's page) still cannot use it.
    const again = await other.post(`/auth/link/${token}`, { _csrf: csrfOf((await other.get(`/auth/link/${mintSignInToken(web.secret, BOB)}`)).text) });
    expect(again.status).toBe(410);
    expect(again.text).toContain("was used already");
    expect((await other.get("/")).text).not.toContain("Sign out");
  });

  it("refuses an expired link and a forged one", async () => {
    const web = await startPage();
    const client = new WebClient(web.base);
    const old = mintSignInToken(web.secret, ALICE, new Date(Date.now() - 11 * 60_000));
    const expired = await client.get(`/auth/link/${old}`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("has expired");
    const forged = mintSignInToken("0".repeat(64), ALICE);
    expect((await client.get(`/auth/link/${forged}`)).status).toBe(404);
    // Another person's id put into a real token breaks its signature.
    const real = mintSignInToken(web.secret, ALICE);
    expect((await client.get(`/auth/link/${real.replace(ALICE, BOB)}`)).status).toBe(404);
  });

  it("signs in with Discord through OAuth2 with state and PKCE, and refuses a callback whose state is not this browser's", async () => {
    const discord = await startFakeDiscord();
    running.push(discord);
    const web = await startPage({ discord });
    discord.oauth2.redirectUris.add(`${web.base}/auth/callback`);
    discord.oauth2.signedIn = discord.alice.id;
    const client = new WebClient(web.base);
    const start = await client.get("/auth/discord");
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("scope")).toBe("identify");
    expect(authorize.searchParams.get("state")).toBeTruthy();
    const atDiscord = await fetch(authorize, { redirect: "manual" });
    const back = atDiscord.headers.get("location")!;
    expect(back.startsWith(`${web.base}/auth/callback`)).toBe(true);

    // Someone else's browser cannot finish this sign-in (no state cookie, no verifier).
    const stranger = new WebClient(web.base);
    expect((await stranger.get(back)).status).toBe(400);

    const done = await client.get(back);
    expect(done).toMatchObject({ status: 303, location: "/" });
    const overview = await client.get("/");
    expect(overview.text).toContain("Sign out");
    expect(overview.text).toContain("USER.md");
  });

  it("refuses a Discord sign-in whose state and verifier cookies were planted from another browser (login CSRF): the state is this browser's session's", async () => {
    const discord = await startFakeDiscord();
    running.push(discord);
    const web = await startPage({ discord });
    discord.oauth2.redirectUris.add(`${web.base}/auth/callback`);
    // The attacker starts a sign-in as themselves and stops before the callback.
    discord.oauth2.signedIn = discord.bob.id;
    const attacker = new WebClient(web.base);
    const start = await attacker.get("/auth/discord");
    const back = (await fetch(new URL(start.location!), { redirect: "manual" })).headers.get("location")!;
    // The victim's browser gets the attacker's state and verifier cookies and is sent to the callback.
    // Not the session cookie: under HTTPS it is __Host- prefixed, which a browser takes from no one else (next test).
    const victim = new WebClient(web.base);
    await victim.get("/");
    for (const [name, cookie] of attacker.held()) if (!name.includes("agentkit_session")) victim.plant(name, cookie);
    expect(victim.held().size).toBeGreaterThanOrEqual(2);
    expect((await victim.get(back)).status).toBe(400);
    expect((await victim.get("/")).text).not.toContain("Sign out");
    // The attacker's own browser still finishes its own sign-in.
    expect(await attacker.get(back)).toMatchObject({ status: 303, location: "/" });
  });

  it("under HTTPS names the session's and the sign-in's cookies __Host-, so no other host or plaintext answer can plant them", async () => {
    const discord = await startFakeDiscord();
    running.push(discord);
    const web = await startPage({ discord, publicUrl: "https://agentkit.example" });
    const client = new WebClient(web.base);
    // Reached through a proxy on this machine that says it was HTTPS.
    const start = await client.get("/auth/discord", { "x-forwarded-proto": "https" });
    expect(start.status).toBe(302);
    const names = client.setCookies.map((line) => line.slice(0, line.indexOf("=")));
    expect(names).toContain("__Host-agentkit_session");
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const line of client.setCookies) {
      expect(line).toMatch(/^__Host-/);
      expect(line).toMatch(/; Secure/i);
      expect(line).toMatch(/; Path=\/(;|$)/i);
      expect(line).not.toMatch(/; Domain=/i);
    }
  });

  it("lets in with Discord only people the bot serves: with ALLOWED_GUILD_IDS, a member of that server", async () => {
    const discord = await startFakeDiscord();
    running.push(discord);
    const web = await startPage({ discord, allowedGuilds: [discord.guild.id] });
    const signInAs = (userId: string) => signInWithDiscord(web, discord, userId);
    const stranger = discord.addUser({ username: "mallory", inGuild: false }).id;
    const refused = await signInAs(stranger);
    expect(refused.answer.status).toBe(403);
    expect(refused.answer.text).toContain("does not serve your Discord account");
    expect((await refused.client.get("/settings")).status).toBe(401);
    const member = await signInAs(discord.alice.id);
    expect(member.answer.status).toBe(303);
    expect((await member.client.get("/settings")).status).toBe(200);
  });

  it("without an allow list, lets in with Discord only people with memory here or a member of a server the bot is in", async () => {
    const discord = await startFakeDiscord();
    running.push(discord);
    const web = await startPage({ discord });
    const signInAs = async (userId: string) => (await signInWithDiscord(web, discord, userId)).answer;
    // A Discord account that shares no server with the bot and has never talked to it.
    const stranger = discord.addUser({ username: "mallory", inGuild: false }).id;
    const refused = await signInAs(stranger);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("does not serve your Discord account");
    // A member of the bot's server, with no memory yet.
    expect((await signInAs(discord.alice.id)).status).toBe(303);
    // Someone who talked to the bot before (in a server it has since left, in a DM): their memory is here.
    const former = discord.addUser({ username: "formerly", inGuild: false }).id;
    await writeMemory(web.setup, former, "USER.md", "## Home\n- Lives in Oslo\n");
    expect((await signInAs(former)).status).toBe(303);
    // Someone in a first conversation with the bot, not yet closed: nothing of theirs is in a folder yet.
    const talking = discord.addUser({ username: "talking", inGuild: false }).id;
    expect((await signInAs(talking)).status).toBe(403);
    await web.setup.engine.open({ ...aliceInThread, userId: talking });
    await web.setup.engine.settle();
    expect((await signInAs(talking)).status).toBe(303);
  });

  it("keeps a sign-in across a restart, ends it with Sign out, and Sign out everywhere ends every other browser's", async () => {
    const setup = await setupEngine();
    const first = await startPage({ setup });
    const a = await first.signedIn(ALICE);
    const b = await first.signedIn(ALICE);
    await first.app.close();
    const second = await startPage({ setup });
    const again = new WebClient(second.base);
    // The same cookie on the restarted page (a new port here: cookies are per host, not per port).
    Object.assign(again, { cookies: (a as unknown as { cookies: unknown }).cookies });
    expect((await again.get("/")).text).toContain("Sign out");
    const everywhere = await again.post("/auth/sign-out-everywhere", { _csrf: csrfOf((await again.get("/settings")).text) });
    expect(everywhere.status).toBe(303);
    const bAgain = new WebClient(second.base);
    Object.assign(bAgain, { cookies: (b as unknown as { cookies: unknown }).cookies });
    expect((await bAgain.get("/")).text).not.toContain("Sign out");
    // A new sign-in after it works.
    const c = await second.signedIn(ALICE);
    expect((await c.get("/")).text).toContain("Sign out");
    const out = await c.post("/auth/sign-out", { _csrf: csrfOf((await c.get("/")).text) });
    expect(out.status).toBe(303);
    expect((await c.get("/")).text).not.toContain("Sign out");
  });

  it("makes the sign-in cookie Secure when a proxy on this machine says the page was reached over HTTPS", async () => {
    const web = await startPage();
    const client = new WebClient(web.base);
    const token = mintSignInToken(web.secret, ALICE);
    const shown = await client.get(`/auth/link/${token}`, { "x-forwarded-proto": "https" });
    expect(client.setCookies.at(-1)).toMatch(/; Secure/i);
    const plain = new WebClient(web.base);
    await plain.get(`/auth/link/${mintSignInToken(web.secret, ALICE)}`);
    expect(plain.setCookies.at(-1)).not.toMatch(/; Secure/i);
    expect(shown.status).toBe(200);
  });

  it("rate-limits every page per person (a conversation's page more tightly), and one person's limit is not another's", async () => {
    const web = await startPage();
    await writeMemory(web.setup, ALICE, "conversations/2026-12-02-tea-ffff6666.md", "# tea\n\n- place: DM\n\n## 🧑 Alice\nhi\n");
    const alice = await web.signedIn(ALICE);
    const bob = await web.signedIn(BOB);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await alice.get("/conversations/2026-12-02-tea-ffff6666.md")).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const pages: number[] = [];
    for (let i = 0; i < 121; i++) pages.push((await alice.get("/history")).status);
    expect(pages.slice(0, 120).every((s) => s === 200)).toBe(true);
    const limited = await alice.get("/history");
    expect(limited.status).toBe(429);
    expect(limited.text).toContain("wait a minute");
    expect((await bob.get("/history")).status).toBe(200);
  }, 30_000);

  it("rate-limits sign-in attempts from one address", async () => {
    const web = await startPage();
    const client = new WebClient(web.base);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await client.get(`/auth/link/nonsense-${i}`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("the web page: a person's own memory only, and safe", () => {
  it("answers 404 for another person's conversation, change and undo; 403 for a POST without the CSRF token", async () => {
    const web = await startPage();
    await writeMemory(
      web.setup,
      BOB,
      "conversations/2026-12-01-bobs-secret-plans-aaaa1111.md",
      "# bob's secret plans\n\n- place: DM\n\n## 🧑 Bob\nthe vault code is 1234\n",
    );
    const bobMemory = web.setup.engine.memoryOf(BOB);
    const change = await bobMemory.file("user").add("Plans", "Bob plans a trip", { level: "person", by: { kind: "person" } });
    expect(change.ok).toBe(true);
    const bobEntry = (await bobMemory.history())[0]!;
    const alice = await web.signedIn(ALICE);
    expect((await alice.get("/conversations/2026-12-01-bobs-secret-plans-aaaa1111.md")).status).toBe(404);
    expect((await alice.get("/conversations/..%2F..%2F222%2FUSER.md")).status).toBe(404);
    const token = csrfOf((await alice.get("/history")).text);
    expect((await alice.post(`/history/${bobEntry.id}/undo`, { _csrf: token })).status).toBe(404);
    expect((await alice.post("/conversations/2026-12-01-bobs-secret-plans-aaaa1111.md/delete", { _csrf: token })).status).toBe(404);
    expect((await alice.get(`/users/${BOB}`)).status).toBe(404);
    // Bob's change is still there, and so is his conversation.
    expect(await bobMemory.file("user").read()).toContain("Bob plans a trip");
    expect(await bobMemory.hasConversation("2026-12-01-bobs-secret-plans-aaaa1111.md")).toBe(true);

    // No token, a wrong token, another browser's token: refused before anything is read.
    expect((await alice.post("/memory/user", { sections: "0", shown: "0000000000000000", name_new: "X", body_new: "y" })).status).toBe(403);
    expect((await alice.post("/memory/user", { _csrf: "forged", sections: "0", shown: "0000000000000000" })).status).toBe(403);
    const bob = await web.signedIn(BOB);
    expect((await bob.post("/auth/sign-out", { _csrf: token })).status).toBe(403);
    expect(await web.setup.engine.memoryOf(ALICE).file("user").read()).toBe("");
  });

  it("sends a strict Content-Security-Policy, no inline script, and shows memory text with markup as text", async () => {
    const web = await startPage();
    const evil = "<img src=x onerror=alert(1)>";
    await writeMemory(web.setup, ALICE, "USER.md", `## About ${evil}\n- likes ${evil}\n`);
    await writeMemory(
      web.setup,
      ALICE,
      "conversations/2026-12-02-evil-bbbb2222.md",
      `# ${evil}\n\n- place: DM\n\n## 🧑 Alice\n${evil} and [click](javascript:alert(1))\n`,
    );
    const alice = await web.signedIn(ALICE);
    for (const path of [
      "/",
      "/memory/user",
      "/conversations",
      "/conversations/2026-12-02-evil-bbbb2222.md",
      "/history",
      `/search?q=${encodeURIComponent("onerror")}`,
    ]) {
      const answer = await alice.get(path);
      expect(answer.status, path).toBe(200);
      const csp = answer.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(answer.text, path).not.toContain("<img src=x");
      expect(answer.text, path).not.toMatch(/<script>|<script [^>]*>[^<]/);
      expect(answer.text, path).not.toContain('href="javascript:');
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    expect((await alice.get("/memory/user")).text).toContain("&#60;img src&#61;x onerror&#61;alert(1)&#62;");
  });

  it("shows a Markdown image in a transcript as a link, so a guest's or the model's message makes the browser fetch nothing", async () => {
    const web = await startPage();
    const lines = "![](/search?q=secret) ![me](/export) ![x](https://evil.example/p.png) ![](data:image/png;base64,AAAA)";
    await writeMemory(
      web.setup,
      ALICE,
      "conversations/2026-12-02-pics-cccc3333.md",
      `# pics\n\n- place: DM\n\n## 🧑 Alice\nlook\n\n## 🤖 Assistant\n${lines}\n`,
    );
    const alice = await web.signedIn(ALICE);
    const answer = await alice.get("/conversations/2026-12-02-pics-cccc3333.md");
    expect(answer.status).toBe(200);
    expect(answer.text).not.toMatch(/<img\b/);
    expect(answer.text).toContain('href="/export"');
    expect(answer.text).toContain(">🖼 me</a>");
  });

  it("never holds the event loop long for the heaviest conversation page anyone can store: Markdown that would take long is shown as text, the rest rendered in slices", async () => {
    const web = await startPage();
    // 39 messages of 10,000 characters each of the patterns markdown-it parses slowest.
    const slow = ["![", "![x](", "*a", "_*", "[a](", "["];
    const messages = Array.from(
      { length: 39 },
      (_, i) => `## ${i % 2 ? "🤖 Assistant" : "🧑 Alice"}\n${slow[i % slow.length]!.repeat(10_000).slice(0, 10_000)}\n`,
    );
    await writeMemory(web.setup, ALICE, "conversations/2026-12-02-slow-dddd4444.md", `# slow\n\n- place: DM\n\n${messages.join("\n")}`);
    const alice = await web.signedIn(ALICE);
    await alice.get("/conversations/2026-12-02-slow-dddd4444.md");
    const probe = startLoopProbe();
    const started = performance.now();
    const answer = await alice.get("/conversations/2026-12-02-slow-dddd4444.md");
    const tookMs = performance.now() - started;
    const { worstCpuMs } = probe.stop();
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("![![![");
    expect(worstCpuMs, `the loop was held ${Math.round(worstCpuMs)} ms at once`).toBeLessThan(50);
    expect(tookMs).toBeLessThan(5_000);
    // An ordinary message is still Markdown.
    await writeMemory(
      web.setup,
      ALICE,
      "conversations/2026-12-02-fine-eeee5555.md",
      "# fine\n\n- place: DM\n\n## 🤖 Assistant\n**bold** and [a link](https://example.com) and ![pic](/x.png)\n",
    );
    const fine = await alice.get("/conversations/2026-12-02-fine-eeee5555.md");
    expect(fine.text).toContain("<strong>bold</strong>");
    expect(fine.text).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">a link</a>');
  }, 30_000);

  it("answers a request the framework cannot read (a broken percent-encoding) with the page's own 400 and every security header", async () => {
    const web = await startPage();
    const alice = await web.signedIn(ALICE);
    for (const path of ["/conversations/%E0%A4%A", "/%", "/memory/%zz"]) {
      const answer = await alice.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(answer.headers.get("content-security-policy"), path).toContain("default-src 'none'");
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(answer.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
      expect(answer.text, path).toContain("The page could not read that request.");
    }
    // A body the framework cannot read, a type it does not take, a page that does not exist: the same headers, nothing echoed.
    const csrf = csrfOf((await alice.get("/settings")).text);
    const answers = [
      await alice.request("POST", "/settings", undefined, { "content-type": "application/json" }),
      await fetch(`${web.base}/settings`, { method: "POST", headers: { "content-type": "application/x-evil-<script>" }, body: `_csrf=${csrf}` }).then(
        async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }),
      ),
      await alice.get("/no-such-page-<script>alert(1)</script>"),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.text).not.toContain("<script>");
      expect(answer.text).not.toContain("x-evil");
    }
  });
});

describe("the web page: editing, history and undo", () => {
  it("saves a section edit through /memory edit's checks, journalled as you on the web; over the cap shows the error and changes nothing", async () => {
    const web = await startPage();
    await writeMemory(web.setup, ALICE, "USER.md", "## Home\n- Lives in Paris\n\n## Likes\n- tea\n");
    const alice = await web.signedIn(ALICE);
    const editor = await alice.get("/memory/user");
    const token = csrfOf(editor.text);
    const shown = /name="shown" value="([0-9a-f]{16})"/.exec(editor.text)![1]!;
    const saved = await alice.post("/memory/user", {
      _csrf: token,
      shown,
      sections: "2",
      name_0: "Home",
      body_0: "- Lives in Berlin (since 2026-11-26)",
      name_1: "Likes",
      body_1: "- tea",
      name_new: "Work",
      body_new: "- writes software",
    });
    expect(saved).toMatchObject({ status: 303, location: "/memory/user?saved=1" });
    const text = await web.setup.engine.memoryOf(ALICE).file("user").read();
    expect(text).toBe("## Home\n- Lives in Berlin (since 2026-11-26)\n\n## Likes\n- tea\n\n## Work\n- writes software\n");
    const history = await alice.get("/history");
    expect(history.text).toContain("you, on the web");
    expect(history.text).toContain("<del");
    expect(history.text).toContain("Lives in Paris");

    // Over the cap: the page says so, keeps the typed text, and the file is as it was.
    const again = await alice.get("/memory/user");
    const big = "x".repeat(5_000);
    const refused = await alice.post("/memory/user", {
      _csrf: csrfOf(again.text),
      shown: /name="shown" value="([0-9a-f]{16})"/.exec(again.text)![1]!,
      sections: "3",
      name_0: "Home",
      body_0: big,
      name_1: "Likes",
      body_1: "- tea",
      name_2: "Work",
      body_2: "- writes software",
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/USER\.md is full|over|cap/i);
    expect(refused.text).toContain(big);
    expect(await web.setup.engine.memoryOf(ALICE).file("user").read()).toBe(text);

    // A section name the tools would refuse.
    const bad = await alice.post("/memory/user", {
      _csrf: csrfOf(again.text),
      shown: /name="shown" value="([0-9a-f]{16})"/.exec(again.text)![1]!,
      sections: "0",
      name_new: "# injected\nline",
      body_new: "x",
    });
    expect(bad.status).toBe(422);
    expect(await web.setup.engine.memoryOf(ALICE).file("user").read()).toBe(text);
  });

  it("renames and removes sections, and warns (but saves) when an edit looks like it holds a secret", async () => {
    const web = await startPage();
    await writeMemory(web.setup, ALICE, "MEMORY.md", "## Plans\n- trip to Lyon\n\n## Old\n- stale note\n");
    const alice = await web.signedIn(ALICE);
    const form = async () => {
      const page = await alice.get("/memory/memory");
      return { _csrf: csrfOf(page.text), shown: /name="shown" value="([0-9a-f]{16})"/.exec(page.text)![1]! };
    };
    const renamed = await alice.post("/memory/memory", {
      ...(await form()),
      sections: "2",
      name_0: "Travel",
      body_0: "- trip to Lyon",
      name_1: "Old",
      body_1: "- stale note",
      remove_1: "on",
    });
    expect(renamed.status).toBe(303);
    expect(await web.setup.engine.memoryOf(ALICE).file("memory").read()).toBe("## Travel\n- trip to Lyon\n");
    const secret = await alice.post("/memory/memory", {
      ...(await form()),
      sections: "1",
      name_0: "Travel",
      body_0: "- trip to Lyon\n- wifi password: hunter2hunter2",
    });
    expect(secret.status).toBe(200);
    expect(secret.text).toContain("This looks like");
    expect(await web.setup.engine.memoryOf(ALICE).file("memory").read()).toContain("hunter2hunter2");
  });

  it("undoes a change from History, and a conflicting undo offers Undo these too like Discord", async () => {
    const web = await startPage();
    const memory = web.setup.engine.memoryOf(ALICE);
    const model = { level: "tool" as const, by: { kind: "model" as const, session: "s1", title: "tea talk" } };
    expect((await memory.file("user").add("Likes", "green tea", model)).ok).toBe(true);
    const first = (await memory.history())[0]!;
    expect((await memory.file("user").replace("Likes", "green tea", "oolong", model)).ok).toBe(true);
    const alice = await web.signedIn(ALICE);
    const page = await alice.get("/history");
    const undo = await alice.post(`/history/${first.id}/undo`, { _csrf: csrfOf(page.text) });
    expect(undo.status).toBe(409);
    expect(undo.text).toContain("Undo these too");
    expect(await memory.file("user").read()).toContain("oolong");
    const chained = await alice.post(`/history/${first.id}/undo`, { _csrf: csrfOf(undo.text), chain: "1" });
    expect(chained.status).toBe(200);
    expect(chained.text).toContain("Undone");
    expect(await memory.file("user").read()).toBe("");
  });

  it("filters history by file and by who", async () => {
    const web = await startPage();
    const memory = web.setup.engine.memoryOf(ALICE);
    const model = { level: "tool" as const, by: { kind: "model" as const, session: "s1", title: "tea talk" } };
    await memory.file("user").add("Likes", "green tea", model);
    await memory.file("memory").add("Plans", "ask about the trip", { level: "person", by: { kind: "person" } });
    const alice = await web.signedIn(ALICE);
    const mine = await alice.get("/history?who=you");
    expect(mine.text).toContain("ask about the trip");
    expect(mine.text).not.toContain("green tea");
    const user = await alice.get("/history?file=USER.md");
    expect(user.text).toContain("green tea");
    expect(user.text).not.toContain("ask about the trip");
  });
});

describe("the web page: conversations, search and settings", () => {
  it("lists, reads, searches and deletes a conversation (the file, its index rows and its stored session go)", async () => {
    const web = await startPage();
    const name = "2026-11-20-tea-talk-cccc3333.md";
    await writeMemory(
      web.setup,
      ALICE,
      `conversations/${name}`,
      '# tea talk\n\n- place: the Discord thread "tea talk"\n- opened: 2026-11-20 10:00 (UTC)\n- closed: 2026-11-20 10:30 (UTC)\n- session: s-1\n- discord: 800\n\n## 🧑 Alice\nI **love** kestrel oolong\n\n## 🤖 Assistant\nNoted!\n',
    );
    // The stored session that was archived into this file, and another that was not.
    const archived = await web.setup.engine.open({ ...aliceInThread, userId: ALICE });
    // After the engine's own first save, which runs in the background.
    await web.setup.engine.settle();
    await web.setup.store.save({ ...archived, conversationFile: name });
    const other = await web.setup.engine.open({ ...aliceInThread, userId: ALICE, place: { ...aliceInThread.place, channelId: "901" } });
    // Its first save runs in the background too: on a busy machine it may not have happened yet.
    await web.setup.engine.settle();
    expect(await web.setup.store.sessionsOf(ALICE)).toEqual(expect.arrayContaining([archived.id, other.id]));
    const alice = await web.signedIn(ALICE);
    const list = await alice.get("/conversations");
    expect(list.text).toContain("tea talk");
    const read = await alice.get(`/conversations/${name}`);
    expect(read.text).toContain("<strong>love</strong>");
    const found = await alice.get("/search?q=kestrel");
    expect(found.text).toContain(`/conversations/${name}#m0`);
    const dated = await alice.get("/search?q=kestrel&since=2026-12");
    expect(dated.text).toContain("Nothing found");
    const wrong = await alice.get("/search?q=kestrel&since=yesterday");
    expect(wrong.text).toContain("is not a date");
    const confirm = await alice.get(`/conversations/${name}/delete`);
    const deleted = await alice.post(`/conversations/${name}/delete`, { _csrf: csrfOf(confirm.text) });
    expect(deleted).toMatchObject({ status: 303, location: "/conversations?deleted=1" });
    expect(await web.setup.engine.memoryOf(ALICE).hasConversation(name)).toBe(false);
    expect((await alice.get("/search?q=kestrel")).text).not.toContain(name);
    const left = await web.setup.store.sessionsOf(ALICE);
    expect(left).not.toContain(archived.id);
    expect(left).toContain(other.id);
  });

  it("saves settings, refuses an unknown time zone with one line, exports, and imports with a preview first", async () => {
    const web = await startPage();
    await writeMemory(web.setup, ALICE, "USER.md", "## Home\n- Paris\n");
    const alice = await web.signedIn(ALICE);
    const settings = await alice.get("/settings");
    const token = csrfOf(settings.text);
    const badZone = await alice.post("/settings", {
      _csrf: token,
      askBeforeSaving: "off",
      tidyUp: "on",
      tidyNotice: "reply",
      timezone: "Mars/Olympus",
      locale: "",
    });
    expect(badZone.status).toBe(422);
    expect(badZone.text).toContain("is not a time zone name");
    const saved = await alice.post("/settings", {
      _csrf: token,
      askBeforeSaving: "profile",
      tidyUp: "ask",
      tidyNotice: "dm",
      timezone: "Asia/Shanghai",
      locale: "zh-CN",
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("已保存");
    expect(web.setup.engine.memoryOf(ALICE).readSettings()).toMatchObject({
      askBeforeSaving: "profile",
      tidyUp: "ask",
      tidyNotice: "dm",
      timezone: "Asia/Shanghai",
      locale: "zh-CN",
    });

    const exported = await alice.get("/export");
    expect(exported.headers.get("content-disposition")).toContain("agentkit-memory.json");
    const bundle = JSON.parse(exported.text) as { format: string; files: Record<string, string> };
    expect(bundle.format).toBe("agentkit-memory");
    expect(bundle.files["USER.md"]).toContain("Paris");

    // Changed after the export, then the export imported: a preview, then the file as it was.
    await writeMemory(web.setup, ALICE, "USER.md", "## Home\n- Berlin\n");
    const form = new FormData();
    form.append("file", new Blob([exported.text], { type: "application/json" }), "agentkit-memory.json");
    const preview = await alice.request("POST", `/import?_csrf=${encodeURIComponent(csrfOf((await alice.get("/settings")).text))}`, form);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("USER.md");
    expect(await readFile(join(web.setup.home, "users", ALICE, "USER.md"), "utf8")).toContain("Berlin");
    const action = /action="(\/import\/[^"]+)"/.exec(preview.text)![1]!;
    const done = await alice.post(action, { _csrf: csrfOf(preview.text), answer: "import" });
    expect(done.status).toBe(200);
    expect(await readFile(join(web.setup.home, "users", ALICE, "USER.md"), "utf8")).toContain("Paris");
    // The same preview cannot be imported twice.
    expect((await alice.post(action, { _csrf: csrfOf(preview.text), answer: "import" })).status).toBe(410);

    // A file that is not an export: one line, nothing changed.
    const junk = new FormData();
    junk.append("file", new Blob(["{not json"], { type: "application/json" }), "agentkit-memory.json");
    const refused = await alice.request("POST", `/import?_csrf=${encodeURIComponent(csrfOf((await alice.get("/settings")).text))}`, junk);
    expect(refused.status).toBe(422);
  });

  it("deletes everything only with DELETE typed, and signs the person out", async () => {
    const web = await startPage();
    await writeMemory(web.setup, ALICE, "USER.md", "## Home\n- Paris\n");
    const alice = await web.signedIn(ALICE);
    const token = csrfOf((await alice.get("/settings")).text);
    expect((await alice.post("/delete-all", { _csrf: token, confirm: "delete" })).status).toBe(422);
    expect(await web.setup.engine.memoryOf(ALICE).file("user").read()).toContain("Paris");
    const gone = await alice.post("/delete-all", { _csrf: token, confirm: "DELETE" });
    expect(gone.status).toBe(200);
    expect(await web.setup.engine.memoryOf(ALICE).file("user").read()).toBe("");
    expect((await alice.get("/")).text).not.toContain("Sign out");
  });

  it("speaks the person's language, else the browser's", async () => {
    const web = await startPage();
    const visitor = new WebClient(web.base);
    expect((await visitor.get("/", { "accept-language": "zh-CN,zh;q=0.9" })).text).toContain("用 Discord 登录".slice(0, 0) + "你的记忆");
    const alice = await web.signedIn(ALICE);
    expect((await alice.get("/", { "accept-language": "zh-CN" })).text).toContain("最近的改动");
    await web.setup.engine.memoryOf(ALICE).saveSettings({ locale: "en-US" });
    expect((await alice.get("/", { "accept-language": "zh-CN" })).text).toContain("Last changes");
  });
});

describe("the web page: names and addresses as the other front ends have them", () => {
  it("answers /memory/daily (the name Discord and the CLI use) and /memory/today alike; a wrong address keeps the navigation when signed in; the tab has an icon", async () => {
    const web = await startPage();
    await web.setup.engine.memoryOf(ALICE).daily(new Date().toISOString().slice(0, 10)).write("## 10:00 · tea\nTalked about tea.\n", PERSON);
    const alice = await web.signedIn(ALICE);
    for (const path of ["/memory/daily", "/memory/today"]) {
      const answer = await alice.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).toContain("Talked about tea.");
      expect(answer.text, path).toContain('href="/memory/daily" aria-current="page"');
    }
    expect((await alice.get("/")).text).toContain('href="/memory/daily"');
    expect((await alice.get("/memory/daily")).text).toContain("🌐 after an entry&#39;s title: it comes from a public thread");
    const missing = await alice.get("/memory/weekly");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("There is no such page.");
    expect(missing.text).toContain("Sign out");
    expect(missing.text).toContain('href="/conversations"');
    // A stranger's 404 has no navigation to offer.
    const stranger = await new WebClient(web.base).get("/nowhere");
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain("Sign out");
    const icon = /<link rel="icon" href="(\/assets\/icon\.[0-9a-f]{10}\.svg)" type="image\/svg\+xml">/.exec(missing.text)![1]!;
    const ico = await alice.get("/favicon.ico");
    expect(ico).toMatchObject({ status: 301, location: icon });
    const svg = await fetch(`${web.base}${icon}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(await svg.text()).toMatch(/^<svg /);
  });
});

describe("the web page: private sections, as Discord marks them", () => {
  it("shows 🔒 on a private section of USER.md and turns privacy on and off with the section's box, the text untouched", async () => {
    const web = await startPage();
    await writeMemory(web.setup, ALICE, "USER.md", "## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n");
    await web.setup.engine.memoryOf(ALICE).markPrivate("Health", true);
    const alice = await web.signedIn(ALICE);
    const shown = await alice.get("/memory/user");
    expect(shown.text).toContain("<legend>🔒 Health</legend>");
    expect(shown.text).toContain('<input type="checkbox" name="private_1" checked> 🔒 Private: kept out of public threads');
    expect(shown.text).toContain('<input type="checkbox" name="private_0"> 🔒 Private');
    const hash = /name="shown" value="([0-9a-f]{16})"/.exec(shown.text)![1]!;
    // A form from before the boxes (or any client without them) changes no section's privacy.
    const bare = {
      _csrf: csrfOf(shown.text),
      shown: hash,
      sections: "2",
      preamble: "",
      name_0: "Likes",
      body_0: "- oolong",
      name_1: "Health",
      body_1: "- allergic to kestrelnuts",
      name_new: "",
      body_new: "",
    };
    expect(await alice.post("/memory/user", bare)).toMatchObject({ status: 303 });
    expect(web.setup.engine.memoryOf(ALICE).readSettings().privateSections).toEqual(["health"]);
    const form = { ...bare, shown_private_0: "0", private_0: "on", shown_private_1: "1" };
    expect(await alice.post("/memory/user", form)).toMatchObject({ status: 303 });
    expect(web.setup.engine.memoryOf(ALICE).readSettings().privateSections).toEqual(["likes"]);
    expect(await readFile(join(web.setup.home, "users", ALICE, "USER.md"), "utf8")).toBe("## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n");
    const after = await alice.get("/memory/user");
    expect(after.text).toContain("<legend>🔒 Likes</legend>");
    expect(after.text).toContain("<legend>Health</legend>");
    // SOUL.md has no private sections: no box.
    expect((await alice.get("/memory/soul")).text).not.toContain("private_0");
  });
});

describe("the web page: storage quota", () => {
  it("shows the usage on the overview, and refuses an import past the quota with the usage and what to delete", async () => {
    const web = await startPage({ setup: await setupEngine({ quotaBytes: 50_000 }) });
    await writeMemory(web.setup, ALICE, "conversations/2026-11-01-long-talk-aaaaaaaa.md", `# long talk\n\n## 🧑 Alice\n${"tea and cake\n".repeat(4_600)}`);
    const alice = await web.signedIn(ALICE);
    const overview = await alice.get("/");
    expect(overview.text).toContain(
      '<p id="storage">Storage: 60 KB of 50 KB ⚠️ full: imports, new conversations and files are not kept; delete conversations you no longer need.</p>',
    );
    const form = new FormData();
    form.append("file", new Blob(["## Likes\n- tea\n"], { type: "text/markdown" }), "USER.md");
    const refused = await alice.request("POST", `/import?_csrf=${encodeURIComponent(csrfOf((await alice.get("/settings")).text))}`, form);
    expect(refused.status).toBe(413);
    expect(refused.text).toContain("USER.md was not imported. Your memory here is full: it uses 60 KB of its 50 KB, and this would add 1 KB.");
    expect(await readFile(join(web.setup.home, "users", ALICE, "USER.md"), "utf8").catch(() => "none")).toBe("none");
    // Room made on the Conversations page: the overview says so at once.
    await rm(join(web.setup.home, "users", ALICE, "conversations", "2026-11-01-long-talk-aaaaaaaa.md"));
    expect((await alice.get("/")).text).toMatch(/<p id="storage">Storage: \d+ KB of 50 KB<\/p>/);
  });
});

describe("the web page: hostile input", () => {
  it("keeps a page of history quick when an entry changes many long sections completely (imports of long logs)", async () => {
    const web = await startPage();
    const memory = web.setup.engine.memoryOf(ALICE);
    // 28 archived logs of 5,000 lines each, imported, then imported again with every line different.
    const files = (fill: string) =>
      Array.from({ length: 28 }, (_, i) => ({
        label: `daily/archive/2025-02-${String(i + 1).padStart(2, "0")}.md`,
        text: `## Day\n${`${fill}${i}\n`.repeat(5_000)}`,
      }));
    await memory.commit({ kind: "person" }, "import", files("a"));
    await memory.commit({ kind: "person" }, "import", files("b"));
    const alice = await web.signedIn(ALICE);
    const started = performance.now();
    const history = await alice.get("/history");
    expect(history.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(history.text).toContain("more sections");
  });

  it("renders a conversation of a megabyte of markdown link openers quickly, the text shown as text", async () => {
    const web = await startPage();
    const name = "2026-11-22-brackets-eeee5555.md";
    const line = "![".repeat(9_000);
    await writeMemory(web.setup, ALICE, `conversations/${name}`, `# brackets\n\n- place: DM\n\n## 🧑 Alice\n${`${line}\n`.repeat(55)}`);
    const alice = await web.signedIn(ALICE);
    const started = performance.now();
    const page = await alice.get(`/conversations/${name}`);
    expect(page.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(page.text).toContain("<pre>");
  });

  it("answers 404 to an import token that is a path, and to a file kind that is an inherited property; the other person's upload stays", async () => {
    const web = await startPage();
    const bobPending = join(web.setup.home, "users", BOB, "pending");
    await mkdir(bobPending, { recursive: true });
    await writeFile(join(bobPending, "import-deadbeefcafe.upload"), "bob's upload");
    const alice = await web.signedIn(ALICE);
    const token = csrfOf((await alice.get("/settings")).text);
    const traversal = await alice.post(`/import/${encodeURIComponent(`/../../../${BOB}/pending/import-deadbeefcafe`)}`, { _csrf: token, answer: "cancel" });
    expect([404, 410, 200]).toContain(traversal.status);
    expect(await readFile(join(bobPending, "import-deadbeefcafe.upload"), "utf8")).toBe("bob's upload");
    for (const kind of ["constructor", "__proto__", "toString"]) expect((await alice.get(`/memory/${kind}`)).status, kind).toBe(404);
  });

  it("refuses a form of nearly a megabyte of blank lines and line breaks quickly, and a larger one before reading it", async () => {
    const web = await startPage();
    const alice = await web.signedIn(ALICE);
    const page = await alice.get("/memory/user");
    const fields = { _csrf: csrfOf(page.text), shown: /name="shown" value="([0-9a-f]{16})"/.exec(page.text)![1]!, sections: "0", name_new: "Worst" };
    const started = performance.now();
    const refused = await alice.post("/memory/user", {
      ...fields,
      body_new: `a${"\r\n \n".repeat(40_000)}x${"\r\n \n".repeat(40_000)}b`,
      preamble: "\n\n\n \t".repeat(8_000),
    });
    expect(refused.status).toBe(422);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await alice.post("/memory/user", { ...fields, body_new: "x".repeat(1_100_000) })).status).toBe(413);
    expect(await web.setup.engine.memoryOf(ALICE).file("user").read()).toBe("");
  });

  it("limits what one person may ask for in a minute, per person", async () => {
    const web = await startPage();
    const alice = await web.signedIn(ALICE);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await alice.get("/export")).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another person is not held up by it.
    const bob = await web.signedIn(BOB);
    expect((await bob.get("/export")).status).toBe(200);
  });

  it("says whose memory a link opens, and warns before it switches accounts", async () => {
    const web = await startPage();
    const alice = await web.signedIn(ALICE);
    const page = await alice.get(`/auth/link/${mintSignInToken(web.secret, BOB)}`);
    expect(page.text).toContain(`Discord account ${BOB}`);
    expect(page.text).toContain(`signed in here as another account (${ALICE})`);
  });

  it("ends a sign-in a week after it began, however often it is used, and does not renew the cookie", async () => {
    let now = Date.now();
    const web = await startPage({ now: () => new Date(now) });
    const alice = await web.signedIn(ALICE);
    expect((await alice.get("/settings")).status).toBe(200);
    // The first page after signing in makes the forms' secret; later pages change nothing.
    const cookies = alice.setCookies.length;
    expect((await alice.get("/settings")).status).toBe(200);
    expect((await alice.get("/")).status).toBe(200);
    expect(alice.setCookies.length).toBe(cookies);
    now += 7 * 24 * 3_600_000 + 1_000;
    expect((await alice.get("/settings")).status).toBe(401);
  });
});
