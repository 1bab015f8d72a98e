import { MessageFlags, type ChatInputCommandInteraction, type SlashCommandSubcommandBuilder } from "discord.js";
import {
  type AskBeforeSaving,
  FILE_TABLE,
  type MemoryStore,
  PROFILE_KINDS,
  TIDY_NOTICE,
  TIDY_UP,
  type TidyNoticePlace,
  type TidyUpSetting,
} from "../../memory/index.js";
import { describeTidyNotice, describeTidyUp } from "../../present/tidy-lines.js";
import { describeAskBeforeSaving, describeLanguage, describeTimeZone, profileNames, unknownTimeZoneLine } from "../../present/settings-lines.js";
import { chinese, english, listIn, sayIn } from "../../lib/locale.js";
import { isValidTimeZone } from "../../lib/time.js";
import { sayFor, withoutMarkdownMarks } from "../interaction-helpers.js";

const CHOICES: Record<string, AskBeforeSaving> = { true: "profile", false: "off", all: "all" };

export function withSettings(s: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return s
    .setName("settings")
    .setNameLocalization("zh-CN", "设置")
    .setDescription("How I handle your memory: ask before saving, the nightly tidy-up")
    .setDescriptionLocalization("zh-CN", "记忆的处理方式：保存前先问你、夜间整理")
    .addStringOption((o) =>
      o
        .setName("ask_before_saving")
        .setNameLocalization("zh-CN", "保存前询问")
        .setDescription(`true: ask before I save to ${profileNames("or", english)}; all: before any save`)
        .setDescriptionLocalization("zh-CN", `true：保存到${profileNames("or", chinese)}前先问；all：任何保存前都问`)
        .addChoices(
          {
            name: "true",
            value: "true",
            name_localizations: {
              "zh-CN": `是（${listIn(
                PROFILE_KINDS.map((kind) => FILE_TABLE[kind].short.zh),
                "and",
                chinese,
              )}）`,
            },
          },
          { name: "false", value: "false", name_localizations: { "zh-CN": "否" } },
          { name: "all", value: "all", name_localizations: { "zh-CN": "全部" } },
        ),
    )
    .addStringOption((o) =>
      o
        .setName("tidy_up")
        .setNameLocalization("zh-CN", "夜间整理")
        .setDescription("on: I tidy my notes once a night (undo anytime); ask: I propose the changes; off")
        .setDescriptionLocalization("zh-CN", "开启：每晚整理一次笔记（随时可撤销）；先问：我提出改动；关闭")
        .addChoices(
          { name: "on", value: "on", name_localizations: { "zh-CN": "开启" } },
          { name: "ask", value: "ask", name_localizations: { "zh-CN": "先问我" } },
          { name: "off", value: "off", name_localizations: { "zh-CN": "关闭" } },
        ),
    )
    .addStringOption((o) =>
      o
        .setName("tidy_notice")
        .setNameLocalization("zh-CN", "整理通知")
        .setDescription("Where I tell you about a tidy-up: under my next answer, or in a DM")
        .setDescriptionLocalization("zh-CN", "整理之后在哪里告诉你：下一条回答下，或私信")
        .addChoices(
          { name: "reply", value: "reply", name_localizations: { "zh-CN": "回答下" } },
          { name: "dm", value: "dm", name_localizations: { "zh-CN": "私信" } },
        ),
    )
    .addStringOption((o) =>
      o
        .setName("time_zone")
        .setNameLocalization("zh-CN", "时区")
        .setDescription("Your time zone, an IANA name such as Asia/Shanghai or Europe/Berlin")
        .setDescriptionLocalization("zh-CN", "你的时区，IANA 名称，例如 Asia/Shanghai 或 Europe/Berlin")
        .setMaxLength(64),
    )
    .addStringOption((o) =>
      o
        .setName("language")
        .setNameLocalization("zh-CN", "语言")
        .setDescription("The language I speak to you in")
        .setDescriptionLocalization("zh-CN", "我和你说话用的语言")
        .addChoices({ name: "English", value: "en" }, { name: "中文", value: "zh-CN" }),
    );
}

export async function runSettings(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const say = sayFor(interaction);
  const chosen = interaction.options.getString("ask_before_saving");
  const tidy = interaction.options.getString("tidy_up");
  const notice = interaction.options.getString("tidy_notice");
  const zone = interaction.options.getString("time_zone")?.trim() ?? null;
  const language = interaction.options.getString("language");
  if (chosen === null && tidy === null && notice === null && zone === null && language === null) {
    const settings = memory.readSettings();
    const lines = [
      describeAskBeforeSaving(settings.askBeforeSaving, say),
      describeTidyUp(settings.tidyUp, say),
      describeTidyNotice(settings.tidyNotice, say),
      describeTimeZone(memory.timeZone().zone, settings.timezone !== undefined, say),
      describeLanguage(settings.locale, say),
    ];
    await interaction.reply({ content: lines.join("\n"), flags: MessageFlags.Ephemeral });
    return;
  }
  if (zone !== null && !isValidTimeZone(zone)) {
    await interaction.reply({ content: unknownTimeZoneLine(withoutMarkdownMarks(zone), say), flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    return;
  }
  // Discord offers only the choices; anything else is a forged or outdated command.
  const setting = chosen === null ? undefined : CHOICES[chosen];
  const tidyUp = (TIDY_UP as readonly string[]).includes(tidy ?? "") ? (tidy as TidyUpSetting) : undefined;
  const tidyNotice = (TIDY_NOTICE as readonly string[]).includes(notice ?? "") ? (notice as TidyNoticePlace) : undefined;
  const locale = language === null ? undefined : language === "en" || language === "zh-CN" ? language : null;
  if ((chosen !== null && !setting) || (tidy !== null && !tidyUp) || (notice !== null && !tidyNotice) || locale === null) {
    await interaction.reply({ content: say("Choose one of the offered values.", "请从给出的选项中选择。"), flags: MessageFlags.Ephemeral });
    return;
  }
  await memory.saveSettings({
    ...(setting ? { askBeforeSaving: setting } : {}),
    ...(tidyUp ? { tidyUp } : {}),
    ...(tidyNotice ? { tidyNotice } : {}),
    ...(zone !== null ? { timezone: zone } : {}),
    ...(locale ? { locale } : {}),
  });
  // Said in the language just chosen.
  const sayNow = locale ? sayIn(locale) : say;
  const lines = [
    ...(setting ? [describeAskBeforeSaving(setting, sayNow)] : []),
    ...(tidyUp ? [describeTidyUp(tidyUp, sayNow)] : []),
    ...(tidyNotice ? [describeTidyNotice(tidyNotice, sayNow)] : []),
    ...(zone !== null ? [describeTimeZone(zone, true, sayNow)] : []),
    ...(locale ? [describeLanguage(locale, sayNow)] : []),
  ];
  const later = sayNow("It applies from now on, in every conversation.", "从现在起对所有对话生效。");
  await interaction.reply({ content: `${lines.join("\n")} ${later}`, flags: MessageFlags.Ephemeral });
}
