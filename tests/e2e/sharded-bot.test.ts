import { afterEach, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { componentsOf, slashOption as s, startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { runTsx, type TsxProcess } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The pid of each shard process, from the shards' own JSON log lines (pino writes pid on every line). */
function shardPids(run: TsxProcess): Map<number, number> {
  const pids = new Map<number, number>();
  for (const line of run.stdout().split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { shard?: number; pid?: number; msg?: string };
    if (typeof entry.shard === "number" && entry.pid !== undefined && entry.msg === "logged in") pids.set(entry.shard, entry.pid);
  }
  return pids;
}

async function startSharded(discord: FakeDiscord, model: FakeOpenAI, home: string, env: Record<string, string> = {}): Promise<TsxProcess> {
  const launcher = runTsx("src/index.ts", [], { ...botEnv(discord, model, home), LOG_LEVEL: "info", SHARD_COUNT: "auto", SHARD_SPAWN_DELAY_MS: "200", ...env });
  closers.push(async () => {
    if (launcher.child.exitCode === null) launcher.child.kill("SIGTERM");
    await launcher.exited;
  });
  await discord.waitFor(() => launcher.stdout().includes('"msg":"all shards ready"'), 30_000, "every shard to be ready");
  return launcher;
}

/** A fake Discord recommending two shards, with a server on each, a fake model and a home. */
async function twoShardWorld() {
  const discord = await startFakeDiscord({ recommendedShards: 2 });
  const model = await startFakeOpenAI();
  closers.push(
    () => discord.close(),
    () => model.close(),
  );
  const home = await makeTempHome();
  const zero = discord.addGuild({ name: "shard zero", forShard: [0, 2] });
  const one = discord.addGuild({ name: "shard one", forShard: [1, 2] });
  return { discord, model, home, zero, one };
}

describe("sharded (SHARD_COUNT)", () => {
  it("runs one process per shard: each answers its own guild's threads, shard 0 the DMs; SIGTERM stops them all", async () => {
    const { discord, model, home, zero, one } = await twoShardWorld();
    model.setFallback((request) => {
      const last = request.body.messages.at(-1)?.content;
      return { text: `answer to ${typeof last === "string" ? last : "?"}` };
    });

    const launcher = await startSharded(discord, model, home);
    expect(discord.openGatewaySessionsByShard()).toEqual({ 0: 1, 1: 1 });
    // Each shard's log lines reach the launcher's output on their own time (pino writes asynchronously).
    const pids = await discord.waitFor(() => (shardPids(launcher).size === 2 ? shardPids(launcher) : undefined), 10_000, "both shards' log lines");
    expect([...pids.keys()].sort()).toEqual([0, 1]);
    expect(pids.get(0)).not.toBe(pids.get(1));

    const inZero = await discord.userSends({ channelId: zero.textChannel.id, userId: discord.alice.id, content: "hello zero", mentionsBot: true });
    const inOne = await discord.userSends({ channelId: one.textChannel.id, userId: discord.alice.id, content: "hello one", mentionsBot: true });
    const dm = discord.openDm(discord.alice.id);
    await discord.userSends({ channelId: dm.id, userId: discord.alice.id, content: "hello dm" });
    await discord.waitFor(() => botMessages(discord, inZero.id).find((m) => m.content === "answer to hello zero"), 10_000);
    await discord.waitFor(() => botMessages(discord, inOne.id).find((m) => m.content === "answer to hello one"), 10_000);
    await discord.waitFor(() => botMessages(discord, dm.id).find((m) => m.content === "answer to hello dm"), 10_000);
    for (const channel of [inZero.id, inOne.id, dm.id]) expect(botMessages(discord, channel)).toHaveLength(1);

    launcher.child.kill("SIGTERM");
    expect(await launcher.exited).toBe(0);
    expect(discord.openGatewaySessions).toBe(0);
  }, 60_000);
});

describe("server notes with shards", () => {
  it("are written through the shard that owns the server, read in its conversations only, and its suggestions saved there", async () => {
    const { discord, model, home, zero, one } = await twoShardWorld();
    await startSharded(discord, model, home);
    const notesCommand = async (guildChannel: string, sub: string, options: ReturnType<typeof s.string>[], locale = "en-US") => {
      const call = discord.runSlashCommand({
        userId: discord.alice.id,
        channelId: guildChannel,
        name: "server-notes",
        locale,
        options: [s.subcommand(sub, options)],
      });
      return (await discord.waitFor(() => discord.interactionResponses(call.id).find((r) => r.content !== undefined), 10_000)).content!;
    };
    // Alice owns both servers (Manage Server).
    expect(await notesCommand(one.textChannel.id, "add", [s.string("section", "Events"), s.string("content", "- the Friday thing: board games")])).toMatch(
      /^Added to SERVER\.md › Events/,
    );
    expect(await readFile(join(home, "guilds", one.guild.id, "SERVER.md"), "utf8")).toContain("board games");
    expect(await notesCommand(one.textChannel.id, "view", [], "zh-CN")).toContain("board games");

    // The model suggests in shard one's server; Save, pressed there, is handled by shard one.
    model.enqueue({ toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Rules", content: "- no spoilers" } }] }, { text: "Suggested." });
    model.setFallback({ text: "ok" });
    const inOne = await discord.userSends({ channelId: one.textChannel.id, userId: discord.bob.id, content: "what is the Friday thing?", mentionsBot: true });
    const suggestion = await discord.waitFor(() => botMessages(discord, inOne.id).find((m) => m.content.startsWith("💡")), 10_000);
    const save = componentsOf(suggestion).find((c) => c.label === "Save")!;
    const click = discord.clickButton({ userId: discord.alice.id, messageId: suggestion.id, customId: save.customId! });
    await discord.waitFor(() => discord.interactionResponses(click.id).length > 0, 10_000);
    await discord.waitFor(() => discord.message(suggestion.id)!.content.startsWith("✅ Saved by"), 10_000);
    expect(await readFile(join(home, "guilds", one.guild.id, "SERVER.md"), "utf8")).toContain("no spoilers");

    // Shard zero's server and the DMs (shard zero) never see shard one's notes.
    const inZero = await discord.userSends({ channelId: zero.textChannel.id, userId: discord.bob.id, content: "hello zero", mentionsBot: true });
    const dm = discord.openDm(discord.bob.id);
    await discord.userSends({ channelId: dm.id, userId: discord.bob.id, content: "hello dm" });
    await discord.waitFor(() => botMessages(discord, inZero.id)[0], 10_000);
    await discord.waitFor(() => botMessages(discord, dm.id)[0], 10_000);
    const mentions = (text: string) => model.requests.filter((r) => JSON.stringify(r.body).includes(text));
    for (const r of mentions("what is the Friday thing?")) expect(String(r.body.messages[0]?.content)).toContain("board games");
    for (const r of [...mentions("hello zero"), ...mentions("hello dm")]) expect(JSON.stringify(r.body)).not.toContain("board games");
    expect(mentions("hello zero").length + mentions("hello dm").length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
