import { Semaphore } from "async-mutex";
import type { BotContext } from "./bot-context.js";
import type { ReceiptPlace } from "./views/receipt.js";
import { handledHere } from "./shards.js";

/** Summaries at start-up run a few at a time, after the bot is already answering. */
const CLOSE_CONCURRENCY = 4;

export interface ReconcileOutcome {
  resumed: number;
  closing: number;
  /** Resolves when every close started by the reconcile has finished. */
  closed: Promise<void>;
}

/**
 * At start-up: sessions whose thread was archived or deleted while the bot was away are
 * closed (and summarised); DM sessions get their idle timers back; pending closes are retried.
 * Discord sends every active thread with its guild at login, so a thread missing from the
 * cache of an available guild is archived or gone: no REST look-up per session is needed.
 */
export async function reconcileSessions(ctx: BotContext): Promise<ReconcileOutcome> {
  const toClose: { sessionId: string; channelId: string; reason: string; receipt: ReceiptPlace }[] = [];
  let resumed = 0;
  for await (const record of ctx.engine.openSessions()) {
    if (record.channel.platform !== "discord") continue;
    const { channelId, guildId } = record.channel;
    // Each shard looks after the sessions of its own guilds (and shard 0 after the DMs).
    if (!handledHere(ctx.client, guildId)) continue;
    if (guildId === undefined) {
      ctx.conversations.scheduleIdleClose(channelId, Date.parse(record.lastActivityAt));
      resumed++;
      continue;
    }
    const thread = ctx.client.channels.cache.get(channelId);
    if (thread?.isThread() && !thread.archived) {
      resumed++;
    } else if (thread?.isThread()) {
      toClose.push({ sessionId: record.id, channelId, reason: "thread archived while offline", receipt: "dm" });
    } else if (ctx.client.guilds.cache.get(guildId)?.available === false) {
      // A Discord outage of that server: nothing is known, so the session stays open.
      resumed++;
    } else {
      toClose.push({ sessionId: record.id, channelId, reason: "thread archived or deleted while offline", receipt: "dm-unless-deleted" });
    }
  }
  const gate = new Semaphore(CLOSE_CONCURRENCY);
  const closes = toClose.map(({ sessionId, channelId, reason, receipt }) =>
    gate.runExclusive(() =>
      ctx.conversations.closeSession(sessionId, channelId, reason, receipt).catch((error: unknown) => {
        ctx.log.error({ err: String(error), channelId }, "could not close a session at start-up");
      }),
    ),
  );
  const closed = Promise.all(closes).then(async () => {
    await ctx.engine.retryPendingCloses();
  });
  return { resumed, closing: toClose.length, closed };
}
