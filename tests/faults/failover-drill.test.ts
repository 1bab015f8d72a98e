import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../src/sessions/session-store.js";
import { startFakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type RecordedRequest, type ScriptedReply } from "../fakes/fake-openai.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { runTsx, type TsxProcess } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { startRedisServer } from "../helpers/redis-server.js";
import { makeTempHome } from "../helpers/temp-home.js";

/**
 * The failover drill (docs: operating past one process), as a test: two shard processes under
 * the launcher, one Redis. Alice talks in a guild thread (shard 1) and in DMs (shard 0) at the
 * same time; both turns save to USER.md. Redis restarts between turns; shard 1 is SIGKILLed
 * while its model request hangs after the tool round (its write already acknowledged to the
 * model) and the manager starts it again. Afterwards: every acknowledged write is in USER.md,
 * both sessions go on and are summarised exactly once, and no message is answered twice.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Each shard's latest "logged in" / "sessions reconciled" log line (pino writes pid on every line). */
function shardLines(run: TsxProcess, msg: string): { shard: number; pid: number; resumed?: number; closing?: number }[] {
  const lines = [];
  for (const line of run.stdout().split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { shard?: number; pid?: number; msg?: string; resumed?: number; closing?: number };
    if (typeof entry.shard === "number" && entry.pid !== undefined && entry.msg === msg) lines.push(entry as { shard: number; pid: number });
  }
  return lines;
}

function pidOf(run: TsxProcess, shard: number): number | undefined {
  return shardLines(run, "logged in")
    .filter((l) => l.shard === shard)
    .at(-1)?.pid;
}

/** The text of the last message of `role` in a request. */
function lastOf(request: RecordedRequest, role: string): string {
  const message = request.body.messages.filter((m) => m.role === role).at(-1);
  return typeof message?.content === "string" ? message.content : "";
}

interface Write {
  section: string;
  content: string;
}

/** What each of alice's messages makes the model do: an optional memory_add, then an answer. */
const SCRIPT: Record<string, { write?: Write; answer: string; stallAfterTools?: boolean }> = {
  "thread one: hello": { answer: "answer to thread one" },
  "dm one: hello": { answer: "answer to dm one" },
  // The turn shard 1 dies in: the write is done and acknowledged, then the model hangs.
  "thread two: I live in Lisbon now": { write: { section: "Home", content: "- lives in Lisbon" }, answer: "answer to thread two", stallAfterTools: true },
  "dm two: I am vegetarian": { write: { section: "Food", content: "- is vegetarian" }, answer: "answer to dm two" },
  "thread three: I work as a nurse, still there?": { write: { section: "Work", content: "- works as a nurse" }, answer: "answer to thread three" },
  "dm three: still there?": { answer: "answer to dm three" },
};

function scriptedModel(request: RecordedRequest): ScriptedReply {
  const words = lastOf(request, "user");
  // Non-streaming requests are summaries (and a day's condensing, which two entries never need).
  if (!request.body.tools) return { text: words.includes("thread one: hello") ? "Summary of the thread." : "Summary of the DMs." };
  const step = SCRIPT[words];
  if (!step) throw new Error(`unscripted message: ${words}`);
  const last = request.body.messages.at(-1)!;
  if (last.role === "user" && step.write) {
    return { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: step.write.section, content: step.write.content } }] };
  }
  if (last.role === "tool" && step.stallAfterTools) return { stallAfterChunks: 0 };
  return { text: step.answer };
}

/** Every memory_add whose result came back to the model as ok, from the model's own requests. */
function acknowledgedWrites(requests: RecordedRequest[]): Write[] {
  const writes = new Map<string, Write>();
  for (const request of requests) {
    const calls = new Map<string, Write>();
    for (const message of request.body.messages) {
      if (message.role === "assistant" && message.tool_calls) {
        for (const call of message.tool_calls) {
          if (call.type === "function" && call.function.name === "memory_add") calls.set(call.id, JSON.parse(call.function.arguments) as Write);
        }
      }
      if (message.role === "tool" && typeof message.content === "string" && message.content.includes('"ok":true')) {
        const write = calls.get(message.tool_call_id);
        if (write) writes.set(`${write.section}\n${write.content}`, write);
      }
    }
  }
  return [...writes.values()];
}

describe("failover drill", () => {
  it("two shards and Redis: a shard SIGKILLed mid-turn and Redis restarted lose no acknowledged write, summarise each session once, answer nothing twice", async () => {
    const redis = await startRedisServer();
    const discord = await startFakeDiscord({ recommendedShards: 2 });
    const model = await startFakeOpenAI();
    cleanups.push(
      () => discord.close(),
      () => model.close(),
    );
    model.setFallback(scriptedModel);
    const home = await makeTempHome();
    const guild = discord.addGuild({ name: "shard one", forShard: [1, 2] });
    const alice = discord.alice.id;

    // A client of our own, to see the shards' connections to Redis and read the sessions it holds.
    const probe = createClient({ url: redis.url });
    probe.on("error", () => {});
    const connections = async () => {
      if (!probe.isOpen) await probe.connect();
      return (await probe.sendCommand(["CLIENT", "LIST"])).toString().trim().split("\n").length;
    };
    cleanups.push(() => (probe.isOpen ? probe.destroy() : undefined));
    const sessionIn = async (channelId: string) => {
      const store = await SessionStore.open(home, redis.url);
      try {
        return await store.latestIn(channelId);
      } finally {
        await store.close();
      }
    };

    const launcher = runTsx("src/index.ts", [], {
      ...botEnv(discord, model, home),
      LOG_LEVEL: "info",
      SHARD_COUNT: "auto",
      SHARD_SPAWN_DELAY_MS: "200",
      SESSION_STORE_URL: redis.url,
    });
    cleanups.push(async () => {
      if (launcher.child.exitCode === null) launcher.child.kill("SIGTERM");
      await launcher.exited;
    });
    await discord.waitFor(() => launcher.stdout().includes('"msg":"all shards ready"'), 30_000, "every shard to be ready");
    // Each shard's own lines may reach the launcher's output after its "all shards ready".
    await discord.waitFor(() => pidOf(launcher, 0) !== undefined && pidOf(launcher, 1) !== undefined, 10_000, "both shards' log lines");
    const firstPids = [pidOf(launcher, 0), pidOf(launcher, 1)];
    expect(firstPids[0]).toBeDefined();
    expect(firstPids[1]).toBeDefined();
    expect(firstPids[0]).not.toBe(firstPids[1]);
    // Our probe and each shard's session store.
    const before = await connections();
    expect(before).toBeGreaterThanOrEqual(3);

    // Turn 1: a thread on shard 1, and DMs on shard 0.
    const start = await discord.userSends({ channelId: guild.textChannel.id, userId: alice, content: "thread one: hello", mentionsBot: true });
    const thread = await discord.waitFor(() => discord.thread(start.id), 10_000, "the thread");
    const dm = discord.openDm(alice);
    await discord.userSends({ channelId: dm.id, userId: alice, content: "dm one: hello" });
    const answered = (channelId: string, answer: string) => botMessages(discord, channelId).filter((m) => m.content.startsWith(answer));
    await discord.waitFor(() => answered(thread.id, "answer to thread one")[0], 10_000, "the thread's first answer");
    await discord.waitFor(() => answered(dm.id, "answer to dm one")[0], 10_000, "the DM's first answer");
    const threadSession = (await sessionIn(thread.id))!;
    const dmSession = (await sessionIn(dm.id))!;
    expect(threadSession.status).toBe("open");
    expect(dmSession.status).toBe("open");

    // Redis restarts between turns (SHUTDOWN SAVE, then the same port and dump); both shards' clients reconnect.
    await redis.restart();
    await eventually(async () => (await connections().catch(() => 0)) >= before, 10_000, "both shards back on Redis");
    expect((await sessionIn(thread.id))?.id).toBe(threadSession.id);

    // Turn 2, at the same time in both: each saves to USER.md. Shard 1's model request then hangs…
    await Promise.all([
      discord.userSends({ channelId: thread.id, userId: alice, content: "thread two: I live in Lisbon now" }),
      discord.userSends({ channelId: dm.id, userId: alice, content: "dm two: I am vegetarian" }),
    ]);
    const stalled = (r: RecordedRequest) => lastOf(r, "user") === "thread two: I live in Lisbon now" && r.body.messages.at(-1)?.role === "tool";
    await discord.waitFor(() => model.requests.some(stalled), 15_000, "shard 1's request after its tool round");
    await discord.waitFor(() => answered(dm.id, "answer to dm two")[0], 15_000, "the DM's second answer");
    // …its write was acknowledged to the model…
    expect(lastOf(model.requests.find(stalled)!, "tool")).toContain('"ok":true');
    // …and it is killed there. The manager starts it again: a new pid logs in and reconciles.
    process.kill(firstPids[1]!, "SIGKILL");
    await discord.waitFor(
      () => shardLines(launcher, "sessions reconciled").find((l) => l.shard === 1 && l.pid !== firstPids[1]),
      30_000,
      "shard 1 restarted by the manager",
    );
    const secondPid = pidOf(launcher, 1)!;
    expect(secondPid).not.toBe(firstPids[1]);
    expect(pidOf(launcher, 0)).toBe(firstPids[0]);
    const reconciled = shardLines(launcher, "sessions reconciled").find((l) => l.pid === secondPid)!;
    // The thread is still there and not archived: its session resumes, nothing is closed.
    expect(reconciled).toMatchObject({ resumed: 1, closing: 0 });

    // Turn 3: both conversations go on, in the same sessions.
    await discord.userSends({ channelId: thread.id, userId: alice, content: "thread three: I work as a nurse, still there?" });
    await discord.userSends({ channelId: dm.id, userId: alice, content: "dm three: still there?" });
    await discord.waitFor(() => answered(thread.id, "answer to thread three")[0], 15_000, "the thread's answer after the restart");
    await discord.waitFor(() => answered(dm.id, "answer to dm three")[0], 15_000, "the DM's third answer");
    const threadAfter = (await sessionIn(thread.id))!;
    const dmAfter = (await sessionIn(dm.id))!;
    expect(threadAfter.id).toBe(threadSession.id);
    expect(dmAfter.id).toBe(dmSession.id);
    const userWords = (record: { messages: { role: string; content?: unknown }[] }) => record.messages.filter((m) => m.role === "user").map((m) => m.content);
    // The killed turn was never saved (a turn is saved when it ends): its message is not in the history.
    expect(userWords(threadAfter)).toEqual(["thread one: hello", "thread three: I work as a nurse, still there?"]);
    expect(userWords(dmAfter)).toEqual(["dm one: hello", "dm two: I am vegetarian", "dm three: still there?"]);
    const threadThree = model.requests.find((r) => lastOf(r, "user") === "thread three: I work as a nurse, still there?")!;
    expect(threadThree.body.messages.map((m) => m.content)).toContain("answer to thread one");

    // No duplicate replies: each answered message got exactly one answer. The message in flight
    // when shard 1 was killed is lost with its process (Discord does not deliver it again), so it
    // may get no answer; it must never get two (a partial answer already posted counts as one).
    for (const [channelId, answer] of [
      [thread.id, "answer to thread one"],
      [thread.id, "answer to thread three"],
      [dm.id, "answer to dm one"],
      [dm.id, "answer to dm two"],
      [dm.id, "answer to dm three"],
    ] as const) {
      expect(answered(channelId, answer), answer).toHaveLength(1);
    }
    const threadAnswers = botMessages(discord, thread.id).length;
    expect(threadAnswers).toBeGreaterThanOrEqual(2);
    expect(threadAnswers).toBeLessThanOrEqual(3);
    expect(botMessages(discord, dm.id)).toHaveLength(3);
    expect(botMessages(discord, guild.textChannel.id)).toHaveLength(0);

    // No acknowledged write lost: the killed turn's, the DM's, and the one after the restart.
    const acked = acknowledgedWrites(model.requests);
    expect(acked.map((w) => w.content).sort()).toEqual(["- is vegetarian", "- lives in Lisbon", "- works as a nurse"]);
    const profile = await readFile(join(home, "users", alice, "USER.md"), "utf8");
    for (const write of acked) {
      expect(profile, write.content).toContain(`## ${write.section}`);
      expect(
        profile.split("\n").filter((line) => line === write.content),
        write.content,
      ).toHaveLength(1);
    }

    // Both sessions end with /end: each is summarised exactly once.
    const endThread = discord.runSlashCommand({ userId: alice, channelId: thread.id, name: "end" });
    const endDm = discord.runSlashCommand({ userId: alice, channelId: dm.id, name: "end" });
    for (const end of [endThread, endDm]) {
      await discord.waitFor(() => discord.interactionResponses(end.id).find((r) => r.content?.includes("Conversation ended")), 15_000, "/end");
    }
    expect((await sessionIn(thread.id))?.status).toBe("closed");
    expect((await sessionIn(dm.id))?.status).toBe("closed");
    const daily = await readFile(join(home, "users", alice, "daily", `${new Date().toISOString().slice(0, 10)}.md`), "utf8");
    const headings = (daily.match(/^## .*$/gm) ?? []).map((h) => h.replace(/^## \d\d:\d\d · /, "")).sort();
    expect(headings).toEqual(["direct messages", "thread one: hello 🌐"]);
    expect(daily.match(/Summary of the thread\./g)).toHaveLength(1);
    expect(daily.match(/Summary of the DMs\./g)).toHaveLength(1);
    expect(model.requests.filter((r) => !r.body.tools)).toHaveLength(2);
    const conversations = await readdir(join(home, "users", alice, "conversations"));
    expect(conversations).toHaveLength(2);
    const transcripts = await Promise.all(conversations.map((f) => readFile(join(home, "users", alice, "conversations", f), "utf8")));
    expect(transcripts.filter((t) => t.includes("thread three: I work as a nurse, still there?"))).toHaveLength(1);
    expect(transcripts.filter((t) => t.includes("dm three: still there?"))).toHaveLength(1);
    // /end adds its own answer and the memory receipt (which lists the killed turn's write too), never another answer.
    for (const [channelId, answers, receipt] of [
      [thread.id, threadAnswers, ["USER.md › Home: + “lives in Lisbon”", "USER.md › Work: + “works as a nurse”"]],
      [dm.id, 3, ["USER.md › Food: + “is vegetarian”"]],
    ] as const) {
      const added = botMessages(discord, channelId)
        .slice(answers)
        .map((m) => m.content);
      expect(added.filter((c) => c.startsWith("Conversation ended"))).toHaveLength(1);
      const receipts = added.filter((c) => c.startsWith("-# 💾 What I changed"));
      expect(receipts).toHaveLength(1);
      for (const line of receipt) expect(receipts[0]).toContain(line);
      expect(added).toHaveLength(2);
    }
  }, 90_000);
});
