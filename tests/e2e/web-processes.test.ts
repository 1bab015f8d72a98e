import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mintSignInToken, webSecret } from "../../src/sessions/web-sign-in.js";
import { startFakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI } from "../fakes/fake-openai.js";
import { runTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { freePort } from "../helpers/free-port.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { csrfOf, WebClient } from "../helpers/web-client.js";
import { botEnv } from "../helpers/bot-harness.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function pageAnswers(url: string): Promise<number> {
  return eventually(
    async () =>
      (await fetch(url).then(
        (r) => r.status,
        () => undefined,
      )) ?? false,
    20_000,
    `${url} to answer`,
  );
}

describe("where the web page runs", () => {
  it("npm run web serves it alone, over the bot's home and store: a link made with the home's key signs in and shows the memory there", async () => {
    const home = await makeTempHome();
    const port = await freePort();
    const web = runTsx("src/web.ts", [], { AGENTKIT_HOME: home, WEB_PORT: String(port), LOG_LEVEL: "info" });
    closers.push(async () => {
      if (web.child.exitCode === null) web.child.kill("SIGTERM");
      await web.exited;
    });
    expect(await pageAnswers(`http://127.0.0.1:${port}/`)).toBe(200);
    // It says what the bot needs to link here.
    expect(web.stdout()).toContain(
      `The web page is at http://127.0.0.1:${port}. For /memory web in Discord to link here, the bot's .env needs PUBLIC_URL=http://127.0.0.1:${port}`,
    );
    await mkdir(join(home, "users", "111"), { recursive: true });
    await writeFile(join(home, "users", "111", "USER.md"), "## Likes\n- oolong\n");
    // The bot's side: the same home's key, the link /memory web would give.
    const token = mintSignInToken(await webSecret(home), "111");
    const browser = new WebClient(`http://127.0.0.1:${port}`);
    const signed = await browser.post(`/auth/link/${token}`, { _csrf: csrfOf((await browser.get(`/auth/link/${token}`)).text) });
    expect(signed.status).toBe(303);
    expect((await browser.get("/memory/user")).text).toContain("oolong");
    web.child.kill("SIGTERM");
    expect(await web.exited).toBe(0);
  });

  it("npm run web without WEB_PORT says so in one line and exits 1", async () => {
    const home = await makeTempHome();
    const web = runTsx("src/web.ts", [], { AGENTKIT_HOME: home });
    expect(await web.exited).toBe(1);
    expect(web.stderr()).toContain("WEB_PORT: is required for npm run web");
  });

  it("with SHARD_COUNT the launcher serves it, once, and no shard does", async () => {
    const discord = await startFakeDiscord({ recommendedShards: 2 });
    const model = await startFakeOpenAI();
    closers.push(
      () => discord.close(),
      () => model.close(),
    );
    const home = await makeTempHome();
    const port = await freePort();
    const launcher = runTsx("src/index.ts", [], {
      ...botEnv(discord, model, home),
      LOG_LEVEL: "info",
      SHARD_COUNT: "auto",
      SHARD_SPAWN_DELAY_MS: "200",
      WEB_PORT: String(port),
    });
    closers.push(async () => {
      if (launcher.child.exitCode === null) launcher.child.kill("SIGTERM");
      await launcher.exited;
    });
    await discord.waitFor(() => launcher.stdout().includes('"msg":"all shards ready"'), 30_000, "every shard to be ready");
    expect(await pageAnswers(`http://127.0.0.1:${port}/`)).toBe(200);
    await discord.waitFor(() => launcher.stdout().includes('"msg":"web page ready"'), 10_000, "the page's ready line");
    expect(
      launcher
        .stdout()
        .split("\n")
        .filter((line) => line.includes('"msg":"web page ready"')),
    ).toHaveLength(1);
    expect(launcher.stdout()).not.toContain("EADDRINUSE");
  });
});
