import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { slashOption, startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { botMessages } from "../helpers/bot-harness.js";
import { cleanCopy } from "../helpers/clean-copy.js";
import { repoRoot } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { freePort } from "../helpers/free-port.js";
import { csrfOf, WebClient } from "../helpers/web-client.js";

/**
 * The README's commands, run as written: the quick start, "Try it in your terminal" and the web
 * page's recipe are read from README.md's code blocks and each line is given to `sh -c` in a copy of
 * the checkout, with only PATH and HOME from the shell (memory goes to $HOME/.agentkit, a temporary
 * AGENTKIT_HOME), against the fake Discord and the fake model servers. Three programs are
 * stand-ins, put first on PATH:
 * - `ollama`: `serve` runs the Ollama-shaped fake (tests/fakes/model-servers.ts) where Ollama
 *   listens, with the context OLLAMA_CONTEXT_LENGTH gives it; `pull` records the model.
 * - `npm ci` installs from the registry, which no test may reach: the copy's node_modules is linked
 *   from the checkout, where `.ci/run` has just run `npm ci`, and the stand-in checks with `npm ls`
 *   that it holds what package.json pins.
 * - `npm test` would run this suite inside one of its own tests: it is recorded, and the test
 *   checks that `.ci/run` runs it, as it is. Every other npm command is the real npm.
 * The ports the README names (11434, 8080) are used as written unless something on this machine
 * already listens there; only then the test puts a free port in their place.
 * The web recipe's last step saves the README's screenshot (docs/screenshots/demo-overview.png with
 * SCREENSHOTS=update, else $TMPDIR/agentkit-web-screenshots): one person's memory after the quick
 * start's first conversation.
 */

const README = readFileSync(join(repoRoot, "README.md"), "utf8");
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
const SHOTS = process.env.SCREENSHOTS === "update" ? join(repoRoot, "docs/screenshots") : join(tmpdir(), "agentkit-web-screenshots");

interface Block {
  lang: string;
  lines: string[];
}

/** Lines of a Markdown file with fenced code marked, so a `#` inside a block is not a heading. */
function markdownLines(text: string): { line: string; fenced: boolean }[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return { line, fenced: true };
    }
    return { line, fenced: fence !== undefined };
  });
}

/** The fenced blocks under a heading of README.md, up to the next heading of its level or higher. */
function blocksUnder(heading: string): Block[] {
  const lines = markdownLines(README);
  const start = lines.findIndex((l) => !l.fenced && l.line === heading);
  expect(start, `README.md has the heading ${heading}`).toBeGreaterThanOrEqual(0);
  const level = heading.indexOf(" ");
  const blocks: Block[] = [];
  let open: Block | undefined;
  for (const { line, fenced } of lines.slice(start + 1)) {
    const depth = /^(#+) /.exec(line)?.[1]?.length;
    if (!fenced && depth !== undefined && depth <= level) break;
    const marker = /^\s*```(\S*)/.exec(line);
    if (marker && !open) blocks.push((open = { lang: marker[1]!, lines: [] }));
    else if (marker) open = undefined;
    else if (open && line.trim() !== "") open.lines.push(line.trim());
  }
  return blocks;
}

const commandsUnder = (heading: string) =>
  blocksUnder(heading)
    .filter((b) => b.lang === "sh")
    .map((b) => b.lines);
const envLinesUnder = (heading: string) =>
  blocksUnder(heading)
    .filter((b) => b.lang === "dotenv")
    .flatMap((b) => b.lines);

/** Claims of a README port by a run of this file: `<tmpdir>/agentkit-readme-port-<port>.pid`, removed after it. */
const claims: string[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The port the README names, or a free one if something on this machine listens there already or
 * another run of this file (a second suite at once) has claimed it: both saw it free, and the second
 * to start its server would find it taken.
 */
async function portAsWritten(port: number): Promise<number> {
  const claim = join(tmpdir(), `agentkit-readme-port-${port}.pid`);
  const taken = await writeFile(claim, String(process.pid), { flag: "wx" }).then(
    () => false,
    async () => {
      const holder = Number(await readFile(claim, "utf8").catch(() => "0"));
      if (holder > 0 && holder !== process.pid && alive(holder)) return true;
      await writeFile(claim, String(process.pid)); // left by a run that died
      return false;
    },
  );
  if (taken) return freePort();
  claims.push(claim);
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => void freePort().then(resolve));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(port)));
  });
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    try {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The whole group has ended already.
    }
  }
});

let dir: string;
let home: string;
let bin: string;
let discord: FakeDiscord;
let model: FakeOpenAI;
let ports: { ollama: number; web: number };

/** A README line with the ports this run uses (the same line unless a port was taken). */
function asWritten(line: string): string {
  return line.replaceAll(":11434", `:${ports.ollama}`).replaceAll("8080", String(ports.web));
}

/** Runs one line of the README in the copy, as a shell does: its own process group (Ctrl+C reaches all of it). */
function shell(line: string, input?: string) {
  const child = spawn("sh", ["-c", asWritten(line)], {
    cwd: dir,
    env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: home },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  child.on("error", (error) => (output += `\n${error.message}`));
  if (input !== undefined) child.stdin.end(input);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, output: () => output, exited, line };
}
type Shell = ReturnType<typeof shell>;

/** Waits for a command to end, failing with what it printed. */
async function finishes(run: Shell, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${run.line}: not done in ${ms} ms\n${run.output()}`)), ms)));
  try {
    return await Promise.race([run.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Ctrl+C in the terminal that runs it. */
async function interrupt(run: Shell): Promise<void> {
  if (run.child.exitCode === null) process.kill(-run.child.pid!, "SIGINT");
  await finishes(run, 30_000);
}

/** Fills in `KEY=` lines of .env as a person does in an editor (the line stays where it is; a key .env lacks is added). */
async function setInEnv(lines: string[]): Promise<void> {
  let env = await readFile(join(dir, ".env"), "utf8");
  for (const line of lines.map(asWritten)) {
    const key = /^([A-Z_][A-Z0-9_]*)=/.exec(line)?.[1];
    expect(key, `an .env line: ${line}`).toBeDefined();
    const at = new RegExp(`^${key}=.*$`, "m");
    env = at.test(env) ? env.replace(at, () => line) : `${env.trimEnd()}\n${line}\n`;
  }
  await writeFile(join(dir, ".env"), env);
}

/** `npm start` until the bot is logged in to the fake Discord. */
async function startBot(): Promise<Shell> {
  await discord.waitFor(() => discord.openGatewaySessions === 0, 10_000, "the previous bot to log out");
  const bot = shell("npm start");
  await discord.waitFor(() => discord.openGatewaySessions > 0 || bot.child.exitCode !== null, 90_000, "the bot to log in");
  expect(bot.child.exitCode, `npm start ended during start-up:\n${bot.output()}`).toBeNull();
  return bot;
}

/** `/memory web` as Alice: the link in the answer. */
async function memoryWebLink(): Promise<string> {
  const call = discord.runSlashCommand({
    userId: discord.alice.id,
    channelId: discord.textChannel.id,
    name: "memory",
    options: [slashOption.subcommand("web")],
  });
  const answer = await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content !== undefined), 15_000, "/memory web to answer");
  return /<(\S+\/auth\/link\/[^>]+)>/.exec(answer.content!)?.[1] ?? expect.fail(`no link in ${answer.content}`);
}

const pageAnswers = (url: string) =>
  eventually(
    async () =>
      (await fetch(url).then(
        (r) => r.status,
        () => undefined,
      )) ?? false,
    30_000,
    `${url} to answer`,
  );

/** The stand-ins for `ollama` and for `npm ci` / `npm test` (see the comment at the top). */
async function standIns(state: string): Promise<void> {
  const realNpm = execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim();
  const loader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
  const url = (file: string) => JSON.stringify(pathToFileURL(join(repoRoot, file)).href);
  await writeFile(
    join(state, "ollama-serve.mjs"),
    `import { appendFileSync } from "node:fs";
import { startFakeOpenAI } from ${url("tests/fakes/fake-openai.ts")};
import { ollama } from ${url("tests/fakes/model-servers.ts")};
const mode = ollama({ contextTokens: Number(process.env.OLLAMA_CONTEXT_LENGTH || 4096) });
const server = await startFakeOpenAI({ port: ${ports.ollama}, server: mode });
server.setFallback((request) => {
  appendFileSync(${JSON.stringify(join(state, "requests"))}, JSON.stringify({ model: request.body.model, tools: (request.body.tools ?? []).length, truncated: mode.truncated ?? 0 }) + "\\n");
  return request.body.tools ? { text: "Hello from the terminal. Oolong it is." } : { text: "They talked about oolong tea in the terminal." };
});
console.log("Listening on 127.0.0.1:${ports.ollama}");
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
`,
  );
  await writeFile(
    join(bin, "ollama"),
    `#!/bin/sh
case "$1" in
  serve) exec '${process.execPath}' --import '${loader}' '${join(state, "ollama-serve.mjs")}' ;;
  pull) echo "$2" >> '${join(state, "pulled")}'; echo "pulling manifest"; echo success ;;
  *) echo "this test's ollama knows serve and pull" >&2; exit 2 ;;
esac
`,
  );
  await writeFile(
    join(bin, "npm"),
    `#!/bin/sh
case "$1" in
  ci) echo ci >> '${join(state, "npm")}'; exec '${realNpm}' ls --depth=0 >/dev/null ;;
  test) echo test >> '${join(state, "npm")}'; exit 0 ;;
esac
exec '${realNpm}' "$@"
`,
  );
  await chmod(join(bin, "ollama"), 0o755);
  await chmod(join(bin, "npm"), 0o755);
}

const lines = (text: string) => text.split("\n").filter(Boolean);

describe("the README's commands, run as written", () => {
  let state: string;
  beforeAll(async () => {
    ports = { ollama: await portAsWritten(11434), web: await portAsWritten(8080) };
    // One copy for the whole file, kept from test to test (a person's checkout): not makeTempHome, which goes after each test.
    const temporary = (name: string) => mkdtemp(join(tmpdir(), `agentkit-readme-${name}-`));
    [dir, home, state] = [await temporary("copy"), await temporary("home"), await temporary("state")];
    bin = join(state, "bin");
    await mkdir(bin);
    await cleanCopy(dir);
    await standIns(state);
    discord = await startFakeDiscord();
    model = await startFakeOpenAI();
  }, 60_000);
  afterAll(async () => {
    await discord?.close();
    await model?.close();
    await Promise.all(claims.splice(0).map((claim) => rm(claim, { force: true })));
    await Promise.all([dir, home, state].filter(Boolean).map((d) => rm(d, { recursive: true, force: true })));
  });

  // First, while the copy has no .env: the terminal needs no Discord application.
  it("Try it in your terminal: a local model server and npm run chat, three commands", async () => {
    const [commands, ...others] = commandsUnder("## Try it in your terminal");
    expect(others).toEqual([]);
    expect(commands).toHaveLength(3);
    expect(existsSync(join(dir, ".env"))).toBe(false);
    const [serveLine, pullLine, chatLine] = commands!;

    const serve = shell(serveLine!);
    await eventually(async () => serve.output().includes("Listening") || serve.child.exitCode !== null, 30_000, "ollama serve to listen");
    expect(serve.child.exitCode, serve.output()).toBeNull();
    // The second terminal.
    const pull = shell(pullLine!);
    expect(await finishes(pull, 10_000), pull.output()).toBe(0);

    const chat = shell(chatLine!, "I drink oolong tea\n/end\n");
    expect(await finishes(chat, 240_000), chat.output()).toBe(0);
    expect(chat.output()).toContain("Hello from the terminal. Oolong it is.");
    expect(chat.output()).toContain("Conversation ended; its summary is in today's daily log.");

    // Every request asked for the model pulled, with the memory tools, and none was cut to fit.
    const pulled = lines(await readFile(join(state, "pulled"), "utf8"));
    const requests = lines(await readFile(join(state, "requests"), "utf8")).map((l) => JSON.parse(l) as { model: string; tools: number; truncated: number });
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) expect(pulled).toContain(request.model);
    expect(requests[0]!.tools).toBeGreaterThan(0);
    expect(requests.at(-1)!.truncated).toBe(0);
    // The default AGENTKIT_HOME, ~/.agentkit; the default person, 1.
    const daily = join(home, ".agentkit/users/1/daily");
    const [log] = await readdir(daily);
    expect(await readFile(join(daily, log!), "utf8")).toContain("They talked about oolong tea in the terminal.");
    await interrupt(serve);
  }, 300_000);

  it("Quick start: .env from .env.example, the commands registered, the bot started; and the tests' command", async () => {
    const [start, tests, ...others] = commandsUnder("## Quick start");
    expect(others).toEqual([]);
    expect(start).toHaveLength(2);
    expect(tests).toHaveLength(1);

    const copy = shell(start![0]!);
    expect(await finishes(copy, 10_000), copy.output()).toBe(0);
    // "fill in DISCORD_TOKEN, DISCORD_CLIENT_ID and the model (step 4 below)"; DISCORD_API_URL
    // points at the fake Discord instead of discord.com.
    await setInEnv([
      `DISCORD_TOKEN=${discord.token}`,
      `DISCORD_CLIENT_ID=${discord.applicationId}`,
      `DISCORD_API_URL=${discord.apiUrl}`,
      `OPENAI_BASE_URL=${model.baseURL}`,
    ]);

    // The first conversation: what the web recipe's screenshot shows.
    model.setFallback((request) => {
      if (!request.body.tools) return { text: "Alice moved to Berlin and drinks oolong tea, no sugar." };
      if (request.body.messages.some((m) => m.role === "tool")) return { text: "Welcome to Berlin! Oolong, no sugar: noted." };
      return {
        toolCalls: [
          { name: "memory_add", arguments: { file: "user", section: "Home", content: "- moved to Berlin" } },
          { name: "memory_add", arguments: { file: "user", section: "Drinks", content: "- oolong tea, no sugar" } },
          { name: "memory_add", arguments: { file: "memory", section: "Follow up", content: "- ask how the move to Berlin went" } },
        ],
      };
    });

    const bot = shell(start![1]!);
    await discord.waitFor(() => discord.openGatewaySessions > 0 || bot.child.exitCode !== null, 150_000, "the bot to log in");
    expect(bot.child.exitCode, `the quick start ended during start-up:\n${bot.output()}`).toBeNull();
    expect(discord.commands.global.map((c) => c.name)).toEqual(["chat", "end", "onboard", "memory", "server-notes"]);
    discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "chat",
      options: [slashOption.string("topic", "moving to Berlin")],
    });
    const thread = await discord.waitFor(() => discord.threads.find((t) => t.name === "moving to Berlin"), 20_000, "/chat to open a thread");
    await discord.waitFor(() => botMessages(discord, thread.id)[0], 10_000, "the greeting");
    await discord.userSends({
      channelId: thread.id,
      userId: discord.alice.id,
      content: "My home is Berlin now, I just moved. And I drink oolong tea, no sugar.",
    });
    const answer = await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.startsWith("Welcome to Berlin!")), 20_000, "the answer");
    expect(answer.content).toContain("💾 saved to USER.md › Home, USER.md › Drinks, MEMORY.md › Follow up");
    discord.runSlashCommand({ userId: discord.alice.id, channelId: thread.id, name: "end" });
    await discord.waitFor(() => discord.thread(thread.id)?.archived, 20_000, "/end to archive the thread");
    const daily = join(home, ".agentkit/users", discord.alice.id, "daily");
    await discord.waitFor(() => existsSync(daily) && readdirSync(daily).length > 0, 10_000, "the daily log");
    const [log] = await readdir(daily);
    expect(await readFile(join(daily, log!), "utf8")).toContain("Alice moved to Berlin");
    await interrupt(bot);

    const test = shell(tests![0]!);
    expect(await finishes(test, 30_000), test.output()).toBe(0);
    expect(lines(await readFile(join(state, "npm"), "utf8")).slice(-2)).toEqual(["ci", "test"]);
    // What the stand-in does not run, CI runs as written.
    const ci = lines(await readFile(join(repoRoot, ".ci/run"), "utf8"));
    expect(ci).toContain("npm ci");
    expect(ci).toContain("npm test");
    expect(JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")).scripts.test).toBe("vitest run");
  }, 240_000);

  it("Your memory on the web: served by the bot, then on its own beside it; the README's screenshot", async () => {
    // "Turn it on": the two lines in .env, the bot restarted.
    const turnOn = envLinesUnder("### Turn it on");
    expect(turnOn.map((l) => l.split("=")[0])).toEqual(["WEB_PORT", "PUBLIC_URL"]);
    await setInEnv(turnOn);
    let bot = await startBot();
    const local = `http://127.0.0.1:${ports.web}`;
    expect(await pageAnswers(`${local}/`)).toBe(200);
    const publicLink = await memoryWebLink();
    const publicUrl = /^PUBLIC_URL=(\S+)/.exec(turnOn[1]!)![1]!;
    expect(publicLink.startsWith(`${publicUrl}/auth/link/`)).toBe(true);
    // Through the README's proxy: the same path, and X-Forwarded-Proto as nginx sets it.
    const browser = new WebClient(local);
    const path = new URL(publicLink).pathname;
    const proxied = { "x-forwarded-proto": "https" };
    const form = await browser.get(path, proxied);
    expect((await browser.request("POST", path, new URLSearchParams({ _csrf: csrfOf(form.text) }), proxied)).status).toBe(303);
    expect((await browser.get("/memory/user", proxied)).text).toContain("moved to Berlin");
    await interrupt(bot);

    // "Where it runs": the bot's .env names the page; the page runs alone.
    const [envLines, commands] = [envLinesUnder("### Where it runs"), commandsUnder("### Where it runs")];
    expect(envLines.map((l) => l.split("=")[0])).toEqual(["WEB_PORT", "PUBLIC_URL"]);
    expect(commands).toHaveLength(1);
    await setInEnv(envLines);
    bot = await startBot();
    expect(
      await fetch(`${local}/`).then(
        () => "served",
        () => "not served",
      ),
    ).toBe("not served");
    const page = shell(commands![0]![0]!);
    expect(await pageAnswers(`${local}/`)).toBe(200);
    await eventually(async () => page.output().includes(`PUBLIC_URL=${local}`), 10_000, "npm run web to name the PUBLIC_URL the bot needs");
    const link = await memoryWebLink();
    expect(link.startsWith(`${local}/auth/link/`)).toBe(true);

    // The README's screenshot: Alice's memory after the quick start's conversation.
    if (!CHROMIUM) throw new Error("Chromium is missing: apt-get install chromium (.ci/run does it)");
    const chrome = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    try {
      const tab = await (await chrome.newContext({ locale: "en-US", viewport: { width: 1100, height: 900 } })).newPage();
      await tab.goto(link);
      await tab.getByRole("button", { name: /Sign in/ }).click();
      await tab.waitForURL(`${local}/`);
      expect(await tab.textContent("body")).toContain("moved to Berlin");
      await mkdir(SHOTS, { recursive: true });
      await tab.screenshot({ path: join(SHOTS, "demo-overview.png") });
    } finally {
      await chrome.close();
    }
    await interrupt(page);
    await interrupt(bot);
  }, 240_000);
});

describe("README.md", () => {
  it("is a guide of at most 400 lines, and links to every file under docs/", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(400);
    const docs = readdirSync(join(repoRoot, "docs")).filter((f) => f.endsWith(".md"));
    for (const doc of docs) expect(README, `README.md links to docs/${doc}`).toContain(`](docs/${doc}`);
  });

  it("has no link to a file or a heading that is not there (README.md and docs/)", () => {
    const files = [
      "README.md",
      ...readdirSync(join(repoRoot, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(repoRoot, file), "utf8");
      const prose = markdownLines(text)
        .filter((l) => !l.fenced)
        .map((l) => l.line.replace(/`[^`]*`/g, ""))
        .join("\n");
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split("#");
        const resolved = path ? join(dirname(file), path) : file;
        if (!existsSync(join(repoRoot, resolved))) broken.push(`${file}: ${target} (no ${resolved})`);
        else if (anchor !== undefined && !anchorsOf(readFileSync(join(repoRoot, resolved), "utf8")).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** The anchors GitHub gives a Markdown file's headings. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { line, fenced } of markdownLines(text)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (fenced || heading === undefined) continue;
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}
