import { ActionRowBuilder, ButtonBuilder, ButtonStyle, MessageFlags, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { cutChars } from "../../lib/text.js";
import { type ForgetPlan, type MemoryStore, mentions, planForget, keepForget, takeForget } from "../../memory/index.js";
import { COMPONENT, componentId } from "../views/custom-id.js";
import type { BotContext } from "../bot-context.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import type { ComponentHandler } from "./router.js";

/** What a forget removes, counted. */
function counts(plan: ForgetPlan, say: Say): string {
  const marks = plan.marks > 0 ? say(`, ${plan.marks} private mark(s)`, `、${plan.marks} 个私密标记`) : "";
  const names = plan.names > 0 ? say(`, your name in ${plan.names} message(s)`, `、${plan.names} 条消息中你的名字`) : "";
  return say(
    `${plan.memoryLines} line(s) of your memory files, ${plan.logEntries} daily log entr${plan.logEntries === 1 ? "y" : "ies"}, ${plan.messages} conversation message(s), ${plan.historyEntries} history entr${plan.historyEntries === 1 ? "y" : "ies"}${marks}${names}`,
    `${plan.memoryLines} 行记忆文件内容、${plan.logEntries} 条每日日志、${plan.messages} 条对话消息、${plan.historyEntries} 条改动记录${marks}${names}`,
  );
}

async function forgetNow(ctx: BotContext, userId: string, words: string, say: Say): Promise<string> {
  // Sessions (in every process) and files, under the person's lock; the counts are what went.
  const { plan, sessions, indexPurged, storePurged } = await ctx.engine.forget(userId, words);
  ctx.log.info({ userId, sessions, indexPurged, storePurged }, "forgot on request");
  if (!indexPurged) ctx.log.warn({ userId }, "the recall index could not be purged now; it follows the files at the next search");
  return say(`Forgotten: ${counts(plan, say)}. It is gone from history and search too.`, `已忘记：${counts(plan, say)}。改动记录和搜索中也已删除。`);
}

export const forgetHandlers: ComponentHandler[] = [
  {
    prefix: COMPONENT.forgetConfirm,
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      const words = await takeForget(ctx.engine.memoryOf(interaction.user.id), token);
      if (words === undefined) {
        await interaction.update({
          content: say("That request is out of date; run /memory forget again.", "这个请求已过期，请重新运行 /memory forget。"),
          components: [],
        });
        return;
      }
      await interaction.deferUpdate();
      await interaction.editReply({ content: await forgetNow(ctx, interaction.user.id, words, say), components: [], allowedMentions: NO_MENTIONS });
    },
  },
  {
    prefix: COMPONENT.forgetCancel,
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      await takeForget(ctx.engine.memoryOf(interaction.user.id), token);
      await interaction.update({ content: sayFor(interaction)("Nothing was forgotten.", "没有忘记任何内容。"), components: [] });
    },
  },
  {
    prefix: COMPONENT.deleteAll,
    async handle(interaction, _args, ctx) {
      if (!interaction.isModalSubmit()) return;
      const say = sayFor(interaction);
      const typed = interaction.fields.getTextInputValue("confirm");
      if (typed !== "DELETE") {
        await interaction.reply({
          content: say(
            `Nothing was deleted: the form needs exactly DELETE (you typed “${cutChars(typed, 20)}”).`,
            `没有删除任何内容：需要准确输入 DELETE（你输入的是“${cutChars(typed, 20)}”）。`,
          ),
          flags: MessageFlags.Ephemeral,
          allowedMentions: NO_MENTIONS,
        });
        return;
      }
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      await ctx.engine.deleteEverything(interaction.user.id);
      ctx.log.info({ userId: interaction.user.id }, "deleted all data on request");
      await interaction.editReply({
        content: say(
          "Deleted: everything I remembered about you, your conversations, history and sessions. The next conversation starts fresh.",
          "已删除：我记得的关于你的一切，包括对话、改动记录和会话。下一次对话将从头开始。",
        ),
      });
    },
  },
];

/** What forgetting some words would remove, with Forget / Cancel (also from a footer's "Not right?"). */
export async function forgetPreview(
  memory: MemoryStore,
  ctx: BotContext,
  owner: string,
  words: string,
  say: Say,
): Promise<{ content: string; components: ActionRowBuilder<MessageActionRowComponentBuilder>[] }> {
  const plan = await planForget(memory, words);
  const shown = cutChars(words, 80);
  const sessions = await ctx.engine.sessionsMentioning(owner, mentions(words));
  if (plan.memoryLines + plan.logEntries + plan.messages + plan.historyEntries + plan.marks + plan.names + sessions === 0) {
    return { content: say(`Nothing in your memory mentions “${shown}”.`, `你的记忆中没有提到“${shown}”的内容。`), components: [] };
  }
  const token = await keepForget(memory, words);
  const examples = plan.examples.map((e) => `> ${cutChars(e, 100)}`).join("\n");
  const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.forgetConfirm, owner, token))
      .setLabel(say("Forget", "忘记"))
      .setStyle(ButtonStyle.Danger),
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.forgetCancel, owner, token))
      .setLabel(say("Cancel", "取消"))
      .setStyle(ButtonStyle.Secondary),
  );
  return {
    content: say(
      `Forgetting “${shown}” removes ${counts(plan, say)}, for example:\n${examples}\nIt goes from everywhere: files, history, the search index and stored conversations. This cannot be undone.`,
      `忘记“${shown}”会删除${counts(plan, say)}，例如：\n${examples}\n会从所有地方删除：文件、改动记录、搜索索引和保存的对话。此操作无法撤销。`,
    ),
    components: [buttons],
  };
}
