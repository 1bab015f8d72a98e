import type {
  ChatInputCommandInteraction,
  Client,
  ModalSubmitInteraction,
  SharedSlashCommand,
} from "discord.js";
import type { SessionEngine } from "../engine/session-engine.js";
import type { Config } from "../config.js";
import type { Logger } from "../lib/logger.js";
import type { Conversations } from "./conversations.js";

/** Everything a command handler may use, handed in (no singletons). */
export interface BotContext {
  engine: SessionEngine;
  conversations: Conversations;
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
