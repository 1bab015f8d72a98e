import { Client, Events, GatewayCloseCodes, GatewayIntentBits, MessageFlags, Partials, type Interaction } from "discord.js";
import type { SessionEngine } from "../engine/session-engine.js";
import type { Config } from "../config.js";
import type { Logger } from "../lib/logger.js";
import { cachedGuildsOwning, refusalLine, restMemberRoles } from "./access.js";
import { Access } from "../lib/access.js";
import type { BotContext, Command } from "./bot-context.js";
import { commands } from "./commands/index.js";
import { componentHandlers } from "./handlers/index.js";
import { routeComponent, type ComponentInteraction } from "./handlers/router.js";
import { Conversations } from "./conversations.js";
import { readTidyState, takeTidyNotice } from "../memory/index.js";
import { sayIn } from "../lib/locale.js";
import { tidyNoticeParts } from "./views/tidy-notice.js";
import { callerOf, inLocale, sayFor } from "./interaction-helpers.js";
import { reconcileSessions } from "./reconcile.js";

export interface BotDeps {
  config: Config;
  log: Logger;
  engine: SessionEngine;
  /** How often pending summaries are retried. */
  retryIntervalMs?: number;
}

export interface Bot {
  client: Client;
  /** Resolves when the closes decided at start-up (archived or deleted threads) have finished. */
  startupCloses(): Promise<void>;
  /** Logs in, reconciles stored sessions; resolves when the bot is ready to answer. */
  start(): Promise<void>;
  /** Stops taking events and waits for turns and closes under way. */
  stop(): Promise<void>;
  /** A tidy-up of this person finished: its notice goes to their DMs now when they chose so. */
  tidied(userId: string): Promise<void>;
}

/** The gateway closed the connection for good before the bot was ready; `code` is Discord's close code. */
export class GatewayRefused extends Error {
  constructor(readonly code: number) {
    super(`Discord closed the gateway connection (${code})`);
  }
}

export function createBot({ config, log, engine, retryIntervalMs = 5 * 60_000 }: BotDeps): Bot {
  const discord = config.discord;
  if (!discord) throw new Error("the Discord settings are missing");
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages],
    // DM channels are not cached before their first message.
    partials: [Partials.Channel],
    allowedMentions: { parse: [] },
    ...(discord.apiUrl ? { rest: { api: discord.apiUrl } } : {}),
  });
  const access = new Access(config, restMemberRoles(client), cachedGuildsOwning(client));
  const conversations = new Conversations({ engine, client, config, log, access });
  const ctx: BotContext = { engine, conversations, config, log, client };
  const byName = new Map(commands.map((c) => [c.data.name, c]));
  const byModal = new Map(commands.filter((c) => c.modalPrefix).map((c) => [c.modalPrefix!, c]));
  let retryTimer: NodeJS.Timeout | undefined;
  let reconciled: Promise<void> = Promise.resolve();

  const guard = (what: string, work: () => Promise<unknown>) => void work().catch((error: unknown) => log.error({ err: error }, `${what} failed`));

  client.on(Events.MessageCreate, (message) => guard("message", () => conversations.onMessage(message)));
  client.on(Events.InteractionCreate, (interaction) => guard("interaction", () => onInteraction(interaction)));
  client.on(Events.ThreadUpdate, (before, after) => {
    if (after.archived && !before.archived) guard("thread archive", () => conversations.closeChannel(after.id, "thread archived", "dm"));
  });
  client.on(Events.ThreadDelete, (thread) => guard("thread delete", () => conversations.closeChannel(thread.id, "thread deleted", "none")));
  client.on(Events.Error, (error) => log.error({ err: error }, "discord client error"));
  // Before the bot is ready a disconnect fails the start with its own line (start()); after, it is worth a warning.
  client.on(Events.ShardDisconnect, (_event, shard) => client.isReady() && log.warn({ shard }, "gateway disconnected"));

  async function onInteraction(interaction: Interaction): Promise<void> {
    let command: Command | undefined;
    const prefix = "customId" in interaction ? (interaction.customId.split(":")[0] ?? "") : "";
    const isComponent = (interaction.isButton() || interaction.isStringSelectMenu() || interaction.isModalSubmit()) && componentHandlers.has(prefix);
    if (interaction.isChatInputCommand()) command = byName.get(interaction.commandName);
    else if (interaction.isModalSubmit()) command = byModal.get(prefix);
    if (!command && !isComponent) return;
    if (!interaction.isRepliable()) return;
    const asked = interaction as Parameters<typeof callerOf>[0];
    const refusal = await access.check(callerOf(asked));
    if (refusal) {
      await interaction.reply({ content: refusalLine(refusal, sayFor(asked)), flags: MessageFlags.Ephemeral });
      return;
    }
    try {
      if (isComponent) await routeComponent(interaction as ComponentInteraction, componentHandlers, ctx);
      else if (interaction.isChatInputCommand()) await command?.execute(interaction, ctx);
      else if (interaction.isModalSubmit()) await command?.submitModal?.(interaction, ctx);
    } catch (error) {
      log.error({ err: error }, "command failed");
      const content = inLocale(
        interaction as Parameters<typeof inLocale>[0],
        "Something went wrong on my side; nothing was lost. Please try again.",
        "我这边出了点问题，没有丢失任何内容。请再试一次。",
      );
      // A button's message is not the bot's answer to overwrite: a private line goes after it.
      if (isComponent && (interaction.deferred || interaction.replied)) await interaction.followUp({ content, flags: MessageFlags.Ephemeral }).catch(() => {});
      else if (interaction.deferred || interaction.replied) await interaction.editReply({ content }).catch(() => {});
      else await interaction.reply({ content, flags: MessageFlags.Ephemeral }).catch(() => {});
    }
  }

  return {
    client,
    startupCloses: () => reconciled,
    async start() {
      // Discord closes for good (a wrong token, intents not switched on): the start fails with the close code instead of waiting.
      let closedWith: number | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        client.once(Events.ClientReady, () => resolve());
        client.once(Events.ShardDisconnect, (event) => {
          closedWith = event.code;
          reject(new GatewayRefused(event.code));
        });
      });
      ready.catch(() => {});
      try {
        await client.login(discord.token);
      } catch (error) {
        // @discordjs/ws rejects the login with a bare Error before discord.js reports the close code.
        if (closedWith === undefined && /disallowed intents/i.test((error as Error).message)) throw new GatewayRefused(GatewayCloseCodes.DisallowedIntents);
        throw closedWith === undefined ? error : new GatewayRefused(closedWith);
      }
      await ready;
      log.info({ user: client.user?.tag }, "logged in");
      const { resumed, closing, closed } = await reconcileSessions(ctx);
      log.info({ resumed, closing }, "sessions reconciled");
      reconciled = closed.then(
        () => log.info({ closed: closing }, "start-up closes finished"),
        (error: unknown) => log.error({ err: String(error) }, "start-up closes failed; they are retried later"),
      );
      retryTimer = setInterval(() => guard("pending summaries", () => engine.retryPendingCloses()), retryIntervalMs);
      retryTimer.unref();
    },
    async tidied(userId) {
      const memory = engine.memoryOf(userId);
      // Not where DMs are off: a button there would be refused, and the notice waits for the next answer instead.
      if (!config.allowDms || memory.readSettings().tidyNotice !== "dm") return;
      const summary = readTidyState(memory.dir).notice;
      if (!summary) return;
      const say = sayIn(memory.readSettings().locale);
      const parts = tidyNoticeParts(userId, summary, say);
      if (parts.lines.length === 0) return;
      try {
        const dm = await (await client.users.fetch(userId)).createDM();
        await dm.send({
          content: parts.lines.map((line) => line.replace(/^-# /, "")).join("\n"),
          components: parts.components,
          allowedMentions: { parse: [] },
        });
        // Taken out only once sent: DMs closed to the bot leave it for the next conversation's first answer.
        await takeTidyNotice(memory.dir);
      } catch (error) {
        log.warn({ err: String(error) }, "could not send the tidy-up notice by DM; it waits for the next conversation");
      }
    },
    async stop() {
      clearInterval(retryTimer);
      client.removeAllListeners(Events.MessageCreate);
      client.removeAllListeners(Events.InteractionCreate);
      await reconciled.catch(() => {});
      await conversations.drain();
      await engine.settle();
      await client.destroy();
    },
  };
}
