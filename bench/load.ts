import { startFakeDiscord, type FakeDiscord } from "../tests/fakes/fake-discord/index.js";
import type { FakeDiscordState } from "../tests/fakes/fake-discord/state.js";
import { startBot, type BotKind, type Runtime } from "./bots.js";
import { ReplyWatcher } from "./discord-watch.js";
import { startBenchModel, words, type BenchModel, type ModelCall } from "./model-server.js";
import { cpuMsBetween, delay, makeTempDir, removeTempDir, threadCpuMs, treeCpuMs, treeMemory } from "./processes.js";
import { peakInWindow, summarize, type Summary } from "./stats.js";

export interface LoadOptions {
  people: number;
  turns: number;
  /** Between a person's final answer and their next message. */
  pauseMs: number;
  /** Start offsets are spread evenly over this. */
  spreadMs: number;
  ttftMs: number;
  /** 0 = unpaced. */
  tokensPerSecond: number;
  /** Words in each answer. */
  replyWords: number;
  /** When set, each answer is exactly this many characters (replyWords is ignored). */
  replyChars?: number;
  /** Characters per streamed chunk, one chunk = one "token" (default 4). */
  chunkSize?: number;
  turnTimeoutMs: number;
  /** Node flags for the bot process (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Default compiled. */
  runtime?: Runtime;
  /** Extra environment for the bot process: AgentKit's METRICS_PORT, SHARD_COUNT, SESSION_STORE_URL; the floor's FLOOR_DUTIES. */
  env?: Record<string, string>;
  /**
   * Set: the fake Discord recommends this many shards and has one guild on each shard (`forShard`),
   * and the people are spread over those guilds round-robin (person i in guild i mod n). Unset: every
   * person writes in the fake's default guild.
   */
  spreadOverShards?: number;
  /** Gateway sessions the bot opens (its shard count with SHARD_COUNT; default 1). */
  botShards?: number;
  /** Work run beside the timed turns: started after the warm-up, stopped (awaited) after the last turn. */
  alongside?: (bot: { home: string }) => Promise<() => Promise<void>>;
}

interface TurnSample {
  person: number;
  turn: number;
  /** Epoch ms right after the fake Discord dispatched MESSAGE_CREATE (userSends returned). */
  sentAt: number;
  modelReceivedAt: number;
  firstTokenAt: number;
  lastTokenAt: number;
  firstTextAt: number;
  finalAt: number;
  creates: number;
  edits: number;
  /** Times of every create and edit of the answer. */
  updates: number[];
}

export interface LoadResult {
  bot: BotKind;
  runtime: Runtime;
  turnsPlanned: number;
  turnsCompleted: number;
  failures: string[];
  /** First user message → last final text. */
  wallMs: number;
  /** Completed turns per second of wall time. */
  turnsPerSecond: number;
  /** Turns sent ÷ the span from the first to the last user message. */
  offeredTurnsPerSecond: number;
  toModelMs: Summary;
  toFinalMs: Summary;
  /** Split by first turn (thread + session start) and later turns. */
  toModelFirstTurnMs: Summary;
  toModelLaterTurnsMs: Summary;
  restTotal: number;
  restPerTurn: number;
  restPerTurnByRoute: Record<string, number>;
  peakRestPerSecond: number;
  modelCallsPerTurn: number;
  meanRequestBytes: number;
  /** VmHWM summed over the bot's processes (the launcher and its shard processes when sharded). */
  botPeakRssMb: number;
  /** CPU time (user + system) of the bot's processes during the load phase ÷ completed turns. */
  botCpuMsPerTurn: number;
  /** How many processes the bot ran (1, or the launcher + one per shard). */
  botProcesses: number;
  /** Per process, the bot's own first (the launcher when sharded): VmHWM at the end and CPU per turn. */
  botProcessBreakdown: { pid: number; peakRssMb: number; cpuMsPerTurn: number }[];
  /** The bot process's CPU per turn on its main thread and on its other threads (pool, V8 helpers). */
  botCpuMsPerTurnByThread: { main: number; others: number };
  /** Guilds the people wrote in (1 = the default guild). */
  guilds: number;
  /** One turn by a separate person right after start-up, before the load (not in the figures above). */
  coldTurn: { toModelMs: number; toFinalMs: number } | null;
  samples: TurnSample[];
}

export function tagOf(person: number, turn: number): string {
  return `p${person} t${turn}`;
}

export function answerFor(tag: string, options: Pick<LoadOptions, "replyWords" | "replyChars">): string {
  if (options.replyChars !== undefined) {
    const text = `Answer ${tag}: ${words(Math.ceil(options.replyChars / 4), tag.length)}`;
    return `${text.slice(0, options.replyChars - 1).trimEnd()}.`.padEnd(options.replyChars, ".");
  }
  return `Answer ${tag}: ${words(Math.max(1, options.replyWords - 2), tag.length)}.`;
}

/**
 * N people in concurrent threads × T turns against one bot process, on a fresh fake Discord and
 * bench model. Turn 1 is a mention in the text channel (the bot starts a thread from it); later
 * turns are messages in that thread, each sent `pauseMs` after the previous final answer.
 */
export async function runLoad(kind: BotKind, options: LoadOptions): Promise<LoadResult> {
  const discord = await startFakeDiscord(options.spreadOverShards ? { recommendedShards: options.spreadOverShards } : {});
  const model = await startBenchModel();
  const home = await makeTempDir(`${kind}-home`);
  const spread = options.spreadOverShards ?? 0;
  const guilds =
    spread > 0
      ? Array.from({ length: spread }, (_, i) => discord.addGuild({ name: `bench shard ${i}`, forShard: [i, spread] }))
      : [{ guild: discord.guild, textChannel: discord.textChannel }];
  const watcher = new ReplyWatcher(discord);
  let bot: Awaited<ReturnType<typeof startBot>> | undefined;
  try {
    model.setReplier((_body, tag) => ({
      text: tag ? answerFor(tag, options) : "A short summary.",
      chunkSize: options.chunkSize ?? 4,
      firstTokenDelayMs: tag ? options.ttftMs : 0,
      tokensPerSecond: tag ? options.tokensPerSecond : 0,
    }));
    bot = await startBot(kind, {
      discord,
      model,
      home,
      runtime: options.runtime ?? "compiled",
      gatewaySessions: options.botShards ?? 1,
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    const people = Array.from({ length: options.people }, (_, i) => {
      const user = discord.addUser({ username: `bench${i}`, globalName: `Bench ${i}` });
      if (spread > 0) stateOf(discord).addMember(guilds[i % guilds.length]!.guild.id, user.id, []);
      return user;
    });
    await delay(200);
    // One warm-up turn per guild, so each shard process pays its lazy loading before the load; the first is reported.
    const warmUps: Awaited<ReturnType<typeof warmUp>>[] = [];
    for (const [g, { guild, textChannel }] of guilds.entries()) {
      warmUps.push(
        await warmUp(discord, model, watcher, options, WARM_UP_PERSON + g, spread > 0 ? { guildId: guild.id, channelId: textChannel.id } : undefined),
      );
    }
    const coldTurn = warmUps[0] ?? null;
    const restStart = discord.restRequests.length;
    const samples: TurnSample[] = [];
    const failures: string[] = [];
    const sentTimes: number[] = [];
    let peakRssMb = 0;
    let botProcesses = 1;
    let peaksByPid = new Map<number, number>();
    const rssTimer = setInterval(() => {
      try {
        const memory = treeMemory(bot!.pid);
        peakRssMb = Math.max(peakRssMb, memory.peakRssMb);
        botProcesses = Math.max(botProcesses, memory.processes);
        peaksByPid = new Map([...peaksByPid, ...[...memory.byPid].map(([p, m]) => [p, m.peakRssMb] as const)]);
      } catch {
        // the process is gone; the load will fail on its own
      }
    }, 500);
    const stopAlongside = options.alongside ? await options.alongside({ home }) : undefined;
    const cpuStart = treeCpuMs(bot.pid);
    const threadsStart = threadCpuMs(bot.pid);
    const loadStart = Date.now();

    const runPerson = async (index: number) => {
      const user = people[index]!;
      await delay(options.people > 1 ? Math.round((options.spreadMs * index) / (options.people - 1)) : 0);
      let threadId: string | undefined;
      for (let turn = 1; turn <= options.turns; turn++) {
        const tag = tagOf(index, turn);
        const content = `[${tag}] ${words(8, index + turn)}`;
        const message = await discord.userSends(
          threadId === undefined
            ? { channelId: guilds[index % guilds.length]!.textChannel.id, userId: user.id, content, mentionsBot: true }
            : { channelId: threadId, userId: user.id, content },
        );
        const sentAt = Date.now();
        sentTimes.push(sentAt);
        // Both bots start the thread from the mention, and Discord gives it the message's id.
        threadId ??= message.id;
        let shown;
        try {
          shown = await watcher.expect(threadId, answerFor(tag, options), options.turnTimeoutMs);
        } catch (error) {
          failures.push(`${tag}: ${(error as Error).message}`);
          return;
        }
        const call = model.calls.find((c: ModelCall) => c.tag === tag && c.turn);
        if (!call || call.firstTokenAt === null || call.lastTokenAt === null) {
          failures.push(`${tag}: the model saw no finished streaming request`);
          return;
        }
        samples.push({
          person: index,
          turn,
          sentAt,
          modelReceivedAt: call.receivedAt,
          firstTokenAt: call.firstTokenAt,
          lastTokenAt: call.lastTokenAt,
          firstTextAt: shown.firstTextAt,
          finalAt: shown.finalAt,
          creates: shown.creates,
          edits: shown.edits,
          updates: shown.updates,
        });
        if (turn < options.turns) await delay(options.pauseMs);
      }
    };
    await Promise.all(people.map((_, i) => runPerson(i)));
    await stopAlongside?.();
    const loadEnd = samples.reduce((last, s) => Math.max(last, s.finalAt), loadStart);
    // Late requests of the last turns (a typing call, a trailing edit) still count.
    await delay(1500);
    const cpuEnd = treeCpuMs(bot.pid);
    const threadsEnd = threadCpuMs(bot.pid);
    const cpuMs = cpuMsBetween(cpuStart, cpuEnd);
    clearInterval(rssTimer);
    const requests = discord.restRequests.slice(restStart);
    const turnsCompleted = samples.length;
    const byRoute: Record<string, number> = {};
    for (const r of requests) byRoute[`${r.method} ${r.route ?? r.path}`] = (byRoute[`${r.method} ${r.route ?? r.path}`] ?? 0) + 1;
    const perTurn = (n: number) => (turnsCompleted === 0 ? Number.NaN : n / turnsCompleted);
    const warmUpTags = new Set(guilds.map((_, g) => tagOf(WARM_UP_PERSON + g, 1)));
    const turnCalls = model.calls.filter((c) => c.tag !== null && !warmUpTags.has(c.tag));
    const firstSent = Math.min(...sentTimes);
    const lastSent = Math.max(...sentTimes);
    return {
      bot: kind,
      runtime: options.runtime ?? "compiled",
      turnsPlanned: options.people * options.turns,
      turnsCompleted,
      failures,
      wallMs: loadEnd - loadStart,
      turnsPerSecond: turnsCompleted / ((loadEnd - loadStart) / 1000),
      offeredTurnsPerSecond: sentTimes.length > 1 ? (sentTimes.length - 1) / ((lastSent - firstSent) / 1000) : Number.NaN,
      toModelMs: summarize(samples.map((s) => s.modelReceivedAt - s.sentAt)),
      toFinalMs: summarize(samples.map((s) => s.finalAt - s.lastTokenAt)),
      toModelFirstTurnMs: summarize(samples.filter((s) => s.turn === 1).map((s) => s.modelReceivedAt - s.sentAt)),
      toModelLaterTurnsMs: summarize(samples.filter((s) => s.turn > 1).map((s) => s.modelReceivedAt - s.sentAt)),
      restTotal: requests.length,
      restPerTurn: perTurn(requests.length),
      restPerTurnByRoute: Object.fromEntries(
        Object.entries(byRoute)
          .sort(([, a], [, b]) => b - a)
          .map(([route, n]) => [route, perTurn(n)]),
      ),
      peakRestPerSecond: peakInWindow(
        requests.map((r) => r.at),
        1000,
      ),
      modelCallsPerTurn: perTurn(turnCalls.length),
      meanRequestBytes: turnCalls.reduce((sum, c) => sum + c.requestBytes, 0) / Math.max(1, turnCalls.length),
      botPeakRssMb: peakRssMb,
      botCpuMsPerTurn: perTurn(cpuMs),
      botProcesses,
      botCpuMsPerTurnByThread: { main: perTurn(threadsEnd.main - threadsStart.main), others: perTurn(threadsEnd.others - threadsStart.others) },
      botProcessBreakdown: [...peaksByPid].map(([pid, peak]) => ({
        pid,
        peakRssMb: peak,
        cpuMsPerTurn: perTurn((cpuEnd.get(pid) ?? 0) - (cpuStart.get(pid) ?? 0)),
      })),
      guilds: guilds.length,
      coldTurn,
      samples,
    };
  } finally {
    watcher.close();
    await bot?.stop();
    await model.close();
    await discord.close();
    removeTempDir(home);
  }
}

/** The first turn after start-up pays for lazy loading (modules, JIT); it is measured apart. */
async function warmUp(
  discord: FakeDiscord,
  model: BenchModel,
  watcher: ReplyWatcher,
  options: LoadOptions,
  person = WARM_UP_PERSON,
  where?: { guildId: string; channelId: string },
): Promise<{ toModelMs: number; toFinalMs: number } | null> {
  const user = discord.addUser({ username: `warmup${person}`, globalName: "Warm Up" });
  if (where) stateOf(discord).addMember(where.guildId, user.id, []);
  const tag = tagOf(person, 1);
  const message = await discord.userSends({
    channelId: where?.channelId ?? discord.textChannel.id,
    userId: user.id,
    content: `[${tag}] ${words(8)}`,
    mentionsBot: true,
  });
  const sentAt = Date.now();
  const shown = await watcher.expect(message.id, answerFor(tag, options), options.turnTimeoutMs);
  const call = model.calls.find((c) => c.tag === tag && c.turn);
  await delay(500);
  if (!call || call.lastTokenAt === null) return null;
  return { toModelMs: call.receivedAt - sentAt, toFinalMs: shown.finalAt - call.lastTokenAt };
}

const WARM_UP_PERSON = 900_000;

/** The fake keeps its state private; the bench adds the people to the shard guilds straight in it. */
function stateOf(discord: FakeDiscord): FakeDiscordState {
  return (discord as unknown as { state: FakeDiscordState }).state;
}
