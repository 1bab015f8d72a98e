import { DiscordAPIError, RESTJSONErrorCodes } from "discord.js";
import type { BotContext } from "./bot-context.js";

/** Codes meaning the thread is gone for good, or no longer ours to see. */
const GONE = new Set<number>([RESTJSONErrorCodes.UnknownChannel, RESTJSONErrorCodes.MissingAccess]);

/**
 * At start-up: sessions whose thread was archived or deleted while the bot was away are
 * closed (and summarised); DM sessions get their idle timers back; pending closes are retried.
 */
export async function reconcileSessions(ctx: BotContext): Promise<{ closed: number; resumed: number }> {
  let closed = 0;
  let resumed = 0;
  for await (const record of ctx.engine.openSessions()) {
    if (record.channel.platform !== "discord") continue;
    const channelId = record.channel.channelId;
    if (record.channel.guildId === undefined) {
      ctx.conversations.scheduleIdleClose(record);
      resumed++;
      continue;
    }
    // Active threads arrive with the guilds at login; only the others need a REST look-up.
    const cached = ctx.client.channels.cache.get(channelId);
    if (cached?.isThread() && !cached.archived) {
      resumed++;
      continue;
    }
    let reason: string | undefined;
    try {
      const channel = await ctx.client.channels.fetch(channelId);
      if (!channel) reason = "thread deleted while offline";
      else if (channel.isThread() && channel.archived) reason = "thread archived while offline";
    } catch (error) {
      if (error instanceof DiscordAPIError && typeof error.code === "number" && GONE.has(error.code)) {
        reason = "thread deleted while offline";
      } else {
        ctx.log.warn({ err: String(error), channelId }, "could not check a session's thread; leaving it open");
      }
    }
    if (reason) {
      await ctx.conversations.closeChannel(channelId, reason);
      closed++;
    } else resumed++;
  }
  await ctx.engine.retryPendingCloses();
  return { closed, resumed };
}
