import { MessageFlags, type ButtonInteraction, type ModalSubmitInteraction, type StringSelectMenuInteraction } from "discord.js";
import type { BotContext } from "../bot-context.js";
import { inLocale } from "../interaction-helpers.js";
import { parseComponentId, type ComponentPrefix } from "../views/custom-id.js";

export type ComponentInteraction = ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;

/** Buttons, menus and forms the bot puts on its messages, routed by the first part of their custom id. */
export interface ComponentHandler {
  prefix: ComponentPrefix;
  /** `args` are the custom id's parts after `<prefix>:<owner>`. Called for the owner only. */
  handle(interaction: ComponentInteraction, args: string[], ctx: BotContext): Promise<void>;
  /**
   * The buttons belong to a server, not a person (a suggestion for the server's notes): the id's
   * owner part is the server's id, and the handler decides who may press them.
   */
  shared?: true;
}

export async function routeComponent(interaction: ComponentInteraction, handlers: ReadonlyMap<string, ComponentHandler>, ctx: BotContext): Promise<boolean> {
  const { prefix, owner, args } = parseComponentId(interaction.customId);
  const handler = handlers.get(prefix);
  if (!handler) return false;
  // Discord sends only custom ids the message carries; a modified client that got past that gets nothing either.
  const forged = !interaction.isModalSubmit() && !carriesCustomId(interaction.message.components, interaction.customId);
  if ((handler.shared ? owner !== interaction.guildId : owner !== interaction.user.id) || forged) {
    // Someone else's buttons: a private word to them, and the message stays as it is.
    await interaction.reply({
      content: inLocale(interaction, "These buttons belong to someone else's memory; only they can use them.", "这些按钮属于别人的记忆，只有本人可以使用。"),
      flags: MessageFlags.Ephemeral,
    });
    return true;
  }
  await handler.handle(interaction, args, ctx);
  return true;
}

/** Whether a message's components (rows, sections, containers) include this custom id. */
function carriesCustomId(components: readonly { toJSON(): unknown }[], customId: string): boolean {
  const pending: unknown[] = components.map((c) => c.toJSON());
  // A message holds at most a few dozen components; the bound keeps a strange payload from looping long.
  for (let seen = 0; pending.length > 0 && seen < 1_000; seen++) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === "object") {
      if ((node as { custom_id?: unknown }).custom_id === customId) return true;
      for (const value of Object.values(node)) if (value && typeof value === "object") pending.push(value);
    }
  }
  return false;
}
