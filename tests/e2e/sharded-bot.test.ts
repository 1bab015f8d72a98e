import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { runTsx, type TsxProcess } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The pid of each shard process, from the shards' own JSON log lines (pino writes pid on every line). */
export function shardPids(run: TsxProcess): Map<number, number> {
  const pids = new Map<number, number>();
  for (const line of run.stdout().split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { shard?: number; pid?: number; msg?: string };
    if (typeof entry.shard === "number" && entry.pid !== undefined && entry.msg === "logged in") pids.set(entry.shard, entry.pid);
  }
  return pids;
}

export async function startSharded(discord: FakeDiscord, model: FakeOpenAI, home: string, env: Record<string, string> = {}): Promise<TsxProcess> {
  const launcher = runTsx("src/index.ts", [], { ...botEnv(discord, model, home), LOG_LEVEL: "info", SHARD_COUNT: "auto", SHARD_SPAWN_DELAY_MS: "200", ...env });
  closers.push(async () => {
    if (launcher.child.exitCode === null) launcher.child.kill("SIGTERM");
    await launcher.exited;
  });
  await discord.waitFor(() => launcher.stdout().includes('"msg":"all shards ready"'), 30_000, "every shard to be ready");
  return launcher;
}

describe("sharded (SHARD_COUNT)", () => {
  it("runs one process per shard: each answers its own guild's threads, shard 0 the DMs; SIGTERM stops them all", async () => {
    const discord = await startFakeDiscord({ recommendedShards: 2 });
    const model = await startFakeOpenAI();
    closers.push(() => discord.close(), () => model.close());
    const home = await makeTempHome();
    const zero = discord.addGuild({ name: "shard zero", forShard: [0, 2] });
    const one = discord.addGuild({ name: "shard one", forShard: [1, 2] });
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
