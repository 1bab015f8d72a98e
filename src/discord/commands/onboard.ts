import { LabelBuilder, MessageFlags, ModalBuilder, SlashCommandBuilder, TextInputBuilder, TextInputStyle } from "discord.js";
import { isValidTimeZone } from "../../lib/time.js";
import { applyPersona, contentHash, parsePersona, PERSON, type Persona, PERSONALITY_LIMIT } from "../../memory/index.js";
import { countChars } from "../../lib/text.js";
import type { Command } from "../bot-context.js";
import { inLocale, withoutMarkdownMarks } from "../interaction-helpers.js";
import { describeAskBeforeSaving, describeLanguage, describeTimeZone, unknownTimeZoneLine } from "../../present/settings-lines.js";
import { describeTidyUp } from "../../present/tidy-lines.js";
import { writeRefusalLine } from "../../present/write-refusal.js";

const MODAL_ID = "onboard";

const LIMITS: Record<keyof Persona, number> = { name: 100, personality: PERSONALITY_LIMIT, style: 1000 };

function input(id: string, style: TextInputStyle, value: string, maxLength: number, required: boolean): TextInputBuilder {
  const builder = new TextInputBuilder().setCustomId(id).setStyle(style).setMaxLength(maxLength).setRequired(required);
  // Discord rejects a prefilled value longer than max_length.
  const prefill = [...value].slice(0, maxLength).join("");
  return prefill ? builder.setValue(prefill) : builder;
}

export const onboardCommand: Command = {
  data: new SlashCommandBuilder()
    .setName("onboard")
    .setNameLocalization("zh-CN", "设置")
    .setDescription("Choose my name, personality, speaking style and your time zone")
    .setDescriptionLocalization("zh-CN", "设置我的名字、性格、说话风格和你的时区"),
  modalPrefix: MODAL_ID,

  async execute(interaction, ctx) {
    const memory = ctx.engine.memoryOf(interaction.user.id, interaction.locale);
    const persona = parsePersona(await memory.soul.read(), interaction.locale);
    const settings = memory.readSettings();
    const zh = (en: string, cn: string) => inLocale(interaction, en, cn);
    // A field the form cannot hold whole would come back cut: send the person to /memory edit instead.
    const tooLong = (Object.keys(LIMITS) as (keyof Persona)[]).find((key) => countChars(persona[key]) > LIMITS[key]);
    if (tooLong) {
      await interaction.reply({
        content: zh(
          `Your persona's "${tooLong}" is longer than this form can hold (${countChars(persona[tooLong])}/${LIMITS[tooLong]} characters). Edit it with /memory edit file:soul instead, so nothing gets cut.`,
          `你的人设中“${tooLong}”超出了表单能容纳的长度（${countChars(persona[tooLong])}/${LIMITS[tooLong]} 字）。请改用 /memory edit file:soul 编辑，以免内容被截断。`,
        ),
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    const modal = new ModalBuilder()
      .setCustomId(MODAL_ID)
      .setTitle(zh("Set up your assistant", "设置你的助手"))
      .addLabelComponents(
        new LabelBuilder().setLabel(zh("Name", "名字")).setTextInputComponent(input("name", TextInputStyle.Short, persona.name, LIMITS.name, true)),
        new LabelBuilder()
          .setLabel(zh("Personality", "性格"))
          .setTextInputComponent(input("personality", TextInputStyle.Paragraph, persona.personality, LIMITS.personality, true)),
        new LabelBuilder()
          .setLabel(zh("Speaking style", "说话风格"))
          .setTextInputComponent(input("style", TextInputStyle.Paragraph, persona.style, LIMITS.style, true)),
        new LabelBuilder()
          .setLabel(zh("Your time zone (optional)", "你的时区（可选）"))
          .setDescription(zh("An IANA name such as Europe/Berlin or Asia/Shanghai", "IANA 时区名，例如 Asia/Shanghai"))
          .setTextInputComponent(input("timezone", TextInputStyle.Short, settings.timezone ?? "", 64, false)),
      );
    await interaction.showModal(modal);
  },

  async submitModal(interaction, ctx) {
    const zh = (en: string, cn: string) => inLocale(interaction, en, cn);
    const value = (id: string) => interaction.fields.getTextInputValue(id).trim();
    const persona = { name: value("name"), personality: value("personality"), style: value("style") };
    const timezone = value("timezone");
    const refuse = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    if (!persona.name || !persona.personality || !persona.style) {
      await refuse(zh("Name, personality and speaking style are all needed; nothing was saved.", "名字、性格和说话风格都需要填写；未保存任何内容。"));
      return;
    }
    if (timezone && !isValidTimeZone(timezone)) {
      await refuse(unknownTimeZoneLine(withoutMarkdownMarks(timezone), zh));
      return;
    }
    const memory = ctx.engine.memoryOf(interaction.user.id, interaction.locale);
    // Only the three fields change; other sections of SOUL.md are kept. A model edit landing
    // between the read and the write is not overwritten: the write re-reads and tries again.
    let saved;
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = await memory.soul.read();
      saved = await memory.soul.write(applyPersona(before, persona, interaction.locale), PERSON, { ifUnchanged: contentHash(before), op: "onboard" });
      if (saved.ok || saved.refusal !== "changed") break;
    }
    if (!saved) return;
    if (!saved.ok) {
      await refuse(`${writeRefusalLine(saved, memory.soul.label, zh)}\n${zh("Nothing was saved; please shorten the text.", "未保存任何内容；请缩短文字。")}`);
      return;
    }
    await memory.saveSettings({ ...(timezone ? { timezone } : {}), locale: interaction.locale });
    const settings = memory.readSettings();
    const asking = describeAskBeforeSaving(settings.askBeforeSaving, zh);
    const tidying = describeTidyUp(settings.tidyUp, zh);
    const place = `${describeTimeZone(memory.timeZone().zone, settings.timezone !== undefined, zh)} ${describeLanguage(settings.locale, zh)}`;
    await interaction.reply({
      content: zh(
        `Saved. I'm now **${persona.name}**. This applies from your next conversation; the ones already open keep their current persona.\n-# ${asking}\n-# ${tidying}\n-# ${place}\n-# Change them with /memory settings.`,
        `已保存。我现在是 **${persona.name}**。从你的下一次对话开始生效；正在进行的对话保持原样。\n-# ${asking}\n-# ${tidying}\n-# ${place}\n-# 可用 /memory settings 更改。`,
      ),
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    });
    ctx.log.info({ userId: interaction.user.id }, "persona saved");
  },
};
