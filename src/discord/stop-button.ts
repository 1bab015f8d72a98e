import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../agent/history-lines.js";
import { componentId, type ComponentHandler } from "./components/router.js";

/** The Stop button an answer carries while it streams; its id names the turn. */
export function stopRow(owner: string, turnId: string, say: Say): ActionRowBuilder<MessageActionRowComponentBuilder> {
  return new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder().setCustomId(componentId("st", owner, turnId)).setLabel(say("Stop", "停止")).setStyle(ButtonStyle.Secondary),
  );
}

export const stopHandlers: ComponentHandler[] = [
  {
    prefix: "st",
    async handle(interaction, [turnId = ""], ctx) {
      if (!interaction.isButton()) return;
      if (ctx.conversations.stopTurn(turnId)) {
        // The answer's own last edit takes the button away and adds the "stopped" line.
        await interaction.deferUpdate();
        return;
      }
      // The answer already ended, or the bot restarted while it streamed: the button just goes.
      await interaction.update({ components: [] });
    },
  },
];
