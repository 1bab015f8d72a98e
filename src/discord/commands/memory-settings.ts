import { MessageFlags, type ChatInputCommandInteraction, type SlashCommandSubcommandBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import type { AskBeforeSaving, MemoryStore } from "../../memory/memory-store.js";
import { sayFor } from "../interaction-helpers.js";

const CHOICES: Record<string, AskBeforeSaving> = { true: "profile", false: "off", all: "all" };

export function withSettings(s: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return s
    .setName("settings")
    .setNameLocalization("zh-CN", "设置")
    .setDescription("How I handle your memory: ask before saving")
    .setDescriptionLocalization("zh-CN", "记忆的处理方式：保存前先问你")
    .addStringOption((o) =>
      o
        .setName("ask_before_saving")
        .setNameLocalization("zh-CN", "保存前询问")
        .setDescription("true: ask before I save to your profile or my persona; all: before any save")
        .setDescriptionLocalization("zh-CN", "true：保存到你的资料或我的人设前先问；all：任何保存前都问")
        .addChoices(
          { name: "true", value: "true", name_localizations: { "zh-CN": "是（资料和人设）" } },
          { name: "false", value: "false", name_localizations: { "zh-CN": "否" } },
          { name: "all", value: "all", name_localizations: { "zh-CN": "全部" } },
        ),
    );
}

/** One sentence a person can read: what the setting does now. */
export function describeAskBeforeSaving(setting: AskBeforeSaving | undefined, say: Say): string {
  switch (setting ?? "off") {
    case "off":
      return say("Ask before saving: off. I save what is worth remembering and show it with 💾.", "保存前询问：关闭。我会保存值得记住的内容，并用 💾 标出。");
    case "profile":
      return say(
        "Ask before saving: on for your profile (USER.md) and my persona (SOUL.md); my own notes and the daily log are saved directly.",
        "保存前询问：对你的资料（USER.md）和我的人设（SOUL.md）开启；我的笔记和每日日志直接保存。",
      );
    case "all":
      return say("Ask before saving: on for everything I save.", "保存前询问：对所有保存都开启。");
  }
}

export async function runSettings(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const say = sayFor(interaction);
  const chosen = interaction.options.getString("ask_before_saving");
  if (chosen === null) {
    await interaction.reply({ content: describeAskBeforeSaving(memory.readSettings().askBeforeSaving, say), flags: MessageFlags.Ephemeral });
    return;
  }
  const setting = CHOICES[chosen];
  if (!setting) {
    await interaction.reply({ content: say("Choose true, false or all.", "请选择 true、false 或 all。"), flags: MessageFlags.Ephemeral });
    return;
  }
  await memory.saveSettings({ askBeforeSaving: setting });
  const later = say("It applies from now on, in every conversation.", "从现在起对所有对话生效。");
  await interaction.reply({ content: `${describeAskBeforeSaving(setting, say)} ${later}`, flags: MessageFlags.Ephemeral });
}
