// Scratch A/B: per-turn CPU of the bot vs the floor, sequential turns, no pauses.
import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { startBenchModel, words } from "./model-server.js";
import { startBot } from "./bots.js";
import { ReplyWatcher } from "./discord-watch.js";
import { makeTempDir, delay, threadCpuMs } from "./processes.js";
import { answerFor, tagOf } from "./load.js";
const opts = { replyWords: 12 } as const;
const people = Number(process.argv[2] ?? 60), turns = Number(process.argv[3] ?? 5), rounds = Number(process.argv[4] ?? 2);
let base = 0;
async function run(kind: "agentkit" | "floor") {
  const discord = await startFakeDiscord({});
  const model = await startBenchModel();
  model.setReplier((_b, tag) => ({ text: tag ? answerFor(tag, opts) : "A short summary.", chunkSize: 4, firstTokenDelayMs: 0, tokensPerSecond: 0 }));
  const home = await makeTempDir(`${kind}-home`);
  const prof = process.env.PROF_DIR ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${process.env.PROF_DIR}/${kind}`] } : {};
  const bot = await startBot(kind, { discord, model, home, runtime: "compiled", gatewaySessions: 1, ...prof });
  const watcher = new ReplyWatcher(discord);
  await delay(300);
  const session = async (p: number) => {
    const user = discord.addUser({ username: `u${p}`, globalName: `U ${p}` });
    let threadId: string | undefined;
    for (let turn = 1; turn <= turns; turn++) {
      const tag = tagOf(p, turn);
      const m = await discord.userSends(threadId === undefined ? { channelId: discord.textChannel.id, userId: user.id, content: `[${tag}] ${words(8, turn)}`, mentionsBot: true } : { channelId: threadId, userId: user.id, content: `[${tag}] ${words(8, turn)}` });
      threadId ??= m.id;
      await watcher.expect(threadId, answerFor(tag, opts), 10000);
    }
  };
  // warm-up: 20 sessions, 4 at a time
  for (let w = 0; w < 20; w += 4) await Promise.all([0, 1, 2, 3].map((i) => session(base + w + i)));
  base += 1000;
  await delay(300);
  const a = threadCpuMs(bot.pid);
  const t0 = Date.now();
  for (let w = 0; w < people; w += 4) await Promise.all([0, 1, 2, 3].map((i) => session(base + w + i)));
  const b = threadCpuMs(bot.pid);
  base += 1000;
  const n = people * turns;
  await bot.stop();
  await discord.close?.();
  return { main: (b.main - a.main) / n, others: (b.others - a.others) / n, wall: Date.now() - t0 };
}
for (let r = 0; r < rounds; r++) {
  const x = process.env.ONLY_FLOOR ? { main: 1, others: 1, wall: 0 } : await run("agentkit");
  const f = process.env.ONLY_BOT ? { main: 1, others: 1, wall: 0 } : await run("floor");
  const tot = (v: { main: number; others: number }) => v.main + v.others;
  console.log(`agentkit ${tot(x).toFixed(2)} (${x.main.toFixed(2)}/${x.others.toFixed(2)}) floor ${tot(f).toFixed(2)} (${f.main.toFixed(2)}/${f.others.toFixed(2)}) ratio ${(tot(x) / tot(f)).toFixed(2)}  wall ${x.wall}/${f.wall}`);
}
process.exit(0);
