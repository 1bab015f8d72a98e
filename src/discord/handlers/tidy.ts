import { MessageFlags } from "discord.js";
import { cutChars } from "../../lib/text.js";
import { describeChange } from "../../present/history-lines.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import type { ComponentHandler } from "./router.js";
import { COMPONENT } from "../views/custom-id.js";

export const tidyHandlers: ComponentHandler[] = [
  {
    // Details of a tidy-up: each section it changed, before → after, privately.
    prefix: COMPONENT.tidyDetails,
    async handle(interaction, [id = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const entry = (await ctx.engine.memoryOf(interaction.user.id).history()).find((e) => e.id === id);
      const content = entry
        ? [say("🧹 What the tidy-up changed:", "🧹 这次整理改动了："), ...entry.changes.map((change) => `- ${describeChange(change, say)}`)].join("\n")
        : say("That tidy-up is no longer in your history.", "这次整理已不在你的记录中。");
      await interaction.editReply({ content: cutChars(content, 2000), allowedMentions: NO_MENTIONS });
    },
  },
];
