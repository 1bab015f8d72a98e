import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { startBot, type BotKind, type Runtime } from "./bots.js";
import { ReplyWatcher } from "./discord-watch.js";
import { answerFor, tagOf } from "./load.js";
import { startBenchModel, words } from "./model-server.js";
import { delay, makeTempDir, removeTempDir, threadCpuMs } from "./processes.js";
import { summarize, type Summary } from "./stats.js";

export interface TurnCpuOptions {
  /** New people per round, one turn each (openings). */
  openings: number;
  /** People per round whose later turns are measured, `laterTurns` each after their first. */
  laterPeople: number;
  laterTurns: number;
  /** Rounds, AgentKit and the floor in turn: the figures are the rounds' medians. */
  rounds: number;
  turnTimeoutMs: number;
  runtime?: Runtime;
  nodeArgs?: string[];
}

/** CPU per turn of one kind of turn (ms, user+sys), over the rounds. */
interface CpuFigures {
  total: Summary;
  main: Summary;
  others: Summary;
}

export interface TurnCpuResult {
  agentkit: { openings: CpuFigures; later: CpuFigures };
  floor: { openings: CpuFigures; later: CpuFigures };
  options: Omit<TurnCpuOptions, "nodeArgs">;
}

/** People talking at once: enough to keep both bots busy, few enough that no turn waits on another's. */
const AT_ONCE = 4;
const REPLY = { replyWords: 12 } as const;

/**
 * Section 1b: the CPU a turn costs, without the load's pauses. The load (section 1) spreads 250
 * turns over 20 s, so its CPU per turn carries what a bot spends between turns (V8 settling after
 * start-up, timers), and moves ±0.5 ms between runs. Here turns follow each other, a few people at
 * a time, and two kinds are measured apart: a new person's first turn (the opening: a thread, the
 * snapshot with the default persona, the first save) and the later turns of a session.
 */
export async function measureTurnCpu(options: TurnCpuOptions): Promise<TurnCpuResult> {
  const runs: Record<BotKind, { openings: Sample[]; later: Sample[] }> = { agentkit: { openings: [], later: [] }, floor: { openings: [], later: [] } };
  for (let round = 0; round < options.rounds; round++) {
    for (const kind of ["agentkit", "floor"] as const) {
      const sample = await oneRound(kind, options);
      runs[kind].openings.push(sample.openings);
      runs[kind].later.push(sample.later);
    }
  }
  const figures = (samples: Sample[]): CpuFigures => ({
    total: summarize(samples.map((s) => s.main + s.others)),
    main: summarize(samples.map((s) => s.main)),
    others: summarize(samples.map((s) => s.others)),
  });
  const { nodeArgs: _, ...shown } = options;
  return {
    agentkit: { openings: figures(runs.agentkit.openings), later: figures(runs.agentkit.later) },
    floor: { openings: figures(runs.floor.openings), later: figures(runs.floor.later) },
    options: shown,
  };
}

interface Sample {
  main: number;
  others: number;
}

async function oneRound(kind: BotKind, options: TurnCpuOptions): Promise<{ openings: Sample; later: Sample }> {
  const discord = await startFakeDiscord({});
  const model = await startBenchModel();
  const home = await makeTempDir(`${kind}-cpu-home`);
  let bot: Awaited<ReturnType<typeof startBot>> | undefined;
  try {
    model.setReplier((_body, tag) => ({ text: tag ? answerFor(tag, REPLY) : "A short summary.", chunkSize: 4, firstTokenDelayMs: 0, tokensPerSecond: 0 }));
    bot = await startBot(kind, { discord, model, home, runtime: options.runtime ?? "compiled", ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}) });
    const watcher = new ReplyWatcher(discord);
    const pid = bot.pid;
    let person = 0;
    const threads = new Map<number, string>();
    const turn = async (index: number, n: number) => {
      const tag = tagOf(index, n);
      const threadId = threads.get(index);
      const message = await discord.userSends(
        threadId === undefined
          ? { channelId: discord.textChannel.id, userId: userOf(index), content: `[${tag}] ${words(8, n)}`, mentionsBot: true }
          : { channelId: threadId, userId: userOf(index), content: `[${tag}] ${words(8, n)}` },
      );
      if (threadId === undefined) threads.set(index, message.id);
      await watcher.expect(threads.get(index)!, answerFor(tag, REPLY), options.turnTimeoutMs);
    };
    const users = new Map<number, string>();
    const userOf = (index: number) => users.get(index)!;
    const newPeople = (count: number) =>
      Array.from({ length: count }, () => {
        const index = person++;
        users.set(index, discord.addUser({ username: `cpu${index}`, globalName: `Cpu ${index}` }).id);
        return index;
      });
    const inGroups = async (people: number[], work: (index: number) => Promise<void>) => {
      for (let i = 0; i < people.length; i += AT_ONCE) await Promise.all(people.slice(i, i + AT_ONCE).map(work));
    };
    // Warm-up: each code path runs before anything is counted.
    await inGroups(newPeople(2 * AT_ONCE), async (index) => {
      for (let n = 1; n <= 4; n++) await turn(index, n);
    });
    await delay(200);
    const perTurn = (before: Sample, after: Sample, turns: number): Sample => ({
      main: (after.main - before.main) / turns,
      others: (after.others - before.others) / turns,
    });

    const beforeOpenings = threadCpuMs(pid);
    await inGroups(newPeople(options.openings), (index) => turn(index, 1));
    const openings = perTurn(beforeOpenings, threadCpuMs(pid), options.openings);

    const later = newPeople(options.laterPeople);
    await inGroups(later, (index) => turn(index, 1));
    await delay(200);
    const beforeLater = threadCpuMs(pid);
    await inGroups(later, async (index) => {
      for (let n = 2; n <= options.laterTurns + 1; n++) await turn(index, n);
    });
    return { openings, later: perTurn(beforeLater, threadCpuMs(pid), options.laterPeople * options.laterTurns) };
  } finally {
    await bot?.stop();
    await discord.close();
    await model.close();
    removeTempDir(home);
  }
}
