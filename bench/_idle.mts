import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { startBenchModel } from "./model-server.js";
import { startBot } from "./bots.js";
import { makeTempDir, delay, threadCpuMs, treeCpuMs, cpuMsBetween } from "./processes.js";
for (const kind of ["agentkit", "floor"] as const) {
  const discord = await startFakeDiscord({});
  const model = await startBenchModel();
  model.setReplier(() => ({ text: "ok fine", chunkSize: 4, firstTokenDelayMs: 0, tokensPerSecond: 0 }));
  const home = await makeTempDir(`${kind}-home`);
  const bot = await startBot(kind, { discord, model, home, runtime: "compiled", gatewaySessions: 1 });
  await delay(3000);
  const a = treeCpuMs(bot.pid); const ta = threadCpuMs(bot.pid);
  await delay(20000);
  const b = treeCpuMs(bot.pid); const tb = threadCpuMs(bot.pid);
  console.log(kind, "idle CPU ms over 20 s:", cpuMsBetween(a, b), "main", tb.main - ta.main, "others", tb.others - ta.others);
  await bot.stop();
  
}
process.exit(0);
