import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmod, lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { registerCommands } from "../../src/discord/register-commands.js";
import { componentsOf, slashOption as s, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { OUTSIDE_CHECKOUT, tsxArgv } from "../helpers/outside-checkout.js";
import { startFakes } from "../helpers/fakes.js";
import { startFakeOpenAI } from "../fakes/fake-openai.js";

const closers: (() => Promise<void>)[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const close of closers.splice(0).reverse()) await close();
});

/** Runs an entry point under tsx with the shell's umask set first: `umask 000` makes every file world-writable unless the program says otherwise. */
function runUnderUmask(umask: string, script: string, args: string[], env: Record<string, string>, input?: string) {
  const child = spawn("/bin/sh", ["-c", `umask ${umask} && exec "$@"`, "sh", process.execPath, ...tsxArgv(script, args)], {
    cwd: OUTSIDE_CHECKOUT,
    // HOME is not AGENTKIT_HOME: the bot leaves a data folder that is the OS user's home alone.
    env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  if (input !== undefined) child.stdin.end(input);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

interface Entry {
  path: string;
  kind: "dir" | "file" | "link";
  mode: number;
}

/** Every path under `root`, itself included, with its permission bits; symbolic links are not followed. */
async function walk(root: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const visit = async (path: string): Promise<void> => {
    const info = await lstat(path).catch(() => undefined);
    // A file can vanish between listing and lstat (a temp file renamed, a lock released).
    if (!info) return;
    const kind = info.isSymbolicLink() ? "link" : info.isDirectory() ? "dir" : "file";
    entries.push({ path: relative(root, path) || ".", kind, mode: info.mode & 0o777 });
    if (kind === "dir") for (const name of await readdir(path).catch(() => [])) await visit(join(path, name));
  };
  await visit(root);
  return entries;
}

/** The paths whose mode is not 0700 (folders) or 0600 (files), as "path 0755", so a failure names them. */
const notPrivate = (entries: Entry[]) =>
  entries
    .filter((e) => (e.kind === "dir" && e.mode !== 0o700) || (e.kind === "file" && e.mode !== 0o600))
    .map((e) => `${e.path} ${e.mode.toString(8).padStart(4, "0")}`);

describe("everything under AGENTKIT_HOME is private to the bot's user, whatever the umask", () => {
  it("the bot, started under umask 000, creates every file 0600 and every folder 0700", async () => {
    const { discord, model, home: parent } = await startFakes();
    // A home that does not exist yet: the bot creates it, and its parents.
    const home = join(parent, "data", "agentkit");
    const env = { ...botEnv(discord, model, home), LOG_LEVEL: "warn" };
    await registerCommands(loadConfig("discord", env).discord!);
    const bot = runUnderUmask("000", "src/index.ts", [], env);
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in");
    expect(await readFile(`/proc/${bot.child.pid}/status`, "utf8")).toMatch(/^Umask:\s+0077$/m);

    const alice = discord.alice.id;
    const command = async (options: Parameters<FakeDiscord["runSlashCommand"]>[0]) => {
      const call = discord.runSlashCommand(options);
      return discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content || r.embeds?.length), 10_000);
    };
    await command({
      userId: alice,
      channelId: discord.textChannel.id,
      name: "memory",
      options: [s.subcommand("settings", [s.string("ask_before_saving", "true")])],
    });
    model.enqueue(
      {
        toolCalls: [
          { name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } },
          { name: "memory_add", arguments: { file: "memory", section: "Follow-ups", content: "- ask about the tea shop" } },
        ],
      },
      { text: "Noted." },
    );
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: alice, content: "I love oolong", mentionsBot: true });
    const reply = await discord.waitFor(() => botMessages(discord, start.id).find((m) => componentsOf(m).length > 0), 10_000);
    expect(reply.content).toMatch(/✋/);
    const preview = await command({
      userId: alice,
      channelId: discord.textChannel.id,
      name: "memory",
      options: [s.subcommand("forget", [s.string("text", "tea shop")])],
    });
    expect(preview.content).toMatch(/tea shop/);
    model.setFallback({ text: "Alice loves oolong." });
    await command({ userId: alice, channelId: start.id, name: "end" });
    await command({ userId: alice, channelId: discord.textChannel.id, name: "memory", options: [s.subcommand("search", [s.string("query", "oolong")])] });

    const person = join("users", alice);
    const expected = [
      ".",
      "sessions.sqlite",
      "sessions.sqlite-wal",
      "sessions.sqlite-shm",
      "index",
      `index/${alice}.sqlite`,
      "users",
      person,
      `${person}/MEMORY.md`,
      `${person}/settings.json`,
      `${person}/journal.jsonl`,
      `${person}/proposals.json`,
      `${person}/pending`,
      `${person}/conversations`,
      `${person}/daily`,
    ];
    const entries = await vi.waitFor(
      async () => {
        const found = await walk(home);
        const paths = found.map((e) => e.path);
        for (const path of expected) expect(paths).toContain(path);
        expect(paths.some((p) => p.startsWith(`${person}/conversations/`))).toBe(true);
        expect(paths.some((p) => p.startsWith(`${person}/daily/`))).toBe(true);
        expect(paths.some((p) => p.startsWith(`${person}/pending/`))).toBe(true);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(notPrivate(entries)).toEqual([]);
    expect(notPrivate(await walk(join(parent, "data")))).toEqual([]);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toBe(0);
    expect(notPrivate(await walk(home))).toEqual([]);
  }, 60_000);

  it("tightens a home left with wider modes when the bot starts, and leaves what a link points to alone", async () => {
    const { discord, model, home } = await startFakes();
    const outside = join(await makeTempHome(), "not-ours.txt");
    await writeFile(outside, "someone else's file\n");
    await chmod(outside, 0o644);
    const person = join(home, "users", "42");
    await mkdir(join(person, "daily", "archive"), { recursive: true });
    await writeFile(join(person, "USER.md"), "## Likes\n- oolong\n");
    await writeFile(join(person, "daily", "archive", "2026-01-01.md"), "## 09:00 · tea\nTea.\n");
    await symlink(outside, join(person, "link-out"));
    for (const dir of [home, join(home, "users"), person, join(person, "daily"), join(person, "daily", "archive")]) await chmod(dir, 0o755);
    for (const file of [join(person, "USER.md"), join(person, "daily", "archive", "2026-01-01.md")]) await chmod(file, 0o666);

    const bot = runUnderUmask("022", "src/index.ts", [], { ...botEnv(discord, model, home), LOG_LEVEL: "warn" });
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in");
    // The home is tightened in the background while the bot logs in.
    await vi.waitFor(async () => expect(notPrivate(await walk(home))).toEqual([]), { timeout: 10_000, interval: 50 });
    expect((await lstat(outside)).mode & 0o777).toBe(0o644);
    bot.child.kill("SIGTERM");
    await bot.exited;
  }, 60_000);

  it("the terminal chat, under umask 000, writes its memory, logs, conversations and index privately", async () => {
    const model = await startFakeOpenAI();
    closers.push(() => model.close());
    const home = await makeTempHome();
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- green tea" } }] },
      { text: "Noted." },
      { text: "They like green tea." },
    );
    const chat = runUnderUmask("000", "src/cli/chat.ts", ["--user", "42"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: model.baseURL }, "I like green tea\n/end\n");
    expect(await chat.exited).toBe(0);
    const entries = await walk(home);
    const paths = entries.map((e) => e.path);
    for (const path of ["sessions.sqlite", "index/42.sqlite", "users/42/USER.md", "users/42/journal.jsonl", "users/42/conversations", "users/42/daily"]) {
      expect(paths).toContain(path);
    }
    expect(notPrivate(entries)).toEqual([]);
  }, 30_000);

  it("the operator CLI, under umask 000, imports and indexes privately", async () => {
    const home = await makeTempHome();
    const source = join(await makeTempHome(), "USER.md");
    await writeFile(source, "## Likes\n- oolong\n");
    const imported = runUnderUmask("000", "src/cli/memory.ts", ["import", source, "--user", "42"], { AGENTKIT_HOME: home }, "");
    expect(await imported.exited).toBe(0);
    const search = runUnderUmask("000", "src/cli/memory.ts", ["search", "oolong", "--user", "42"], { AGENTKIT_HOME: home }, "");
    expect(await search.exited).toBe(0);
    expect(search.output()).toMatch(/oolong/);
    const entries = await walk(home);
    const paths = entries.map((e) => e.path);
    for (const path of ["users/42/USER.md", "users/42/journal.jsonl", "index/42.sqlite"]) expect(paths).toContain(path);
    expect(notPrivate(entries)).toEqual([]);
  }, 30_000);
});
