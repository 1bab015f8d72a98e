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
  /** Each round's AgentKit ÷ floor, the two measured back to back: less moved by the machine than the medians' ratio. */
  paired: { openings: Summary; later: Summary };
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
 *
 * Both bots run at once and take turns block by block (which goes first alternates by round): a
 * slow moment of a shared machine (another process, the host of a virtual machine) falls on both
 * alike, and each round's ratio compares the two measured back to back. Each round takes new people.
 */
export async function measureTurnCpu(options: TurnCpuOptions): Promise<TurnCpuResult> {
  const runs: Record<BotKind, { openings: Sample[]; later: Sample[] }> = { agentkit: { openings: [], later: [] }, floor: { openings: [], later: [] } };
  const subjects: Partial<Record<BotKind, Subject>> = {};
  try {
    for (const kind of ["agentkit", "floor"] as const) subjects[kind] = await startSubject(kind, options);
    // Warm-up: each code path runs before anything is counted.
    for (const kind of ["agentkit", "floor"] as const) await subjects[kind]!.warmUp();
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (["agentkit", "floor"] as const) : (["floor", "agentkit"] as const);
      for (const kind of order) runs[kind].openings.push(await subjects[kind]!.openings(options.openings));
      for (const kind of order) runs[kind].later.push(await subjects[kind]!.later(options.laterPeople, options.laterTurns));
    }
  } finally {
    for (const subject of Object.values(subjects)) await subject.stop();
  }
  const figures = (samples: Sample[]): CpuFigures => ({
    total: summarize(samples.map((s) => s.main + s.others)),
    main: summarize(samples.map((s) => s.main)),
    others: summarize(samples.map((s) => s.others)),
  });
  const paired = (a: Sample[], f: Sample[]) => summarize(a.map((s, i) => (s.main + s.others) / (f[i]!.main + f[i]!.others)));
  const { nodeArgs: _, ...shown } = options;
  return {
    agentkit: { openings: figures(runs.agentkit.openings), later: figures(runs.agentkit.later) },
    floor: { openings: figures(runs.floor.openings), later: figures(runs.floor.later) },
    paired: { openings: paired(runs.agentkit.openings, runs.floor.openings), later: paired(runs.agentkit.later, runs.floor.later) },
    options: shown,
  };
}

interface Sample {
  main: number;
  others: number;
}

/** One bot with its own fake Discord and model, measured a block of turns at a time. */
interface Subject {
  warmUp(): Promise<void>;
  /** New people's first turns, CPU per turn. */
  openings(people: number): Promise<Sample>;
  /** New people's first turns (not counted), then `turns` more each, CPU per counted turn. */
  later(people: number, turns: number): Promise<Sample>;
  stop(): Promise<void>;
}

async function startSubject(kind: BotKind, options: TurnCpuOptions): Promise<Subject> {
  const discord = await startFakeDiscord({});
  const model = await startBenchModel();
  const home = await makeTempDir(`${kind}-cpu-home`);
  let bot: Awaited<ReturnType<typeof startBot>> | undefined;
  const stop = async () => {
    await bot?.stop();
    await discord.close();
    await model.close();
    removeTempDir(home);
  };
  try {
    model.setReplier((_body, tag) => ({ text: tag ? answerFor(tag, REPLY) : "A short summary.", chunkSize: 4, firstTokenDelayMs: 0, tokensPerSecond: 0 }));
    bot = await startBot(kind, { discord, model, home, runtime: options.runtime ?? "compiled", ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}) });
  } catch (error) {
    await stop();
    throw error;
  }
  const pid = bot.pid;
  const watcher = new ReplyWatcher(discord);
  let person = 0;
  const threads = new Map<number, string>();
  const users = new Map<number, string>();
  const turn = async (index: number, n: number) => {
    const tag = tagOf(index, n);
    const threadId = threads.get(index);
    const message = await discord.userSends(
      threadId === undefined
        ? { channelId: discord.textChannel.id, userId: users.get(index)!, content: `[${tag}] ${words(8, n)}`, mentionsBot: true }
        : { channelId: threadId, userId: users.get(index)!, content: `[${tag}] ${words(8, n)}` },
    );
    if (threadId === undefined) threads.set(index, message.id);
    await watcher.expect(threads.get(index)!, answerFor(tag, REPLY), options.turnTimeoutMs);
  };
  const newPeople = (count: number) =>
    Array.from({ length: count }, () => {
      const index = person++;
      users.set(index, discord.addUser({ username: `cpu${index}`, globalName: `Cpu ${index}` }).id);
      return index;
    });
  const inGroups = async (people: number[], work: (index: number) => Promise<void>) => {
    for (let i = 0; i < people.length; i += AT_ONCE) await Promise.all(people.slice(i, i + AT_ONCE).map(work));
  };
  const counted = async (turns: number, work: () => Promise<void>): Promise<Sample> => {
    const before = threadCpuMs(pid);
    await work();
    const after = threadCpuMs(pid);
    return { main: (after.main - before.main) / turns, others: (after.others - before.others) / turns };
  };
  return {
    warmUp: async () => {
      await inGroups(newPeople(2 * AT_ONCE), async (index) => {
        for (let n = 1; n <= 4; n++) await turn(index, n);
      });
      await delay(200);
    },
    openings: (people) => counted(people, () => inGroups(newPeople(people), (index) => turn(index, 1))),
    later: async (people, turns) => {
      const later = newPeople(people);
      await inGroups(later, (index) => turn(index, 1));
      await delay(200);
      return counted(people * turns, () =>
        inGroups(later, async (index) => {
          for (let n = 2; n <= turns + 1; n++) await turn(index, n);
        }),
      );
    },
    stop,
  };
}
