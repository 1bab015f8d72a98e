// Scratch: one person's turns against the compiled bot, strace around chosen turns.
import { spawn } from "node:child_process";
import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { startBenchModel, words } from "./model-server.js";
import { startBot } from "./bots.js";
import { ReplyWatcher } from "./discord-watch.js";
import { makeTempDir, delay } from "./processes.js";
import { answerFor, tagOf } from "./load.js";
const kind = (process.argv[2] ?? "agentkit") as "agentkit" | "floor";
const traceTurns = new Set((process.argv[3] ?? "3").split(",").map(Number));
const opts = { replyWords: 12 } as const;
const discord = await startFakeDiscord({});
const model = await startBenchModel();
model.setReplier((_b, tag) => ({ text: tag ? answerFor(tag, opts) : "A short summary.", chunkSize: 4, firstTokenDelayMs: 0, tokensPerSecond: 0 }));
const home = await makeTempDir(`${kind}-home`);
const bot = await startBot(kind, { discord, model, home, runtime: "compiled", gatewaySessions: 1 });
const watcher = new ReplyWatcher(discord);
await delay(500);
for (let p = 0; p < 3; p++) {
  const user = discord.addUser({ username: `u${p}`, globalName: `U ${p}` });
  let threadId: string | undefined;
  for (let turn = 1; turn <= 5; turn++) {
    const tag = tagOf(p, turn);
    let tracer: ReturnType<typeof spawn> | undefined;
    if (p === 2 && traceTurns.has(turn)) {
      tracer = spawn("strace", ["-f", "-tt", "-p", String(bot.pid), "-o", `/tmp/one-${kind}-t${turn}.txt`], { stdio: "ignore" });
      await delay(700);
    }
    const m = await discord.userSends(threadId === undefined ? { channelId: discord.textChannel.id, userId: user.id, content: `[${tag}] ${words(8, turn)}`, mentionsBot: true } : { channelId: threadId, userId: user.id, content: `[${tag}] ${words(8, turn)}` });
    threadId ??= m.id;
    await watcher.expect(threadId, answerFor(tag, opts), 10000);
    await delay(300);
    if (tracer) { tracer.kill("SIGINT"); await delay(300); }
    await delay(200);
  }
}
await bot.stop();
process.exit(0);
