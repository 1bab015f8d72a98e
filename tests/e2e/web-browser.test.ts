import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { modelWriter, PERSON } from "../../src/memory/memory-file.js";
import { mintSignInToken, webSecret } from "../../src/sessions/web-sign-in.js";
import { buildWeb } from "../../src/web/server.js";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { aliceInThread, setupEngine, type EngineSetup } from "../helpers/engine.js";
import { freePort } from "../helpers/free-port.js";

/**
 * The web page in a real browser: Debian's Chromium (installed by .ci/run; nothing is downloaded
 * at test time) driven by playwright-core, against the page built over a real engine and the fake
 * Discord's Login with Discord. Screenshots of every page in English and Chinese are saved to
 * $TMPDIR/agentkit-web-screenshots, and to docs/screenshots with SCREENSHOTS=update (the README's).
 */
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
const SHOTS = process.env.SCREENSHOTS === "update" ? join(import.meta.dirname, "../../docs/screenshots") : join(tmpdir(), "agentkit-web-screenshots");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const ALICE = "111";
const BOB = "222";
const EVIL = "<img src=x onerror=alert(1)>";

let browser: Browser;
beforeAll(async () => {
  if (!CHROMIUM) throw new Error("Chromium is missing: apt-get install chromium (.ci/run does it)");
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
});
afterAll(async () => {
  await browser?.close();
});

const closing: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of closing.splice(0).reverse()) await thing.close();
});

interface Site {
  setup: EngineSetup;
  base: string;
  secret: string;
  discord: FakeDiscord;
  /** A fresh browser (its own cookies), every dialog recorded: a script that ran would show one. */
  browse(locale?: string): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }>;
  signIn(page: Page, userId: string): Promise<void>;
}

async function startSite(): Promise<Site> {
  const setup = await setupEngine();
  const discord = await startFakeDiscord();
  closing.push(discord);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const secret = await webSecret(setup.home);
  const app = await buildWeb({
    config: {
      publicUrl: base,
      oauth: { clientId: discord.applicationId, clientSecret: discord.oauth2.clientSecret, apiUrl: discord.apiUrl },
      // The bot's token: the servers page asks Discord who is a member.
      discord: { token: discord.token, clientId: discord.applicationId, guildId: undefined, apiUrl: discord.apiUrl },
    },
    engine: setup.engine,
    store: setup.store,
    log: silentLogger,
    secret,
  });
  await app.listen({ port, host: "127.0.0.1" });
  closing.push(app);
  discord.oauth2.redirectUris.add(`${base}/auth/callback`);
  return {
    setup,
    base,
    secret,
    discord,
    async browse(locale = "en-US") {
      const context = await browser.newContext({ baseURL: base, locale, viewport: { width: 1100, height: 900 } });
      closing.push(context);
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      return { context, page, dialogs };
    },
    async signIn(page, userId) {
      await page.goto(`/auth/link/${mintSignInToken(secret, userId)}`);
      await page.getByRole("button", { name: /Sign in|登录/ }).click();
      await page.waitForURL(`${base}/`);
    },
  };
}

async function seed(site: Site): Promise<void> {
  const memory = site.setup.engine.memoryOf(ALICE);
  const model = modelWriter("s-1", "tea talk");
  await memory.file("user").add("Home", "Lives in Paris", model);
  await memory.file("user").add("Likes", "green tea", model);
  await memory.file("user").add("Quirks", `writes ${EVIL} in notes`, model);
  await memory.file("memory").add("Plans", "Ask how the move went", model);
  const conversations = join(memory.dir, "conversations");
  await mkdir(conversations, { recursive: true });
  await writeFile(
    join(conversations, "2026-11-20-tea-talk-cccc3333.md"),
    `# tea talk\n\n- place: the Discord thread "tea talk"\n- opened: 2026-11-20 10:00 (UTC)\n- closed: 2026-11-20 10:30 (UTC)\n- session: s-1\n- discord: 800\n\n## 🧑 Alice\nI **love** kestrel oolong ${EVIL}\n\n## 🤖 Assistant\nNoted! [a link](javascript:alert(2))\n`,
  );
  // Alice talks in the fake's server, whose notes the servers page shows her.
  site.discord.addUser({ id: ALICE, username: "alice" });
  await site.setup.engine.serverNotesOf(site.discord.guild.id).notes.add("Events", "- Friday: board games in #lounge, 20:00\n- 周五：桌游之夜", PERSON);
  await writeFile(
    join(conversations, "2026-11-22-friday-plans-eeee5555.md"),
    `# friday plans\n\n- place: the public Discord thread "friday plans"\n- opened: 2026-11-22 18:00 (UTC)\n- closed: 2026-11-22 18:20 (UTC)\n- session: s-3\n- discord: ${site.discord.guild.id}\n- visibility: public\n\n## 🧑 Alice\nWhat is on Friday?\n\n## 🤖 Assistant\nBoard games in #lounge.\n`,
  );
  const bob = site.setup.engine.memoryOf(BOB);
  await mkdir(join(bob.dir, "conversations"), { recursive: true });
  await writeFile(
    join(bob.dir, "conversations", "2026-11-21-bob-plans-dddd4444.md"),
    "# bob plans\n\n- place: DM\n- discord: @me\n\n## 🧑 Bob\nthe vault code is 1234\n",
  );
  await bob.file("user").add("Secret", "Bob's hidden fact", modelWriter("s-2", "bob"));
}

const PAGES = [
  "/",
  "/memory/soul",
  "/memory/user",
  "/memory/memory",
  "/memory/today",
  "/history",
  "/conversations",
  "/conversations/2026-11-20-tea-talk-cccc3333.md",
  "/search?q=oolong",
  "/servers",
  "/settings",
];

async function axeFindings(page: Page): Promise<string[]> {
  // Through the DevTools protocol, not a <script>: the page's CSP allows no inline script and stays on.
  if (!(await page.evaluate("typeof window.axe !== 'undefined'"))) await page.evaluate(await readFile(AXE, "utf8"));
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe("the web page in a browser", () => {
  it("signs in with Discord (OAuth2 with PKCE through the fake Discord) and with a /memory web link; a used or expired link is refused", async () => {
    const site = await startSite();
    site.discord.oauth2.signedIn = site.discord.alice.id;
    const { page } = await site.browse();
    await page.goto("/");
    await page.getByRole("link", { name: "Sign in with Discord" }).click();
    await page.waitForURL(`${site.base}/`);
    expect(await page.locator("h1").textContent()).toBe("Your memory");
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(1);

    const link = `/auth/link/${mintSignInToken(site.secret, ALICE)}`;
    const first = await site.browse();
    await first.page.goto(link);
    await first.page.getByRole("button", { name: "Sign in" }).click();
    await first.page.waitForURL(`${site.base}/`);
    const second = await site.browse();
    // A used link says so as it opens: no Sign in button to press first.
    await second.page.goto(link);
    expect(await second.page.locator(".error").textContent()).toContain("was used already");
    expect(await second.page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
    const expired = await site.browse();
    await expired.page.goto(`/auth/link/${mintSignInToken(site.secret, ALICE, new Date(Date.now() - 11 * 60_000))}`);
    expect(await expired.page.locator(".error").textContent()).toContain("has expired");
  });

  it("counts in the editor what the overview and Discord count, for a file laid out by hand; the privacy box is not a removal; an edit shows what will be saved", async () => {
    const site = await startSite();
    await seed(site);
    const user = site.setup.engine.memoryOf(ALICE).file("user");
    // No blank line between sections, trailing spaces, two blank lines at the end: not the editor's own layout.
    await user.write("Intro\n## Likes\n- oolong  \n## Work\n- designer\n\n\n", PERSON);
    const { page } = await site.browse();
    await site.signIn(page, ALICE);
    await page.goto("/");
    const shownOnOverview = /(\d+)\/1400 chars/.exec((await page.locator("main").textContent()) ?? "")![1];
    await page.goto("/memory/user");
    const counter = page.locator("#counter");
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    expect(await counter.textContent()).toBe(`${shownOnOverview}/1400 characters`);
    await page.locator("input[name=private_0]").check();
    expect(await counter.textContent()).toBe(`${shownOnOverview}/1400 characters`);
    await page.locator("#body_1").fill("- designer in Lyon");
    const promised = await counter.textContent();
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/saved=1/);
    expect(promised).toBe(`${[...(await user.read())].length}/1400 characters`);
    expect(errors).toEqual([]);
  });

  it("edits a section by keyboard alone, with a live counter, and the next conversation's frozen prompt has it; a write over the cap shows the error and changes nothing", async () => {
    const site = await startSite();
    await seed(site);
    const { page } = await site.browse();
    await site.signIn(page, ALICE);
    await page.goto("/memory/user");
    const counter = page.locator("#counter");
    const before = await counter.textContent();
    // Keyboard only: focus moves with Tab to the first section's text, which is typed into, then to Save.
    await page.locator("#preamble").focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("body_0");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n- Moved to Berlin on 2026-11-26");
    expect(await counter.textContent()).not.toBe(before);
    await page.locator("#body_new").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Save");
    await page.keyboard.press("Enter");
    await page.waitForURL(/saved=1/);
    expect(await page.locator(".notice").textContent()).toContain("Saved");
    const record = await site.setup.engine.open({ ...aliceInThread, userId: ALICE });
    expect(record.systemPrompt).toContain("Moved to Berlin on 2026-11-26");

    const file = await site.setup.engine.memoryOf(ALICE).file("user").read();
    await page.locator("#body_new").fill("x".repeat(3_000));
    await page.locator("#name_new").fill("Too much");
    expect(await counter.getAttribute("class")).toContain("over");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.locator(".error").textContent()).toMatch(/full|cap/i);
    expect(await page.locator("#body_new").inputValue()).toHaveLength(3_000);
    expect(await site.setup.engine.memoryOf(ALICE).file("user").read()).toBe(file);
  });

  it("undoes a change from History, and a conflicting undo offers Undo these too", async () => {
    const site = await startSite();
    await seed(site);
    const memory = site.setup.engine.memoryOf(ALICE);
    await memory.file("user").replace("Likes", "green tea", "oolong", modelWriter("s-3", "tea again"));
    const { page } = await site.browse();
    await site.signIn(page, ALICE);
    await page.goto("/history?file=USER.md");
    expect(await page.locator(".diff del").first().textContent()).toContain("green tea");
    // The oldest change to Likes ("green tea" added) is in the way of the newer replace.
    const entries = page.locator("ol.entries > li");
    const likes = entries.filter({ hasText: "+ “green tea”" });
    await likes.getByRole("button", { name: "Undo" }).click();
    expect(await page.locator(".error").textContent()).toContain("changed since");
    await page.getByRole("button", { name: "Undo these too" }).click();
    expect(await page.locator(".notice").textContent()).toContain("Undone");
    expect(await memory.file("user").read()).not.toContain("Likes");
  });

  it("searches, reads and deletes a conversation; exports, then imports with a preview", async () => {
    const site = await startSite();
    await seed(site);
    const { page } = await site.browse();
    await site.signIn(page, ALICE);
    await page.goto("/search");
    await page.getByLabel("Words to look for").fill("kestrel");
    await page.getByRole("button", { name: "Search" }).click();
    await page
      .getByRole("link", { name: /conversation “tea talk”/ })
      .first()
      .click();
    await page.waitForURL(/#m0$/);
    expect(await page.locator("strong", { hasText: "love" }).count()).toBe(1);

    const download = page.waitForEvent("download");
    await page.goto("/settings");
    await page.getByRole("link", { name: /Download everything/ }).click();
    const saved = join(await (await import("node:fs/promises")).mkdtemp(join(tmpdir(), "agentkit-export-")), "agentkit-memory.json");
    await (await download).saveAs(saved);
    expect(JSON.parse(await readFile(saved, "utf8")).files["USER.md"]).toContain("Paris");
    // The export folder goes with the test, whatever happens below.
    onTestFinished(() => rm(dirname(saved), { recursive: true, force: true }));

    await page.goto("/conversations/2026-11-20-tea-talk-cccc3333.md");
    await page.getByRole("link", { name: "Delete this conversation…" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(/deleted=1/);
    expect(await page.locator("main").textContent()).not.toContain("tea talk");
    expect(await site.setup.engine.memoryOf(ALICE).hasConversation("2026-11-20-tea-talk-cccc3333.md")).toBe(false);

    await page.goto("/settings");
    await page.getByLabel(/An export/).setInputFiles(saved);
    await page.getByRole("button", { name: "Preview the import" }).click();
    expect(await page.locator("pre").textContent()).toContain("2026-11-20-tea-talk-cccc3333.md");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    expect(await page.locator(".notice").textContent()).toContain("Imported");
    expect(await site.setup.engine.memoryOf(ALICE).hasConversation("2026-11-20-tea-talk-cccc3333.md")).toBe(true);
  });

  it("gives 404 for another person's things and 403 for a POST without the CSRF token; memory text with markup shows as text and no script runs", async () => {
    const site = await startSite();
    await seed(site);
    const { page, context, dialogs } = await site.browse();
    await site.signIn(page, ALICE);
    for (const path of ["/conversations/2026-11-21-bob-plans-dddd4444.md", `/users/${BOB}`, "/memory/..%2F222"]) {
      expect((await page.goto(path))!.status(), path).toBe(404);
    }
    const bobEntry = (await site.setup.engine.memoryOf(BOB).history())[0]!;
    await page.goto("/history");
    const token = await page.locator("input[name=_csrf]").first().inputValue();
    expect((await context.request.post(`/history/${bobEntry.id}/undo`, { form: { _csrf: token } })).status()).toBe(404);
    expect((await context.request.post("/memory/user", { form: { sections: "0", shown: "0000000000000000", name_new: "X", body_new: "y" } })).status()).toBe(
      403,
    );
    expect(await site.setup.engine.memoryOf(BOB).file("user").read()).toContain("Bob's hidden fact");

    for (const path of ["/memory/user", "/history", "/conversations/2026-11-20-tea-talk-cccc3333.md", "/search?q=onerror"]) {
      await page.goto(path);
      expect(await page.locator("img").count(), path).toBe(0);
      expect(await page.locator("main").textContent(), path).toContain("<img src=x onerror=alert(1)>");
    }
    expect(await page.locator("a[href^='javascript']").count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it("has no serious or critical accessibility findings on any page, in English and Chinese, and saves a screenshot of each", async () => {
    const site = await startSite();
    await seed(site);
    await mkdir(SHOTS, { recursive: true });
    const findings: string[] = [];
    for (const [lang, locale] of [
      ["en", "en-US"],
      ["zh", "zh-CN"],
    ] as const) {
      await site.setup.engine.memoryOf(ALICE).saveSettings({ locale });
      const { page } = await site.browse(locale);
      await page.goto("/");
      findings.push(...(await axeFindings(page)).map((f) => `${lang} sign-in: ${f}`));
      await page.screenshot({ path: join(SHOTS, `${lang}-sign-in.png`), fullPage: true });
      await site.signIn(page, ALICE);
      for (const path of PAGES) {
        await page.goto(path);
        findings.push(...(await axeFindings(page)).map((f) => `${lang} ${path}: ${f}`));
        const name =
          path === "/"
            ? "overview"
            : path
                .slice(1)
                .replace(/[/?=.]+/g, "-")
                .replace(/-md$/, "");
        await page.screenshot({ path: join(SHOTS, `${lang}-${name}.png`), fullPage: true });
      }
      // A phone: the page is usable at 390 px wide (nothing wider than the screen).
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/memory/user");
      expect((await page.evaluate("document.documentElement.scrollWidth")) as number).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SHOTS, `${lang}-phone-memory-user.png`), fullPage: true });
    }
    expect(findings).toEqual([]);
    for (const lang of ["en", "zh"]) expect((await stat(join(SHOTS, `${lang}-overview.png`))).size).toBeGreaterThan(5_000);
    // Two languages of every page, each checked by axe and photographed whole: a minute on a loaded machine.
  }, 90_000);
});
