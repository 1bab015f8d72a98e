import type { Client } from "discord.js";
import type { Config } from "../config.js";
import type { SessionEngine } from "../engine/session-engine.js";
import { sayIn } from "../lib/locale.js";
import type { Logger } from "../lib/logger.js";
import { hasPrivateSections, isPrivateSection, kindOfLabel, type SectionChange, type Suggestion } from "../memory/index.js";
import { isPublicPlace } from "../sessions/session-record.js";
import { postReceipt } from "./receipt.js";
import type { ReplyChannel } from "./reply-stream.js";
import { receiptMessage, type ReceiptPlace } from "./views/receipt.js";
import { suggestionMessage } from "./views/server-notes.js";

/** What a conversation's end leaves in Discord (the memory receipt, suggestions for the server's notes) needs. */
export interface ClosingDeps {
  engine: SessionEngine;
  client: Client;
  config: Config;
  log: Logger;
}

/**
 * Puts the model's suggestions for the server's notes before the moderators: in
 * SERVER_NOTES_CHANNEL_ID when set (and in this server), else in the conversation's thread. In
 * the server's language. A suggestion that cannot be posted still waits in the server's folder.
 */
export async function postSuggestions(deps: ClosingDeps, guildId: string, suggestions: readonly Suggestion[], thread: ReplyChannel): Promise<void> {
  const say = sayIn(deps.client.guilds.cache.get(guildId)?.preferredLocale);
  const configured = deps.config.serverNotes.channelId;
  const moderators = configured ? await deps.client.channels.fetch(configured).catch(() => null) : null;
  const target = moderators && "guildId" in moderators && moderators.guildId === guildId && moderators.isSendable() ? moderators : thread;
  for (const suggestion of suggestions) {
    await target
      .send(suggestionMessage(guildId, suggestion, say))
      .catch((error: unknown) => deps.log.warn({ err: String(error) }, "could not post a server-notes suggestion"));
  }
}

/** Lists what the model changed during the session, with Undo buttons; nothing when it changed nothing. */
export async function sendReceipt(deps: ClosingDeps, sessionId: string, channelId: string, place: ReceiptPlace): Promise<void> {
  try {
    const record = await deps.engine.get(sessionId);
    if (!record || place === "none") return;
    const entries = await deps.engine.memoryChangesOf(sessionId, record.userId);
    const suggested = deps.engine.suggestionsOf(record);
    if (entries.length === 0 && suggested.length === 0) return;
    const memory = deps.engine.memoryOf(record.userId);
    const settings = memory.readSettings();
    const say = sayIn(record.locale ?? settings.locale);
    // Posted where others read: a private section's change is named, its words are not.
    const hidden =
      place === "channel" && isPublicPlace(record.channel)
        ? (change: SectionChange) => hasPrivateSections(kindOfLabel(change.file) ?? "") && isPrivateSection(change.section, settings.privateSections)
        : undefined;
    await postReceipt(deps.client, place, channelId, record.userId, receiptMessage(record.userId, entries, say, hidden, suggested));
  } catch (error) {
    // A thread deleted meanwhile, DMs closed to the bot: the changes stay in /memory history.
    deps.log.warn({ err: String(error), sessionId }, "could not post the memory receipt");
  }
}
