import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI } from "../fakes/fake-openai.js";
import { botMessages } from "../helpers/bot-harness.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { cleanCopy } from "../helpers/clean-copy.js";

const closers: (() => Promise<void>)[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The whole group has ended already.
    }
  }
  for (const close of closers.splice(0)) await close();
});

/** Waits for a step, failing with what was being waited for and what the command printed. */
async function within<T>(work: Promise<T>, ms: number, what: string, output: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms\n${output()}`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Fills `KEY=` lines of a .env as a person does in an editor: the line stays where it is. */
function fillIn(env: string, values: Record<string, string>): string {
  let filled = env;
  for (const [key, value] of Object.entries(values)) {
    const line = new RegExp(`^${key}=.*$`, "m");
    expect(filled, `.env.example has a ${key}= line`).toMatch(line);
    filled = filled.replace(line, `${key}=${value}`);
  }
  return filled;
}

/** An npm command as a person types it: only PATH and HOME from the shell, everything else from .env. */
function npm(dir: string, home: string, args: string[]) {
  // Its own process group, like a shell's job: Ctrl+C reaches npm and the node process it starts.
  const child = spawn("npm", args, { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: home }, stdio: ["pipe", "pipe", "pipe"], detached: true });
  children.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe("a newcomer's first hour (README set-up, .env copied from .env.example)", () => {
  it("registers the commands, starts the bot, chats in the terminal and finds it from the CLI", async () => {
    const discord = await startFakeDiscord();
    const model = await startFakeOpenAI();
    closers.push(
      () => discord.close(),
      () => model.close(),
    );
    model.setFallback((req) => (req.body.tools ? { text: "Hello! Oolong it is." } : { text: "They talked about oolong tea." }));
    const dir = await makeTempHome();
    // The shell's home: AGENTKIT_HOME stays empty in .env, so memory goes to ~/.agentkit as the README says.
    const home = await makeTempHome();
    await cleanCopy(dir);

    // README step 4: copy .env.example to .env and fill in the Discord values and the model.
    // DISCORD_API_URL and OPENAI_BASE_URL point at the fakes instead of discord.com and a model server.
    const example = await readFile(join(dir, ".env.example"), "utf8");
    await writeFile(
      join(dir, ".env"),
      fillIn(example, {
        DISCORD_TOKEN: discord.token,
        DISCORD_CLIENT_ID: discord.applicationId,
        DISCORD_API_URL: discord.apiUrl,
        OPENAI_BASE_URL: model.baseURL,
      }),
    );

    // README step 5. The first npm run compiles src/ (about 10 s alone; two suites at once on two cores took over 60).
    const deploy = npm(dir, home, ["run", "deploy-commands"]);
    expect(await within(deploy.exited, 120_000, "npm run deploy-commands", deploy.output), deploy.output()).toBe(0);
    expect(discord.commands.global.map((c) => c.name)).toEqual(["chat", "end", "onboard", "memory", "server-notes"]);

    // "Start the bot" (docs/operating.md).
    const bot = npm(dir, home, ["start"]);
    await discord.waitFor(() => discord.openGatewaySessions > 0 || bot.child.exitCode !== null, 90_000, "the bot to log in");
    expect(bot.child.exitCode, `npm start ended during start-up:\n${bot.output()}`).toBeNull();
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "I love oolong tea", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.startsWith("Hello! Oolong it is.")), 15_000, "the answer");
    discord.runSlashCommand({ userId: discord.alice.id, channelId: start.id, name: "end" });
    await discord.waitFor(() => discord.thread(start.id)?.archived, 15_000, "/end to archive the thread");
    const daily = join(home, ".agentkit/users", discord.alice.id, "daily");
    await discord.waitFor(() => existsSync(daily), 10_000, "the daily log");
    const [log] = await readdir(daily);
    expect(await readFile(join(daily, log!), "utf8")).toContain("They talked about oolong tea.");
    // Ctrl+C in the terminal that runs `npm start`.
    process.kill(-bot.child.pid!, "SIGINT");
    await within(bot.exited, 20_000, "npm start to stop on Ctrl+C", bot.output);

    // "Chat in the terminal" (docs/terminal.md), piped.
    const chat = npm(dir, home, ["run", "chat", "--", "--user", "42"]);
    chat.child.stdin.end("What tea do I like?\n/end\n");
    expect(await within(chat.exited, 60_000, "npm run chat", chat.output), chat.output()).toBe(0);
    expect(chat.output()).toContain("Hello! Oolong it is.");
    // npm start's build serves the chat too: no second compile.
    expect(chat.output()).not.toContain("compiling");
    expect(chat.output()).toContain("Conversation ended; its summary is in today's daily log.");

    // "Search a person's memory (operators)" (docs/operating.md).
    const search = npm(dir, home, ["run", "memory", "--", "search", "oolong", "--user", discord.alice.id]);
    expect(await within(search.exited, 60_000, "npm run memory -- search", search.output), search.output()).toBe(0);
    expect(search.output()).toContain("I love oolong tea");
  }, 240_000);
});
