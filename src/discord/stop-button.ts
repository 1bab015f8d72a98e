import { ActionRowBuilder, ButtonBuilder, ButtonStyle, MessageFlags, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../lib/locale.js";
import { componentId, type ComponentHandler } from "./components/router.js";
import { inLocale } from "./interaction-helpers.js";

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
      // The turn knows whose it is: a button naming someone else's turn stops nothing, whatever its id says.
      const outcome = ctx.conversations.stopTurn(turnId, interaction.user.id);
      if (outcome === "stopped") {
        // The answer's own last edit takes the button away and adds the "stopped" line.
        await interaction.deferUpdate();
        return;
      }
      if (outcome === "not-yours") {
        await interaction.reply({
          content: inLocale(interaction, "That is someone else's answer; only they can stop it.", "这是别人的回答，只有本人可以停止。"),
          flags: MessageFlags.Ephemeral,
        });
        return;
      }
      // The answer already ended, or the bot restarted while it streamed: the button just goes.
      await interaction.update({ components: [] });
    },
  },
];
