import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
  type MessageActionRowComponentBuilder,
} from "discord.js";
import { mentions, planForget } from "../../memory/forget.js";
import type { MemoryStore } from "../../memory/memory-store.js";
import { savePending } from "../../memory/pending.js";
import { cutChars } from "../../lib/text.js";
import type { BotContext } from "../bot-context.js";
import { componentId } from "../views/custom-id.js";
import { counts } from "../handlers/forget.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";


/** /memory forget text:<words>: what would go, with Forget / Cancel. */
export async function runForget(interaction: ChatInputCommandInteraction, memory: MemoryStore, ctx: BotContext): Promise<void> {
  const say = sayFor(interaction);
  const words = interaction.options.getString("text", true).trim();
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const plan = await planForget(memory, words);
  const shown = cutChars(words, 80);
  const sessions = await ctx.engine.sessionsMentioning(interaction.user.id, mentions(words));
  if (plan.memoryLines + plan.logEntries + plan.messages + plan.historyEntries + sessions === 0) {
    await interaction.editReply({ content: say(`Nothing in your memory mentions “${shown}”.`, `你的记忆中没有提到“${shown}”的内容。`), allowedMentions: NO_MENTIONS });
    return;
  }
  const token = await savePending(memory.dir, "forget", { words });
  const examples = plan.examples.map((e) => `> ${cutChars(e, 100)}`).join("\n");
  const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder().setCustomId(componentId("fg", interaction.user.id, token)).setLabel(say("Forget", "忘记")).setStyle(ButtonStyle.Danger),
    new ButtonBuilder().setCustomId(componentId("fx", interaction.user.id, token)).setLabel(say("Cancel", "取消")).setStyle(ButtonStyle.Secondary),
  );
  await interaction.editReply({
    content: say(
      `Forgetting “${shown}” removes ${counts(plan, say)}, for example:\n${examples}\nIt goes from everywhere: files, history, the search index and stored conversations. This cannot be undone.`,
      `忘记“${shown}”会删除${counts(plan, say)}，例如：\n${examples}\n会从所有地方删除：文件、改动记录、搜索索引和保存的对话。此操作无法撤销。`,
    ),
    components: [buttons],
    allowedMentions: NO_MENTIONS,
  });
}

/** /memory delete-all: a form in which the person must type DELETE. */
export async function runDeleteAll(interaction: ChatInputCommandInteraction): Promise<void> {
  const say = sayFor(interaction);
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(componentId("md", interaction.user.id))
      .setTitle(say("Delete everything I remember", "删除我记得的一切"))
      .addLabelComponents(
        new LabelBuilder()
          .setLabel(say("Type DELETE to confirm", "输入 DELETE 确认"))
          .setDescription(say("Your memory files, logs, conversations, history and sessions go for good.", "你的记忆文件、日志、对话、改动记录和会话将被永久删除。"))
          .setTextInputComponent(new TextInputBuilder().setCustomId("confirm").setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(20)),
      ),
  );
}
