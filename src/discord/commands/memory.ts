import { AttachmentBuilder, LabelBuilder, MessageFlags, ModalBuilder, SlashCommandBuilder, TextInputBuilder, TextInputStyle } from "discord.js";
import {
  WHOLE_FILE_LABELS,
  hasPrivateSections,
  checkSectionName,
  contentHash,
  FILE_KINDS,
  FILE_TABLE,
  type FileKind,
  holdInFlight,
  type MemoryFile,
  type MemoryStore,
  PERSON,
  type SecretFinding,
  WHOLE_FILE_KINDS,
} from "../../memory/index.js";
import { isLocalDate } from "../../lib/time.js";
import type { Command } from "../bot-context.js";
import type { Say } from "../../lib/locale.js";
import { sayFor } from "../interaction-helpers.js";
import { exportFiles } from "./memory-export.js";
import { runDeleteAll, runForget } from "./memory-forget.js";
import { runGlance } from "./memory-glance.js";
import { runHistory, runUndo } from "./memory-history.js";
import { runImport } from "./memory-import.js";
import { runWebLink } from "./memory-web.js";
import { runPrivate } from "./memory-private.js";
import { privateLine } from "../../present/privacy-lines.js";
import { searchAnswer } from "./memory-search.js";
import { runSettings, withSettings } from "./memory-settings.js";
import { badSectionNameLine, secretWarningLine, sectionChangeLine, writeRefusalLine } from "../../present/write-refusal.js";
import { ephemeralReply as reply, fenced, INLINE_LIMIT, MODAL_TEXT_LIMIT, withSection } from "./command-parts.js";

const MODAL_PREFIX = "memory-edit";

const fileChoices = FILE_KINDS.map((kind) => ({
  name: kind,
  value: kind,
  name_localizations: { "zh-CN": kind === "daily" ? "今日日志" : FILE_TABLE[kind].short.zh },
}));

/** Discord takes 100 characters: past that, the kinds alone (a longer table still loads). */
const fitted = (long: string, short: string) => (long.length <= 100 ? long : short);
const FILE_DESCRIPTION = {
  en: fitted(
    WHOLE_FILE_KINDS.map((kind) => `${kind} = ${FILE_TABLE[kind].name.en}`)
      .concat("daily = today's log")
      .join(", "),
    `Which file: ${FILE_KINDS.join(", ")}`,
  ),
  zh: fitted(`${WHOLE_FILE_KINDS.map((kind) => FILE_TABLE[kind].name.zh).join("、")}或今天的日志`, `哪个文件：${FILE_KINDS.join("、")}`),
};

function withFile(o: import("discord.js").SlashCommandStringOption) {
  return o
    .setName("file")
    .setNameLocalization("zh-CN", "文件")
    .setDescription(FILE_DESCRIPTION.en)
    .setDescriptionLocalization("zh-CN", FILE_DESCRIPTION.zh)
    .setRequired(true)
    .addChoices(...fileChoices);
}

function fileOf(memory: MemoryStore, kind: FileKind, date?: string): MemoryFile {
  return kind === "daily" && date ? memory.daily(date) : memory.file(kind);
}

function secretWarning(secret: SecretFinding | undefined, say: Say): string {
  return secret ? `\n${secretWarningLine(secret, say)}` : "";
}

export const memoryCommand: Command = {
  data: new SlashCommandBuilder()
    .setName("memory")
    .setNameLocalization("zh-CN", "记忆")
    .setDescription("See and edit what I remember about you (only you see the answers)")
    .setDescriptionLocalization("zh-CN", "查看和编辑我对你的记忆（仅你可见）")
    .addSubcommand((s) =>
      s
        .setName("view")
        .setNameLocalization("zh-CN", "查看")
        .setDescription("Your memory at a glance, or one file")
        .setDescriptionLocalization("zh-CN", "一览你的记忆，或显示一个文件")
        .addStringOption((o) =>
          withFile(o)
            .setRequired(false)
            .setDescription("Optional: leave out to see all files at a glance, or pick one (daily = today's log)")
            .setDescriptionLocalization("zh-CN", "可不填：不填则一览全部文件，或选一个文件查看全文"),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("edit")
        .setNameLocalization("zh-CN", "编辑")
        .setDescription("Edit a whole memory file")
        .setDescriptionLocalization("zh-CN", "编辑整个记忆文件")
        .addStringOption(withFile),
    )
    .addSubcommand((s) =>
      s
        .setName("add")
        .setNameLocalization("zh-CN", "添加")
        .setDescription("Add text to a section")
        .setDescriptionLocalization("zh-CN", "向小节添加内容")
        .addStringOption(withFile)
        .addStringOption(withSection)
        .addStringOption((o) =>
          o
            .setName("content")
            .setNameLocalization("zh-CN", "内容")
            .setDescription("Text to add")
            .setDescriptionLocalization("zh-CN", "要添加的内容")
            .setRequired(true),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("remove")
        .setNameLocalization("zh-CN", "删除")
        .setDescription("Remove a whole section")
        .setDescriptionLocalization("zh-CN", "删除整个小节")
        .addStringOption(withFile)
        .addStringOption(withSection),
    )
    .addSubcommand((s) =>
      s
        .setName("search")
        .setNameLocalization("zh-CN", "搜索")
        .setDescription("Search everything I remember of our conversations")
        .setDescriptionLocalization("zh-CN", "搜索我记得的我们所有对话")
        .addStringOption((o) =>
          o
            .setName("query")
            .setNameLocalization("zh-CN", "内容")
            .setDescription("Words to look for: a name, a place, a topic (leave out with a date: that time's conversations)")
            .setDescriptionLocalization("zh-CN", "要找的词：人名、地点、话题（只给日期时列出那段时间的对话）")
            .setMaxLength(200),
        )
        .addStringOption((o) =>
          o
            .setName("since")
            .setNameLocalization("zh-CN", "从")
            .setDescription("From this day (YYYY-MM-DD) or month (YYYY-MM)")
            .setDescriptionLocalization("zh-CN", "从这一天（YYYY-MM-DD）或这个月（YYYY-MM）起")
            .setMaxLength(10),
        )
        .addStringOption((o) =>
          o
            .setName("until")
            .setNameLocalization("zh-CN", "到")
            .setDescription("Up to this day (YYYY-MM-DD) or month (YYYY-MM)")
            .setDescriptionLocalization("zh-CN", "到这一天（YYYY-MM-DD）或这个月（YYYY-MM）为止")
            .setMaxLength(10),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("history")
        .setNameLocalization("zh-CN", "记录")
        .setDescription("Every change to your memory, newest first")
        .setDescriptionLocalization("zh-CN", "你的记忆的所有改动，最新在前")
        .addStringOption((o) => withFile(o).setRequired(false)),
    )
    .addSubcommand((s) =>
      s
        .setName("undo")
        .setNameLocalization("zh-CN", "撤销")
        .setDescription("Take back a change to your memory")
        .setDescriptionLocalization("zh-CN", "撤销一处记忆改动"),
    )
    .addSubcommand(withSettings)
    .addSubcommand((s) =>
      s
        .setName("import")
        .setNameLocalization("zh-CN", "导入")
        .setDescription(`Bring back an export (agentkit-memory.json) or one ${WHOLE_FILE_LABELS.join(" / ")}`)
        .setDescriptionLocalization("zh-CN", `导入导出文件（agentkit-memory.json）或单个 ${WHOLE_FILE_LABELS.join(" / ")}`)
        .addAttachmentOption((o) =>
          o
            .setName("file")
            .setNameLocalization("zh-CN", "文件")
            .setDescription("The file to import")
            .setDescriptionLocalization("zh-CN", "要导入的文件")
            .setRequired(true),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("forget")
        .setNameLocalization("zh-CN", "忘记")
        .setDescription("Forget everything that mentions some words, everywhere")
        .setDescriptionLocalization("zh-CN", "在所有地方忘记提到某些词的内容")
        .addStringOption((o) =>
          o
            .setName("text")
            .setNameLocalization("zh-CN", "内容")
            .setDescription("The words to forget")
            .setDescriptionLocalization("zh-CN", "要忘记的词")
            .setRequired(true)
            .setMaxLength(100),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("delete-all")
        .setNameLocalization("zh-CN", "全部删除")
        .setDescription("Delete everything I remember about you")
        .setDescriptionLocalization("zh-CN", "删除我记得的关于你的一切"),
    )
    .addSubcommand((s) =>
      s
        .setName("export")
        .setNameLocalization("zh-CN", "导出")
        .setDescription("Download all your memory files")
        .setDescriptionLocalization("zh-CN", "下载你的全部记忆文件"),
    )
    .addSubcommand((s) =>
      s
        .setName("private")
        .setNameLocalization("zh-CN", "私密")
        .setDescription("Keep a section out of public threads (health, family, money…), or share it again")
        .setDescriptionLocalization("zh-CN", "让某个小节不出现在公开子区（健康、家庭、财务…），或重新公开")
        .addStringOption(withSection)
        .addBooleanOption((o) =>
          o
            .setName("private")
            .setNameLocalization("zh-CN", "私密")
            .setDescription("true: only DMs and private threads see it; false: public threads too")
            .setDescriptionLocalization("zh-CN", "是：只有私信和私密子区可见；否：公开子区也可见")
            .setRequired(true),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("web")
        .setNameLocalization("zh-CN", "网页")
        .setDescription("A sign-in link to your memory's web page (for you only, 10 minutes, once)")
        .setDescriptionLocalization("zh-CN", "你的记忆网页的登录链接（仅你可用，10 分钟，一次）"),
    ),
  modalPrefix: MODAL_PREFIX,

  async execute(interaction, ctx) {
    // Always the caller's own memory: the id comes from Discord, never from an option.
    const memory = ctx.engine.memoryOf(interaction.user.id, interaction.locale);
    const sub = interaction.options.getSubcommand();
    if (sub === "history") return runHistory(interaction, memory);
    if (sub === "settings") return runSettings(interaction, memory);
    if (sub === "forget") return runForget(interaction, memory, ctx);
    if (sub === "import") return runImport(interaction, memory);
    if (sub === "delete-all") return runDeleteAll(interaction);
    if (sub === "undo") return runUndo(interaction, memory);
    if (sub === "web") return runWebLink(interaction, ctx.config);
    if (sub === "private") return runPrivate(interaction, memory);
    if (sub === "search") {
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const query = interaction.options.getString("query") ?? "";
      const dates = { since: interaction.options.getString("since"), until: interaction.options.getString("until") };
      const content = await searchAnswer(memory, query, sayFor(interaction), dates);
      await interaction.editReply({ content, allowedMentions: { parse: [] } });
      return;
    }
    const say = sayFor(interaction);
    if (sub === "export") {
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const files = await exportFiles(memory);
      // Counted as the person's until Discord has it: an import meanwhile is measured with it.
      const release = holdInFlight(
        memory,
        files.reduce((sum, file) => sum + (Buffer.isBuffer(file.attachment) ? file.attachment.length : 0), 0),
      );
      try {
        await interaction.editReply({
          content: files.length
            ? say(`Your memory files (${files.length}).`, `你的记忆文件（${files.length} 个）。`)
            : say("I don't have any memory of you yet.", "我还没有关于你的记忆。"),
          files,
        });
      } finally {
        release();
      }
      return;
    }
    if (sub === "view" && interaction.options.getString("file") === null)
      return runGlance(interaction, memory, interaction.guildId ? ctx.engine.serverNotesOf(interaction.guildId) : undefined);
    const kind = interaction.options.getString("file", true) as FileKind;
    const file = fileOf(memory, kind);
    if (sub === "view") {
      const text = await file.read();
      const { used, cap } = await file.usage();
      const marked = hasPrivateSections(kind) ? privateLine(text, memory.readSettings().privateSections, say) : "";
      const header = say(`**${file.label}** (${used}/${cap} chars)`, `**${file.label}**（${used}/${cap} 字）`) + (marked ? `\n${marked}` : "");
      if (text.trim() === "") await reply(interaction, say(`${header} is empty.`, `${header}是空的。`));
      else if (text.length <= INLINE_LIMIT) await reply(interaction, `${header}\n${fenced(text)}`);
      else
        await reply(interaction, say(`${header}, attached.`, `${header}，见附件。`), [
          new AttachmentBuilder(Buffer.from(text), { name: file.label.replace("/", "-") }),
        ]);
      return;
    }
    if (sub === "edit") {
      const text = await file.read();
      if (text.length > MODAL_TEXT_LIMIT) {
        await reply(
          interaction,
          say(
            `${file.label} is longer than Discord lets me put in a form (${MODAL_TEXT_LIMIT}); use /memory view and /memory remove to shorten it.`,
            `${file.label} 比 Discord 表单能容纳的更长（${MODAL_TEXT_LIMIT} 字）；请用 /memory view 和 /memory remove 把它缩短。`,
          ),
        );
        return;
      }
      const date = kind === "daily" ? file.label.slice("daily/".length, -".md".length) : "";
      const content = new TextInputBuilder().setCustomId("content").setStyle(TextInputStyle.Paragraph).setRequired(false).setMaxLength(MODAL_TEXT_LIMIT);
      if (text) content.setValue(text);
      await interaction.showModal(
        new ModalBuilder()
          // The fingerprint of the text shown lets the submit notice edits made meanwhile.
          .setCustomId([MODAL_PREFIX, kind, date || "-", contentHash(text)].join(":"))
          .setTitle(say(`Edit ${file.label}`, `编辑 ${file.label}`).slice(0, 45))
          .addLabelComponents(
            new LabelBuilder().setLabel(say(`${file.label} (cap ${file.cap} chars)`, `${file.label}（上限 ${file.cap} 字）`)).setTextInputComponent(content),
          ),
      );
      return;
    }
    const section = checkSectionName(interaction.options.getString("section", true));
    if (!section.ok) {
      await reply(interaction, badSectionNameLine(section.error, say));
      return;
    }
    const result =
      sub === "add" ? await file.add(section.value, interaction.options.getString("content", true), PERSON) : await file.remove(section.value, PERSON);
    if (!result.ok) {
      await reply(interaction, `${writeRefusalLine(result, file.label, say)}\n${say("Nothing was changed.", "没有做任何改动。")}`);
      return;
    }
    const { used, cap } = result.value.usage;
    const where = `${file.label} › ${section.value}`;
    const done = sectionChangeLine(sub === "add" ? "add" : "remove", result.value.changed, where, say);
    await reply(
      interaction,
      `${done}${say(` (${used}/${cap} chars). I'll use it from the next conversation.`, `（${used}/${cap} 字）。从下一次对话开始生效。`)}${secretWarning(result.value.secret, say)}`,
    );
  },

  async submitModal(interaction, ctx) {
    const [, kind, date, shownHash] = interaction.customId.split(":");
    const validDate = date === "-" || (date !== undefined && isLocalDate(date));
    if (!kind || !(FILE_KINDS as string[]).includes(kind) || !validDate || !shownHash) {
      await reply(interaction, sayFor(interaction)("That form is out of date; run /memory edit again.", "这个表单已过期，请重新运行 /memory edit。"));
      return;
    }
    const memory = ctx.engine.memoryOf(interaction.user.id, interaction.locale);
    const file = fileOf(memory, kind as FileKind, date === "-" ? undefined : date);
    const text = interaction.fields.getTextInputValue("content");
    const result = await file.write(text, PERSON, { ifUnchanged: shownHash });
    const say = sayFor(interaction);
    if (!result.ok) {
      // The person's typed text comes back as a file, so nothing they wrote is lost.
      const draft = new AttachmentBuilder(Buffer.from(text), { name: `draft-${file.label.replace("/", "-")}` });
      await reply(
        interaction,
        `${writeRefusalLine(result, file.label, say)}\n${say(
          `${file.label} was not changed; your text is attached so you can fix it and run /memory edit again.`,
          `${file.label} 没有改动；你写的内容在附件里，改好后可以再运行 /memory edit。`,
        )}`,
        [draft],
      );
      return;
    }
    const { used, cap } = result.value.usage;
    await reply(
      interaction,
      `${say(`Saved ${file.label} (${used}/${cap} chars). It applies from the next conversation.`, `已保存 ${file.label}（${used}/${cap} 字）。从下一次对话开始生效。`)}${secretWarning(result.value.secret, say)}`,
    );
  },
};
