import type { ChatInputCommandInteraction, Client, ModalSubmitInteraction, SharedSlashCommand } from "discord.js";
import type { SessionEngine } from "../engine/session-engine.js";
import type { Config } from "../config.js";
import type { Logger } from "../lib/logger.js";
import type { Say } from "../lib/locale.js";
import type { Guest, SessionRecord } from "../sessions/session-record.js";
import type { ReceiptPlace } from "./views/receipt.js";

/** Who is talking, as a conversation names them. */
export interface Person {
  userId: string;
  displayName: string;
  locale: string | undefined;
}

type CloseResult = "closed" | "none" | "empty" | "pending-summary";

/** What commands and handlers may ask of the conversations (src/discord/conversations.ts implements it). */
export interface ConversationControl {
  /** A line refusing a new conversation (fair use), or undefined when the person may start one. */
  mayStart(userId: string, say: Say): string | undefined;
  openInThread(
    threadId: string,
    threadName: string,
    guildId: string,
    person: Person,
    visibility: "private" | "public",
    guests?: Guest[],
  ): Promise<SessionRecord>;
  closeChannel(channelId: string, reason: string, receipt?: ReceiptPlace): Promise<CloseResult>;
  closeSession(sessionId: string, channelId: string, reason: string, receipt?: ReceiptPlace): Promise<CloseResult>;
  scheduleIdleClose(channelId: string, lastActivity: number): void;
  /** Stops the answer of this turn when it is the person's own. */
  stopTurn(turnId: string, userId: string): "stopped" | "not-yours" | "ended";
}

/** Everything a command handler may use, handed in (no singletons). */
export interface BotContext {
  engine: SessionEngine;
  conversations: ConversationControl;
  config: Config;
  log: Logger;
  client: Client;
}

/** A slash command: its definition (what deploy-commands registers) and its handlers together. */
export interface Command {
  data: SharedSlashCommand;
  execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void>;
  /** Modals this command opens have custom ids starting with `${modalPrefix}:` or equal to it. */
  modalPrefix?: string;
  submitModal?(interaction: ModalSubmitInteraction, ctx: BotContext): Promise<void>;
}
