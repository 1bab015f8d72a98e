import { LabelBuilder, MessageFlags, ModalBuilder, TextInputBuilder, TextInputStyle, type ChatInputCommandInteraction } from "discord.js";
import type { MemoryStore } from "../../memory/index.js";
import type { BotContext } from "../bot-context.js";
import { COMPONENT, componentId } from "../views/custom-id.js";
import { forgetPreview } from "../handlers/forget.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";

/** /memory forget text:<words>: what would go, with Forget / Cancel. */
export async function runForget(interaction: ChatInputCommandInteraction, memory: MemoryStore, ctx: BotContext): Promise<void> {
  const words = interaction.options.getString("text", true).trim();
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await interaction.editReply({ ...(await forgetPreview(memory, ctx, interaction.user.id, words, sayFor(interaction))), allowedMentions: NO_MENTIONS });
}

/** /memory delete-all: a form in which the person must type DELETE. */
export async function runDeleteAll(interaction: ChatInputCommandInteraction): Promise<void> {
  const say = sayFor(interaction);
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(componentId(COMPONENT.deleteAll, interaction.user.id))
      .setTitle(say("Delete everything I remember", "删除我记得的一切"))
      .addLabelComponents(
        new LabelBuilder()
          .setLabel(say("Type DELETE to confirm", "输入 DELETE 确认"))
          .setDescription(
            say("Your memory files, logs, conversations, history and sessions go for good.", "你的记忆文件、日志、对话、改动记录和会话将被永久删除。"),
          )
          .setTextInputComponent(new TextInputBuilder().setCustomId("confirm").setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(20)),
      ),
  );
}
