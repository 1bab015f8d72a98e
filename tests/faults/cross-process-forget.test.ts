import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createClient, type RedisClientType } from "@keyv/redis";
import { afterEach, describe, expect, it } from "vitest";
import { TurnForgottenError } from "../../src/engine/session-engine.js";
import { PERSON } from "../../src/memory/memory-file.js";
import { componentsOf, slashOption as s } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type RecordedRequest, type ScriptedReply } from "../fakes/fake-openai.js";
import { startBot, type BotHarness } from "../helpers/bot-harness.js";
import { runTsx, type TsxProcess } from "../helpers/child-process.js";
import { aliceInThread, setupEngine } from "../helpers/engine.js";
import { eventually } from "../helpers/eventually.js";
import { startRedisServer, type RedisServer } from "../helpers/redis-server.js";
import { makeTempHome } from "../helpers/temp-home.js";

/**
 * Two processes on one AGENTKIT_HOME (and one session store): the terminal chat (a child process)
 * has a session of Alice's open that mentions Clara, and the Discord bot (this process) forgets
 * "Clara" or deletes everything of hers. Whatever the chat does next (a turn, a memory write in
 * a turn that was under way, its close) brings nothing back: not into its session record, the
 * conversation file, the daily log, the journal, the search index, proposals, the store or the
 * Redis append-only file.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const lastUserText = (request: RecordedRequest) => {
  const message = request.body.messages.filter((m) => m.role === "user").at(-1);
  return typeof message?.content === "string" ? message.content : "";
};

interface Setup {
  bot: BotHarness;
  home: string;
  alice: string;
  redis: RedisServer | undefined;
  chat: TsxProcess;
  /** Sends a line to the chat and waits until its output (from then on) matches. */
  send(line: string, answer: string | RegExp): Promise<void>;
  /** Every chat request to the model, as JSON: what the model was shown. */
  requests: RecordedRequest[];
  /** Opens a gate that holds the answer to the next "gated" message. */
  gate: { arrived: Promise<void>; open(): void };
}

async function twoProcesses(options: { redis?: boolean } = {}): Promise<Setup> {
  const model = await startFakeOpenAI();
  cleanups.push(() => model.close());
  const home = await makeTempHome();
  const redis = options.redis ? await startRedisServer({ appendOnly: true }) : undefined;
  const storeEnv: Record<string, string> = redis ? { SESSION_STORE_URL: redis.url } : {};
  const bot = await startBot({ home, model, env: storeEnv });
  const alice = bot.discord.alice.id;
  // In her memory before the chat opens, so its frozen prompt holds it too.
  await bot.engine.memoryOf(alice).user.add("Family", "- sister Clara, a nurse", PERSON);

  let arrived!: () => void;
  let opened!: () => void;
  const gate = { arrived: new Promise<void>((r) => (arrived = r)), open: () => opened() };
  const held = new Promise<void>((r) => (opened = r));
  model.setFallback(async (request): Promise<ScriptedReply> => {
    const words = lastUserText(request);
    if (!request.body.tools) return { text: "They talked about cooking." };
    const last = request.body.messages.at(-1)!;
    if (words === "Clara is visiting next week") return { text: "Say hi to Clara from me!" };
    if (words === "gated: Clara is visiting") {
      if (last.role === "tool") return { text: "Clara will love the jasmine tea." };
      arrived();
      await held;
      return { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Family", content: "- Clara loves jasmine tea" } }] };
    }
    if (words === "what should I cook?") return { text: "Pasta with tomatoes." };
    return { text: "ok" };
  });

  const chat = runTsx("src/cli/chat.ts", ["--user", alice, "--title", "family", "--name", "Alice"], {
    AGENTKIT_HOME: home,
    OPENAI_BASE_URL: model.baseURL,
    AGENTKIT_TIMEZONE: "UTC",
    ...storeEnv,
  });
  const send = async (line: string, answer: string | RegExp) => {
    const from = chat.stdout().length;
    chat.child.stdin.write(`${line}\n`);
    const matches = (text: string) => (typeof answer === "string" ? text.includes(answer) : answer.test(text));
    await eventually(async () => matches(chat.stdout().slice(from)) || chat.child.exitCode !== null, 20_000, `the chat to answer "${line}"`);
    expect(chat.stdout().slice(from), chat.stderr()).toSatisfy(matches);
  };
  return { bot, home, alice, redis, chat, send, requests: model.requests, gate };
}

async function forgetInDiscord({ bot, alice }: Setup, words: string): Promise<string> {
  const call = bot.discord.runSlashCommand({
    userId: alice,
    channelId: bot.discord.textChannel.id,
    name: "memory",
    options: [s.subcommand("forget", [s.string("text", words)])],
  });
  const preview = await bot.discord.waitFor(() => bot.discord.interactionResponses(call.id).find((r) => r.content));
  bot.discord.clickButton({ userId: alice, messageId: preview.messageId!, customId: componentsOf(preview)[0]!.customId! });
  await bot.discord.waitFor(() => bot.discord.message(preview.messageId!)?.content.startsWith("Forgotten"), 20_000);
  return bot.discord.message(preview.messageId!)!.content;
}

async function deleteAllInDiscord({ bot, alice }: Setup): Promise<void> {
  const call = bot.discord.runSlashCommand({ userId: alice, channelId: bot.discord.textChannel.id, name: "memory", options: [s.subcommand("delete-all")] });
  const opened = await bot.discord.waitFor(() => bot.discord.interactionResponses(call.id).find((r) => r.modal));
  const submit = bot.discord.submitModal({
    userId: alice,
    channelId: bot.discord.textChannel.id,
    customId: opened.modal!.customId,
    fields: { confirm: "DELETE" },
  });
  await bot.discord.waitFor(() => bot.discord.interactionResponses(submit.id).find((r) => r.content?.startsWith("Deleted")), 20_000);
}

/** Every byte stored under a folder, as text. */
async function everythingUnder(dir: string, except: string[] = []): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const skipped = (d: { parentPath: string }) => except.some((folder) => `${d.parentPath}/`.startsWith(join(dir, folder, "/")));
  const texts = await Promise.all(
    names
      .filter((d) => d.isFile() && !skipped(d))
      .map((d) => readFile(join(d.parentPath, d.name), "latin1").then((t) => `${join(d.parentPath, d.name)}\n${t}`)),
  );
  return texts.join("\n");
}

/** Every key and value in Redis, as text. */
async function everythingInRedis(url: string): Promise<string> {
  const client: RedisClientType = createClient({ url });
  await client.connect();
  try {
    const parts: string[] = [];
    for (const key of await client.keys("*")) {
      const type = await client.type(key);
      const value = type === "set" ? (await client.sMembers(key)).join(" ") : ((await client.get(key)) ?? "");
      parts.push(`${key} ${value}`);
    }
    return parts.join("\n");
  } finally {
    await client.close();
  }
}

function expectGone(text: string, word: string, where: string): void {
  const at = text.toLowerCase().indexOf(word.toLowerCase());
  expect(at === -1 ? "gone" : `${where}: …${text.slice(Math.max(0, at - 200), at + 60)}…`).toBe("gone");
}

/** After both processes stopped: the word is nowhere the home or Redis keeps anything. */
async function expectNowhere(setup: Setup, word: string): Promise<void> {
  expectGone(await everythingUnder(setup.home), word, "AGENTKIT_HOME");
  if (!setup.redis) return;
  expectGone(await everythingInRedis(setup.redis.url), word, "Redis");
  const aof = join(setup.redis.dir, "appendonlydir");
  await eventually(async () => !(await everythingUnder(aof)).toLowerCase().includes(word), 5_000, "the rewritten AOF").catch(() => undefined);
  expectGone(await everythingUnder(aof), word, "the append-only file");
}

/** Sends a turn that waits at the model, forgets "clara" from Discord meanwhile, and waits for the chat to say the exchange was not kept; returns where the turn's output starts. */
async function forgetDuringTurn(setup: Setup): Promise<number> {
  const from = setup.chat.stdout().length;
  setup.chat.child.stdin.write("gated: Clara is visiting\n");
  await setup.gate.arrived;
  await forgetInDiscord(setup, "clara");
  setup.gate.open();
  await eventually(async () => setup.chat.stdout().slice(from).includes("was not kept"), 20_000, "the chat to say the exchange was not kept");
  return from;
}

async function endChat(setup: Setup): Promise<void> {
  setup.chat.child.stdin.end("/end\n");
  expect(await setup.chat.exited, setup.chat.stderr()).toBe(0);
  expect(setup.chat.stderr()).toBe("");
  await setup.bot.stop();
}

describe("forgetting in one process while another has the person's session open", () => {
  it("the other process's next turn and its close work from the forgotten session and bring nothing back (SQLite)", async () => {
    const setup = await twoProcesses();
    await setup.send("Clara is visiting next week", "Say hi to Clara from me!");
    expect(await forgetInDiscord(setup, "clara")).toMatch(/^Forgotten: 1 line\(s\) of your memory files/);

    await setup.send("what should I cook?", "Pasta with tomatoes.");
    // What the chat showed the model after the forget: nothing of Clara, not even its frozen prompt.
    const after = setup.requests.find((r) => lastUserText(r) === "what should I cook?")!;
    expectGone(JSON.stringify(after.body), "clara", "the next request");
    await endChat(setup);

    const summaryRequest = setup.requests.filter((r) => !r.body.tools).at(-1)!;
    expectGone(JSON.stringify(summaryRequest.body), "clara", "the summary request");
    const dir = join(setup.home, "users", setup.alice);
    const [conversation] = await readdir(join(dir, "conversations"));
    expect(await readFile(join(dir, "conversations", conversation!), "utf8")).toContain(
      "## 🧑 Alice\nwhat should I cook?\n\n## 🤖 Assistant\nPasta with tomatoes.\n",
    );
    expect(await everythingUnder(join(dir, "daily"))).toContain("They talked about cooking.");
    await expectNowhere(setup, "clara");
  }, 60_000);

  it("a turn under way during the forget keeps neither its memory write nor its exchange, says so, and the chat goes on (SQLite)", async () => {
    const setup = await twoProcesses();
    const from = await forgetDuringTurn(setup);
    expect(setup.chat.stdout().slice(from)).not.toContain("💾 saved");
    // The model was told its write did not happen.
    const toolResult = setup.requests.at(-1)!.body.messages.at(-1) as { role: string; content: string };
    expect(toolResult.role).toBe("tool");
    expect(JSON.parse(toolResult.content)).toMatchObject({ ok: false });

    await setup.send("what should I cook?", "Pasta with tomatoes.");
    expectGone(JSON.stringify(setup.requests.at(-1)!.body), "clara", "the next request");
    await endChat(setup);
    expect(await readFile(join(setup.home, "users", setup.alice, "USER.md"), "utf8").catch(() => "")).not.toContain("jasmine");
    await expectNowhere(setup, "clara");
    await expectNowhere(setup, "jasmine");
  }, 60_000);

  it("after delete-all the other process's session is gone: its next turn ends the chat with a clear line and nothing is written back (SQLite)", async () => {
    const setup = await twoProcesses();
    await setup.send("Clara is visiting next week", "Say hi to Clara from me!");
    const requests = setup.requests.length;
    await deleteAllInDiscord(setup);
    await setup.send("what should I cook?", "was ended or deleted elsewhere");
    expect(await setup.chat.exited, setup.chat.stderr()).toBe(0);
    expect(setup.chat.stderr()).toBe("");
    // Nothing of the old session reached the model again.
    expect(setup.requests.length).toBe(requests);
    await setup.bot.stop();
    await expect(readdir(join(setup.home, "users", setup.alice))).rejects.toThrow(/ENOENT/);
    await expectNowhere(setup, "clara");
    // Operator logs (logs/chat.log) name people by id, as the bot's own log does; never their words (expectNowhere).
    expectGone(await everythingUnder(setup.home, ["logs"]), setup.alice, "AGENTKIT_HOME");
  }, 60_000);

  it("with Redis and its append-only file: a turn under way keeps nothing, the AOF is rewritten, and the next turn and close bring nothing back", async () => {
    const setup = await twoProcesses({ redis: true });
    await setup.send("Clara is visiting next week", "Say hi to Clara from me!");
    await forgetDuringTurn(setup);
    await setup.send("what should I cook?", "Pasta with tomatoes.");
    await endChat(setup);
    await expectNowhere(setup, "clara");
    await expectNowhere(setup, "jasmine");
  }, 60_000);

  it("with Redis: delete-all leaves the other process nothing to save, and Redis no trace of the person", async () => {
    const setup = await twoProcesses({ redis: true });
    await setup.send("Clara is visiting next week", "Say hi to Clara from me!");
    await deleteAllInDiscord(setup);
    await setup.send("what should I cook?", "was ended or deleted elsewhere");
    expect(await setup.chat.exited, setup.chat.stderr()).toBe(0);
    await setup.bot.stop();
    await expectNowhere(setup, "clara");
    expectGone(await everythingInRedis(setup.redis!.url), setup.alice, "Redis");
  }, 60_000);
});

/** A model reply that waits: `arrived` is called when the request comes, the reply goes once `release` is. */
function holdAtModel() {
  let arrived!: () => void;
  let release!: () => void;
  const atModel = new Promise<void>((r) => (arrived = r));
  const held = new Promise<void>((r) => (release = r));
  return { arrived, atModel, held, release };
}

describe("a turn under way while the person forgets, in another engine on the same home", () => {
  it("keeps no proposal (ask before saving) it makes after the forget, and tells the model so", async () => {
    const setup = await setupEngine();
    const forgetter = await setup.reopen();
    await setup.engine.memoryOf("111").saveSettings({ askBeforeSaving: "profile" });
    const session = await setup.engine.open(aliceInThread);
    const { arrived, atModel, held, release } = holdAtModel();
    setup.fake.enqueue(
      async () => {
        arrived();
        await held;
        return { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Family", content: "- Clara loves jasmine tea" } }] };
      },
      { text: "I'll remember Clara." },
    );
    const turn = setup.engine.turn(session.id, "Clara loves jasmine tea").catch((error: unknown) => error);
    await atModel;
    await forgetter.forget("111", "clara");
    release();
    expect(await turn).toBeInstanceOf(TurnForgottenError);
    const toolResult = setup.fake.requests.at(-1)!.body.messages.at(-1) as { role: string; content: string };
    expect(JSON.parse(toolResult.content)).toMatchObject({ ok: false });
    expect(setup.engine.memoryOf("111").listProposals()).toEqual([]);
    expect((await forgetter.get(session.id))?.messages).toEqual([]);
  });

  it("a close whose summary was under way starts again from the forgotten session: neither the log nor the conversation file gets the words", async () => {
    const setup = await setupEngine();
    const forgetter = await setup.reopen();
    const session = await setup.engine.open(aliceInThread);
    setup.fake.enqueue({ text: "Say hi to Clara from me!" });
    await setup.engine.turn(session.id, "Clara is visiting next week");
    const { arrived, atModel, held, release } = holdAtModel();
    setup.fake.enqueue(
      async () => {
        arrived();
        await held;
        return { text: "Alice said Clara is visiting." };
      },
      { text: "They talked about a visit." },
    );
    const closing = setup.engine.close(session.id, "test");
    await atModel;
    await forgetter.forget("111", "clara");
    release();
    expect(await closing).toBe("closed");
    await setup.engine.settle();
    await forgetter.settle();
    const dir = join(setup.home, "users", "111");
    expect(await everythingUnder(join(dir, "daily"))).toContain("They talked about a visit.");
    expect(await everythingUnder(join(dir, "conversations"))).toContain("[forgotten]");
    expectGone(await everythingUnder(dir), "clara", "the person's folder");
    expectGone(JSON.stringify(await forgetter.get(session.id)), "clara", "the stored session");
  });
});
