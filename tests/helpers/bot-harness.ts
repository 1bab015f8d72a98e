import { afterThisTest } from "./cleanup.js";
import { createEngine } from "../../src/engine/create-engine.js";
import type { SessionEngine } from "../../src/engine/session-engine.js";
import type { SessionStore } from "../../src/sessions/session-store.js";
import { loadConfig, type Config } from "../../src/config.js";
import { createBot, type Bot } from "../../src/discord/bot.js";
import { registerCommands } from "../../src/discord/register-commands.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { botEnv } from "./bot-env.js";
import { makeTempHome } from "./temp-home.js";

export { botEnv };

export interface BotHarness {
  discord: FakeDiscord;
  model: FakeOpenAI;
  home: string;
  config: Config;
  engine: SessionEngine;
  /** The session store the engine uses (to watch what a message costs it). */
  store: SessionStore;
  bot: Bot;
  /** Stops the bot (as a shutdown would) without stopping the fakes. */
  stop(): Promise<void>;
  /** A new bot process on the same home, fakes and session store. */
  restart(): Promise<BotHarness>;
}

export async function startBot(options: { env?: Record<string, string>; discord?: FakeDiscord; model?: FakeOpenAI; home?: string } = {}): Promise<BotHarness> {
  const discord = options.discord ?? (await startFakeDiscord());
  if (!options.discord) afterThisTest(() => discord.close().catch(() => {}));
  const model = options.model ?? (await startFakeOpenAI());
  if (!options.model) afterThisTest(() => model.close().catch(() => {}));
  const home = options.home ?? (await makeTempHome());
  const config = loadConfig("discord", { ...botEnv(discord, model, home), ...options.env });
  if (discord.commands.byGuild.get(discord.guild.id) === undefined) await registerCommands(config.discord!);
  const parts = await createEngine(config, silentLogger);
  const { engine } = parts;
  const bot = createBot({ config, log: silentLogger, engine });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await bot.stop();
    await parts.close();
  };
  afterThisTest(() => stop().catch(() => {}));
  await bot.start();
  const harness: BotHarness = {
    discord,
    model,
    home,
    config,
    engine,
    store: parts.store,
    bot,
    stop,
    restart: async () => {
      await stop();
      return startBot({ ...options, discord, model, home });
    },
  };
  return harness;
}

/** The bot's own messages in a channel, oldest first. */
export function botMessages(discord: FakeDiscord, channelId: string) {
  return discord.messagesIn(channelId).filter((m) => m.authorId === discord.botUser.id);
}
