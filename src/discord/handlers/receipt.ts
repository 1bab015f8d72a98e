import { ActionRowBuilder, ButtonBuilder, MessageFlags, type MessageActionRowComponentBuilder } from "discord.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import { undoAnswer } from "./history.js";
import type { ComponentHandler } from "./router.js";
import { COMPONENT } from "../views/custom-id.js";

export const receiptHandlers: ComponentHandler[] = [
  {
    // Undo from a receipt: the answer is private; the receipt marks the change as undone.
    prefix: COMPONENT.undo,
    async handle(interaction, [id = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const { undone, ...view } = await undoAnswer(ctx.engine.memoryOf(interaction.user.id), interaction.user.id, id, say);
      await interaction.editReply({ ...view, allowedMentions: NO_MENTIONS });
      if (!undone) return;
      const rows = interaction.message.components.map((row) => ActionRowBuilder.from(row as never) as ActionRowBuilder<MessageActionRowComponentBuilder>);
      for (const row of rows) {
        for (const component of row.components) {
          if (component instanceof ButtonBuilder && (component.data as { custom_id?: string }).custom_id === interaction.customId) {
            component.setDisabled(true).setLabel(`${(component.data as { label?: string }).label ?? ""} ✓`);
          }
        }
      }
      await interaction.message.edit({ components: rows }).catch(() => {});
    },
  },
];
