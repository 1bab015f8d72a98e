import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI } from "../fakes/fake-openai.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { eventually } from "../helpers/eventually.js";
import { runTsx, type TsxProcess } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startBotProcess(env: Record<string, string>): TsxProcess {
  return runTsx("src/index.ts", [], { ...env, LOG_LEVEL: "error" });
}

describe("the bot killed while summarising", () => {
  it("writes the summary and the conversation file exactly once after the restart", async () => {
    const discord = await startFakeDiscord();
    const model = await startFakeOpenAI();
    cleanups.push(
      () => discord.close(),
      () => model.close(),
    );
    const home = await makeTempHome();
    const env = botEnv(discord, model, home);
    const { registerCommands } = await import("../../src/discord/register-commands.js");
    const { loadConfig } = await import("../../src/config.js");
    await registerCommands(loadConfig("discord", env).discord!);

    const first = startBotProcess(env);
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000);
    model.enqueue({ text: "an answer" });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hello", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === "an answer"), 10_000);

    // The summary request hangs: the bot is killed while it waits for it.
    model.enqueue({ text: "never delivered", firstTokenDelayMs: 60_000 });
    discord.runSlashCommand({ userId: discord.alice.id, channelId: start.id, name: "end" });
    await eventually(async () => model.requests.some((r) => !r.body.tools), 10_000, "the summary request");
    first.child.kill("SIGKILL");
    await first.exited;
    // The transcript was written before the summary was asked for.
    const conversations = join(home, "users", discord.alice.id, "conversations");
    const [archived] = await readdir(conversations);
    const transcript = await readFile(join(conversations, archived!), "utf8");
    expect(transcript).toMatch(/## 🧑 Alice\nhello\n\n-# 🔗 \d+\/\d+\n\n## 🤖 Assistant\nan answer\n/);

    model.setFallback({ text: "Alice said hello." });
    startBotProcess(env);
    const logPath = join(home, "users", discord.alice.id, "daily", `${new Date().toISOString().slice(0, 10)}.md`);
    await eventually(() => readFile(logPath, "utf8").catch(() => ""), 20_000, "the daily log");
    await new Promise((r) => setTimeout(r, 1500));
    const log = await readFile(logPath, "utf8");
    expect(log.match(/Alice said hello\./g)).toHaveLength(1);
    expect(log).not.toContain("never delivered");
    expect(await readdir(conversations)).toEqual([archived]);
    expect(await readFile(join(conversations, archived!), "utf8")).toBe(transcript);
  }, 60_000);
});
