import type { Command } from "../bot-context.js";
import { chatCommand } from "./chat.js";
import { endCommand } from "./end.js";
import { memoryCommand } from "./memory.js";
import { onboardCommand } from "./onboard.js";
import { serverNotesCommand } from "./server-notes.js";

/** Every slash command the bot handles; deploy-commands registers exactly these. */
export const commands: readonly Command[] = [chatCommand, endCommand, onboardCommand, memoryCommand, serverNotesCommand];
