import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { RUNTIMES, startBot, type BotKind, type Runtime } from "./bots.js";
import { startBenchModel } from "./model-server.js";
import { delay, makeTempDir, memoryOf, removeTempDir } from "./processes.js";
import { summarize, type Summary } from "./stats.js";

export interface StartupOptions {
  /** Starts of each bot under each runtime; the order alternates so drift on a shared machine hits both. */
  runs: number;
}

interface StartupFigures {
  /** Spawn → the bot's gateway session open at the fake Discord (READY sent). */
  readyMs: Summary;
  /** VmRSS 1.5 s after login, before any message (as section 4a's idle figure). */
  idleRssMb: Summary;
  /** VmHWM at that moment: the start-up peak. */
  startupPeakRssMb: Summary;
}

export interface StartupResult {
  options: StartupOptions;
  /** By bot, then runtime. */
  figures: Record<BotKind, Record<Runtime, StartupFigures>>;
}

interface Sample {
  readyMs: number;
  idleRssMb: number;
  startupPeakRssMb: number;
}

async function startOnce(kind: BotKind, runtime: Runtime): Promise<Sample> {
  const discord = await startFakeDiscord();
  const model = await startBenchModel();
  const home = await makeTempDir("startup-home");
  let bot: Awaited<ReturnType<typeof startBot>> | undefined;
  try {
    bot = await startBot(kind, { discord, model, home, runtime });
    await delay(1000); // startBot waited 500 ms after login: 1.5 s in all, as section 4a.
    const memory = memoryOf(bot.pid);
    return { readyMs: bot.loggedInAt - bot.spawnedAt, idleRssMb: memory.rssMb, startupPeakRssMb: memory.peakRssMb };
  } finally {
    await bot?.stop();
    await model.close();
    await discord.close();
    removeTempDir(home);
  }
}

/** Section 0: how long each bot takes to log in, and what it weighs idle, run with tsx and compiled. */
export async function measureStartup(options: StartupOptions): Promise<StartupResult> {
  const samples = new Map<string, Sample[]>();
  for (let run = 0; run < options.runs; run++) {
    const order = run % 2 === 0 ? RUNTIMES : [...RUNTIMES].reverse();
    for (const kind of ["agentkit", "floor"] as const) {
      for (const runtime of order) {
        const key = `${kind} ${runtime}`;
        samples.set(key, [...(samples.get(key) ?? []), await startOnce(kind, runtime)]);
      }
    }
  }
  const figuresOf = (kind: BotKind, runtime: Runtime): StartupFigures => {
    const list = samples.get(`${kind} ${runtime}`) ?? [];
    return {
      readyMs: summarize(list.map((s) => s.readyMs)),
      idleRssMb: summarize(list.map((s) => s.idleRssMb)),
      startupPeakRssMb: summarize(list.map((s) => s.startupPeakRssMb)),
    };
  };
  return {
    options,
    figures: {
      agentkit: { tsx: figuresOf("agentkit", "tsx"), compiled: figuresOf("agentkit", "compiled") },
      floor: { tsx: figuresOf("floor", "tsx"), compiled: figuresOf("floor", "compiled") },
    },
  };
}
