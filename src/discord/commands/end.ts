import { PermissionFlagsBits, SlashCommandBuilder } from "discord.js";
import type { Command } from "../bot-context.js";
import { answerPrivately, inLocale } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";

export const endCommand: Command = {
  data: new SlashCommandBuilder()
    .setName("end")
    .setNameLocalization("zh-CN", "结束")
    .setDescription("End this conversation and save its summary to the daily log")
    .setDescriptionLocalization("zh-CN", "结束本次对话并把摘要写入每日日志"),

  async execute(interaction, ctx) {
    const record = await ctx.engine.sessionIn(interaction.channelId);
    if (!record || record.status !== "open") {
      await answerPrivately(interaction, inLocale(interaction, "There's no open conversation here.", "这里没有进行中的对话。"));
      return;
    }
    const isOwner = record.userId === interaction.user.id;
    const canManage = interaction.memberPermissions?.has(PermissionFlagsBits.ManageThreads) ?? false;
    if (!isOwner && !canManage) {
      await answerPrivately(
        interaction,
        inLocale(
          interaction,
          "Only the person who started this conversation, or a moderator with Manage Threads, can end it.",
          "只有发起这次对话的人或拥有“管理子区”权限的管理员可以结束它。",
        ),
      );
      return;
    }
    await interaction.deferReply();
    const outcome = await ctx.conversations.closeChannel(interaction.channelId, "/end");
    const content =
      outcome === "pending-summary"
        ? inLocale(
            interaction,
            "Conversation ended. I couldn't reach the model to write the summary; it will be added to the daily log as soon as I can.",
            "对话已结束。暂时无法连接模型写摘要，稍后会自动补写到每日日志。",
          )
        : outcome === "closed"
          ? inLocale(interaction, "Conversation ended; I've noted it in the daily log. 📝", "对话已结束，已记入每日日志。📝")
          : inLocale(
              interaction,
              "Conversation ended. Nothing was said in it, so there is nothing to note.",
              "对话已结束。其中没有交流，所以没有可记录的内容。",
            );
    await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
    const channel = interaction.channel;
    if (channel?.isThread()) {
      await channel.edit({ archived: true, locked: true }).catch((error: unknown) => {
        ctx.log.warn({ err: String(error), threadId: channel.id }, "could not archive and lock the thread (Manage Threads permission?)");
      });
    }
  },
};
