import { MessageFlags } from "discord.js";
import { inLocale } from "../interaction-helpers.js";
import type { ComponentHandler } from "./router.js";
import { COMPONENT } from "../views/custom-id.js";

export const stopHandlers: ComponentHandler[] = [
  {
    prefix: COMPONENT.stop,
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
