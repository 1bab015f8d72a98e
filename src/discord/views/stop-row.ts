import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { COMPONENT, componentId } from "./custom-id.js";

/** The Stop button an answer carries while it streams; its id names the turn. */
export function stopRow(owner: string, turnId: string, say: Say): ActionRowBuilder<MessageActionRowComponentBuilder> {
  return new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.stop, owner, turnId))
      .setLabel(say("Stop", "停止"))
      .setStyle(ButtonStyle.Secondary),
  );
}
