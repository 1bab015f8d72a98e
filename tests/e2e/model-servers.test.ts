import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { llamaCpp, ollamaWithoutTools, type ServerMode } from "../fakes/model-servers.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { runToEnd, runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

/**
 * What a person and the operator see with the model servers people run, through the bot's own
 * process (npm start) and the terminal chat: one line for the person in their language, the
 * server's reason and its fix in the operator's log, and never "try again" for what cannot change.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function fakes(server: ServerMode): Promise<{ discord: FakeDiscord; model: FakeOpenAI; home: string }> {
  const discord = await startFakeDiscord();
  const model = await startFakeOpenAI({ server });
  closers.push(
    () => discord.close(),
    () => model.close(),
  );
  return { discord, model, home: await makeTempHome() };
}

/** The bot's JSON log lines (pino) at warn and above. */
const logLines = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function mention(discord: FakeDiscord, content: string, answer: (text: string) => boolean) {
  const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content, mentionsBot: true });
  return { start, reply: await discord.waitFor(() => botMessages(discord, start.id).find((m) => answer(m.content)), 10_000, "the answer") };
}

describe("the bot with a model that cannot call tools (Ollama, llava)", () => {
  it("answers, tells the person once that it cannot save, and logs the server's reason with the fix once", async () => {
    const { discord, model, home } = await fakes(ollamaWithoutTools("llava"));
    model.setFallback({ text: "Hello! Oolong is a fine choice." });
    const bot = runTsx("src/index.ts", [], { ...botEnv(discord, model, home), OPENAI_MODEL: "llava", LOG_LEVEL: "warn", LOG_PRETTY: "false" });
    closers.push(async () => void bot.child.kill("SIGTERM"));
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in");

    const { start, reply } = await mention(discord, "I like oolong tea", (text) => text.startsWith("Hello!"));
    await discord.waitFor(() => (discord.message(reply.id)!.content.includes("💾") ? true : undefined), 5_000, "the final edit");
    expect(discord.message(reply.id)!.content).toBe(
      "Hello! Oolong is a fine choice.\n-# 💾 This model can't save to memory, so I won't remember this by myself: /memory add saves what you want kept.",
    );
    // Once per conversation: the next answer in the thread has no such line, and costs no refused request.
    await discord.userSends({ channelId: start.id, userId: discord.alice.id, content: "And green tea?" });
    const second = await discord.waitFor(() => botMessages(discord, start.id).filter((m) => m.content.startsWith("Hello!"))[1], 10_000, "the second answer");
    await new Promise((r) => setTimeout(r, 300));
    expect(discord.message(second.id)!.content).toBe("Hello! Oolong is a fine choice.");
    // Refused, then a probe with nothing of anyone's ("ping") refused the same way: learned for the process.
    expect(model.requests.map((r) => [Boolean(r.body.tools), r.refused?.status, r.body.max_tokens])).toEqual([
      [true, 400, undefined],
      [true, 400, 1],
      [false, undefined, undefined],
      [false, undefined, undefined],
    ]);

    const notices = logLines(bot.stdout()).filter((line) => line.action === "without-tools");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      refusal: "no-tools",
      status: 400,
      model: "llava",
      reason: "registry.ollama.ai/library/llava:latest does not support tools",
    });
    expect(String(notices[0]!.msg)).toMatch(/does not support tools.*Pick a model with tool support, e\.g\. qwen3/);
  }, 40_000);

  it("says it in Chinese to a person who chose Chinese", async () => {
    const { discord, model, home } = await fakes(ollamaWithoutTools("gemma3"));
    await mkdir(join(home, "users", discord.alice.id), { recursive: true });
    await writeFile(join(home, "users", discord.alice.id, "settings.json"), JSON.stringify({ locale: "zh-CN" }));
    model.setFallback({ text: "你好！" });
    const bot = runTsx("src/index.ts", [], { ...botEnv(discord, model, home), LOG_LEVEL: "warn" });
    closers.push(async () => void bot.child.kill("SIGTERM"));
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in");
    const { reply } = await mention(discord, "我喜欢乌龙茶", (text) => text.startsWith("你好"));
    await discord.waitFor(() => (discord.message(reply.id)!.content.includes("💾") ? true : undefined), 5_000, "the final edit");
    expect(discord.message(reply.id)!.content).toBe("你好！\n-# 💾 这个模型不能保存记忆，所以我不会自己记住这些：想保留的内容可以用 /memory add 保存。");
  }, 40_000);
});

describe("the bot with a server whose context is smaller than AgentKit was told", () => {
  it("gives the person one line that does not say try again, and the operator the server's reason and the fix", async () => {
    const { discord, model, home } = await fakes(llamaCpp({ contextTokens: 1_500 }));
    model.setFallback({ text: "never sent" });
    const bot = runTsx("src/index.ts", [], { ...botEnv(discord, model, home), LOG_LEVEL: "warn", OPENAI_CONTEXT_TOKENS: "4096" });
    closers.push(async () => void bot.child.kill("SIGTERM"));
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in");
    // At start: the memory files at their caps and the tool schemas take more than a quarter of 4096.
    await discord.waitFor(() => (logLines(bot.stdout()).some((l) => l.contextTokens === 4096) ? true : undefined), 5_000, "the context warning");
    expect(String(logLines(bot.stdout()).find((l) => l.contextTokens === 4096)!.msg)).toMatch(/^OPENAI_CONTEXT_TOKENS is 4096: .* OLLAMA_CONTEXT_LENGTH=32768/);

    const { reply } = await mention(discord, "hi", (text) => text.startsWith("⚠️"));
    expect(reply.content).toBe(
      "⚠️ This conversation no longer fits in what the model can read at once. End it with /end and write again to start a new one; the bot's operator can give the model a longer context.",
    );
    expect(reply.content).not.toMatch(/try again/i);
    // Refused once: a refusal is never retried.
    expect(model.requests).toHaveLength(1);
    // The log line reaches the pipe when the bot writes it, which may be after the reply reached Discord.
    const failed = await discord.waitFor(() => logLines(bot.stdout()).find((l) => l.refusal === "context"), 5_000, "the operator's log line");
    expect(failed).toMatchObject({ status: 400, kind: "refused" });
    expect(String(failed.reason)).toMatch(/^request \(\d+ tokens\) exceeds the available context size \(1500 tokens\), try increasing it$/);
    expect(String(failed.msg)).toMatch(/OLLAMA_CONTEXT_LENGTH; llama\.cpp: -c; vLLM: --max-model-len/);
  }, 40_000);
});

describe("the terminal chat with a model that cannot call tools", () => {
  it("shows the operator's notice with the fix, answers, and says once that nothing is saved by the model", async () => {
    const model = await startFakeOpenAI({ server: ollamaWithoutTools("llama3.2-vision") });
    closers.push(() => model.close());
    model.setFallback((request) =>
      String(request.body.messages[0]!.content).startsWith("You write entries") ? { text: "They said hello." } : { text: "Nice to meet you." },
    );
    const home = await makeTempHome();
    const run = await runToEnd("src/cli/chat.ts", ["--user", "42"], "hello\nhello again\n/end\n", {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_MODEL: "llama3.2-vision",
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^⚠️ The model server at http:\/\/127\.0\.0\.1:\d+\/v1 refused a request for llama3\.2-vision: “registry\.ollama\.ai\/library\/llama3\.2-vision:latest does not support tools”\. AgentKit now answers without memory tools\. The model llama3\.2-vision does not support tools/,
    );
    expect(run.stdout.match(/This model can't save to memory/g)).toHaveLength(1);
    expect(run.stdout.match(/Nice to meet you\./g)).toHaveLength(2);
  }, 30_000);
});
