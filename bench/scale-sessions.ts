import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { startBot, type BotKind, type Runtime } from "./bots.js";
import { ReplyWatcher } from "./discord-watch.js";
import { answerFor, tagOf } from "./load.js";
import { startBenchModel, words } from "./model-server.js";
import { delay, makeTempDir, memoryOf, removeTempDir, type MemoryStatus } from "./processes.js";

export interface SessionsRssOptions {
  bot: BotKind;
  sessions: number;
  /** Mentions in flight at once. */
  concurrency: number;
  turnTimeoutMs: number;
  nodeArgs?: string[];
  /** Default compiled. */
  runtime?: Runtime;
}

export interface SessionsRssResult {
  options: SessionsRssOptions;
  opened: number;
  failures: string[];
  /** After login, before any session. */
  idle: MemoryStatus;
  /** After the last session answered and 2 s of quiet. */
  loaded: MemoryStatus;
  /** Highest VmRSS sampled during the load (every 250 ms). */
  sampledPeakRssMb: number;
  durationMs: number;
  /** AgentKit only; 0 for the floor. */
  sessionStoreMb: number;
  /** (VmRSS after − VmRSS idle) ÷ sessions, KB. */
  rssPerSessionKb: number;
}

/**
 * Opens `sessions` sessions through Discord (each a mention by a different person, so each is a
 * new thread and, for AgentKit, a new person folder with SOUL.md and a stored session),
 * `concurrency` at a time, and reads the bot process's VmRSS / VmHWM from /proc. Run against the
 * floor too, it tells what discord.js's own caches (threads, messages, users) weigh.
 */
export async function measureSessionsRss(options: SessionsRssOptions): Promise<SessionsRssResult> {
  const discord = await startFakeDiscord();
  const model = await startBenchModel();
  const home = await makeTempDir("rss-home");
  const watcher = new ReplyWatcher(discord);
  let bot: Awaited<ReturnType<typeof startBot>> | undefined;
  try {
    model.setReplier((_body, tag) => ({ text: tag ? answerFor(tag, { replyWords: 12 }) : "A short summary." }));
    const users = Array.from({ length: options.sessions }, (_, i) => discord.addUser({ username: `rss${i}`, globalName: `Rss ${i}` }));
    bot = await startBot(options.bot, {
      discord,
      model,
      home,
      runtime: options.runtime ?? "compiled",
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    });
    await delay(1500);
    const idle = memoryOf(bot.pid);
    let sampledPeakRssMb = idle.rssMb;
    const sampler = setInterval(() => {
      try {
        sampledPeakRssMb = Math.max(sampledPeakRssMb, memoryOf(bot!.pid).rssMb);
      } catch {
        // exited; reported below
      }
    }, 250);
    const failures: string[] = [];
    let next = 0;
    let opened = 0;
    const started = Date.now();
    const worker = async () => {
      for (let i = next++; i < options.sessions && failures.length < 20; i = next++) {
        const tag = tagOf(i, 1);
        const message = await discord.userSends({
          channelId: discord.textChannel.id,
          userId: users[i]!.id,
          content: `[${tag}] ${words(8, i)}`,
          mentionsBot: true,
        });
        try {
          await watcher.expect(message.id, answerFor(tag, { replyWords: 12 }), options.turnTimeoutMs);
          opened++;
        } catch (error) {
          failures.push(`${tag}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
    const durationMs = Date.now() - started;
    await delay(2000);
    clearInterval(sampler);
    const loaded = memoryOf(bot.pid);
    const store = join(home, "sessions.sqlite");
    const sessionStoreMb = existsSync(store) ? statSync(store).size / 1024 / 1024 : 0;
    return {
      options,
      opened,
      failures,
      idle,
      loaded,
      sampledPeakRssMb: Math.max(sampledPeakRssMb, loaded.rssMb),
      durationMs,
      sessionStoreMb,
      rssPerSessionKb: opened > 0 ? ((loaded.rssMb - idle.rssMb) * 1024) / opened : Number.NaN,
    };
  } finally {
    watcher.close();
    await bot?.stop();
    await model.close();
    await discord.close();
    removeTempDir(home);
  }
}
