import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { repoRoot, runTsx } from "../helpers/child-process.js";
import { startFakes } from "../helpers/fakes.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function run(script: string, env: Record<string, string>, args: string[] = []) {
  const started = runTsx(script, args, env);
  return { ...started, output: () => started.stdout() + started.stderr() };
}

describe("the bot process (npm start)", () => {
  it("registers the commands globally when DISCORD_GUILD_ID is not set", async () => {
    const { discord, model, home } = await startFakes();
    const { DISCORD_GUILD_ID: _guild, ...env } = botEnv(discord, model, home);
    const deploy = run("src/deploy-commands.ts", env);
    expect(await deploy.exited).toBe(0);
    expect(deploy.output()).toMatch(/for all servers and DMs \(global/);
    expect(discord.commands.global.map((c) => c.name)).toEqual(["chat", "end", "onboard", "memory", "server-notes"]);
    expect(discord.commands.byGuild.get(discord.guild.id)).toBeUndefined();
  }, 20_000);

  it("deploy-commands says when a server also has the global commands, clears them on request, and names the setting Discord refused", async () => {
    const { discord, model, home } = await startFakes();
    const { DISCORD_GUILD_ID: _guild, ...globalEnv } = botEnv(discord, model, home);
    expect(await run("src/deploy-commands.ts", globalEnv).exited).toBe(0);
    const guild = run("src/deploy-commands.ts", botEnv(discord, model, home));
    expect(await guild.exited).toBe(0);
    expect(guild.output()).toMatch(
      /registered globally too, so that server shows each command twice\. To keep only the server's: npm run deploy-commands -- --clear-global/,
    );
    const clear = runTsx("src/deploy-commands.ts", ["--clear-global"], globalEnv);
    expect(await clear.exited).toBe(0);
    expect(discord.commands.global).toEqual([]);
    const again = run("src/deploy-commands.ts", botEnv(discord, model, home));
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toMatch(/globally too/);
    const wrong = run("src/deploy-commands.ts", { ...globalEnv, DISCORD_TOKEN: "not.the.token" });
    expect(await wrong.exited).toBe(1);
    expect(wrong.output().trim()).toBe(
      "Could not register the commands: Discord refused DISCORD_TOKEN (401): copy it again from the Developer Portal (Bot → Reset Token)",
    );
    // --help registers nothing, and a mistyped option is refused before anything is sent.
    const commandsBefore = JSON.stringify(discord.commands);
    const help = run("src/deploy-commands.ts", globalEnv, ["--help"]);
    expect(await help.exited).toBe(0);
    expect(help.output()).toMatch(/^Usage: npm run deploy-commands \[-- --clear-global\]/);
    const typo = run("src/deploy-commands.ts", globalEnv, ["--clear-globals"]);
    expect(await typo.exited).toBe(2);
    expect(typo.output().trim()).toBe('unknown option "--clear-globals"; the only one is --clear-global (npm run deploy-commands -- --help)');
    expect(JSON.stringify(discord.commands)).toBe(commandsBefore);
  }, 60_000);

  it("starts when every variable of .env.example is present but empty, and ignores a stray SHARDS outside a shard", async () => {
    const { discord, model, home } = await startFakes();
    const names = [...readFileSync(join(repoRoot, ".env.example"), "utf8").matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]!);
    expect(names).toContain("SHARD_COUNT");
    const empty = Object.fromEntries(names.map((name) => [name, ""]));
    const bot = run("src/index.ts", { ...empty, ...botEnv(discord, model, home), SHARDS: "not-json", LOG_LEVEL: "warn" });
    await discord.waitFor(() => discord.openGatewaySessions > 0 || bot.child.exitCode !== null, 15_000, "the bot to log in");
    expect(bot.child.exitCode, bot.output()).toBeNull();
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toBe(0);
  }, 30_000);

  it("refuses a second bot on the same AGENTKIT_HOME with one line, and starts again once the first stopped", async () => {
    const { discord, model, home } = await startFakes();
    const env = { ...botEnv(discord, model, home), LOG_LEVEL: "warn" };
    const first = run("src/index.ts", { ...env, LOG_LEVEL: "info" });
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the first bot to log in");
    const second = run("src/index.ts", env);
    // Each wait is bounded and says which step did not end, with what the bots wrote (one Node 24 run
    // of CI timed this test out once at 60 s, and could not say where).
    const within = async <T>(step: string, work: Promise<T>, ms: number): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const said = (name: string, bot: { output(): string }) => `${name} wrote:\n${bot.output().slice(-2_000)}`;
          reject(
            new Error(
              `${step}: not within ${ms} ms (gateway sessions open: ${discord.openGatewaySessions})\n${said("the first bot", first)}\n${said("the second bot", second)}`,
            ),
          );
        }, ms);
      });
      try {
        return await Promise.race([work, late]);
      } finally {
        clearTimeout(timer);
      }
    };
    expect(await within("the second bot's exit", second.exited, 20_000)).toBe(1);
    expect(second.output().trim()).toMatch(
      /^AgentKit could not start: An AgentKit bot is already running on .+ \(bot\.lock\): stop it first; to run several processes, use SHARD_COUNT$/,
    );
    expect(discord.openGatewaySessions).toBe(1);
    first.child.kill("SIGTERM");
    expect(await within("the first bot's exit after SIGTERM", first.exited, 15_000)).toBe(0);
    const third = run("src/index.ts", env);
    await discord.waitFor(() => discord.openGatewaySessions > 0 || third.child.exitCode !== null, 15_000, "a bot to log in after the first stopped");
    expect(third.child.exitCode, third.output()).toBeNull();
    third.child.kill("SIGTERM");
    expect(await within("the third bot's exit after SIGTERM", third.exited, 15_000)).toBe(0);
  }, 90_000);

  it("exits 1 with one clear line when DISCORD_TOKEN is missing, and a hint when there is no .env at all", async () => {
    const bot = run("src/index.ts", { DISCORD_CLIENT_ID: "123", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(await bot.exited).toBe(1);
    // Run where there is no .env (tests run outside the checkout): the second line says so.
    expect(bot.output().trim().split("\n")).toEqual([
      expect.stringMatching(/^Configuration: DISCORD_TOKEN: is required/),
      expect.stringMatching(/^\(there is no \.env in .+: copy \.env\.example to \.env there and fill it in, or run from the folder that has it\)$/),
    ]);
  }, 20_000);

  it("exits 1 with one line that names the setting when Discord refuses the token or the Message Content intent", async () => {
    const { discord, model, home } = await startFakes({ privilegedIntents: false });
    const wrongToken = run("src/index.ts", { ...botEnv(discord, model, home), DISCORD_TOKEN: "not.the.token" });
    expect(await wrongToken.exited).toBe(1);
    expect(wrongToken.output().trim()).toBe(
      "AgentKit could not start: Discord refused DISCORD_TOKEN: copy it again from the Developer Portal (Bot → Reset Token)",
    );
    const noIntent = run("src/index.ts", { ...botEnv(discord, model, home), LOG_LEVEL: "silent" });
    expect(await noIntent.exited).toBe(1);
    expect(noIntent.output().trim()).toBe(
      "AgentKit could not start: Discord refused the Message Content intent (4014): switch on Message Content Intent in the Developer Portal (Bot → Privileged Gateway Intents)",
    );
  }, 30_000);

  it("continues a session with the same system prompt after being killed mid-session", async () => {
    const { discord, model, home } = await startFakes();
    const env = { ...botEnv(discord, model, home), LOG_LEVEL: "warn" };
    const deploy = run("src/deploy-commands.ts", env);
    expect(await deploy.exited).toBe(0);
    expect(deploy.output()).toMatch(/Registered 5 commands \(\/chat, \/end, \/onboard, \/memory, \/server-notes\)/);
    const registered = discord.commands.byGuild.get(discord.guild.id)!;
    expect(registered.find((c) => c.name === "chat")?.name_localizations).toEqual({ "zh-CN": "聊天" });

    const first = run("src/index.ts", env);
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in");
    model.enqueue({ text: "first answer" });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "remember this", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === "first answer"), 10_000);
    first.child.kill("SIGKILL");
    await first.exited;

    const second = run("src/index.ts", env);
    await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the bot to log in again");
    model.enqueue({ text: "second answer" });
    await discord.userSends({ channelId: start.id, userId: discord.alice.id, content: "and now?" });
    await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content === "second answer"), 10_000);
    const [before, after] = model.requests.map((r) => r.body.messages);
    expect(after![0]).toEqual(before![0]);
    expect(after!.slice(1)).toEqual([
      { role: "user", content: "remember this" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "and now?" },
    ]);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 60_000);
});
