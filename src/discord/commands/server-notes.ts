import {
  AttachmentBuilder,
  LabelBuilder,
  ModalBuilder,
  SlashCommandBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from "discord.js";
import { checkSectionName, contentHash, type ServerNotes, undoableOf, undoChanges } from "../../memory/index.js";
import type { Say } from "../../lib/locale.js";
import { cutChars } from "../../lib/text.js";
import { historyLine } from "../../present/history-lines.js";
import { badSectionNameLine, sectionChangeLine, writeRefusalLine } from "../../present/write-refusal.js";
import type { BotContext, Command } from "../bot-context.js";
import { sayFor } from "../interaction-helpers.js";
import { mayWriteServerNotes, memberWriter } from "../views/server-notes.js";
import { ephemeralReply, fenced, INLINE_LIMIT, MODAL_TEXT_LIMIT, withSection } from "./command-parts.js";

const MODAL_PREFIX = "sne";
const HISTORY_SHOWN = 10;
const UNDO_REACH = 25;

const reply = (interaction: ChatInputCommandInteraction | ModalSubmitInteraction, content: string, files: AttachmentBuilder[] = []) =>
  ephemeralReply(interaction, cutChars(content, 2000), files);

export const serverNotesCommand: Command = {
  data: new SlashCommandBuilder()
    .setName("server-notes")
    .setNameLocalization("zh-CN", "服务器笔记")
    .setDescription("What I know about this server, shared by everyone here (moderators write it)")
    .setDescriptionLocalization("zh-CN", "我对本服务器的了解，所有成员共享（由管理员编写）")
    .setDMPermission(false)
    .addSubcommand((s) =>
      s.setName("view").setNameLocalization("zh-CN", "查看").setDescription("Show the server's notes").setDescriptionLocalization("zh-CN", "显示服务器笔记"),
    )
    .addSubcommand((s) =>
      s
        .setName("edit")
        .setNameLocalization("zh-CN", "编辑")
        .setDescription("Edit the whole notes in a form")
        .setDescriptionLocalization("zh-CN", "在表单中编辑整份笔记"),
    )
    .addSubcommand((s) =>
      s
        .setName("add")
        .setNameLocalization("zh-CN", "添加")
        .setDescription("Add text to a section")
        .setDescriptionLocalization("zh-CN", "向小节添加内容")
        .addStringOption(withSection)
        .addStringOption((o) =>
          o
            .setName("content")
            .setNameLocalization("zh-CN", "内容")
            .setDescription("Text to add")
            .setDescriptionLocalization("zh-CN", "要添加的内容")
            .setRequired(true)
            .setMaxLength(2000),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName("remove")
        .setNameLocalization("zh-CN", "删除")
        .setDescription("Remove a whole section")
        .setDescriptionLocalization("zh-CN", "删除整个小节")
        .addStringOption(withSection),
    )
    .addSubcommand((s) =>
      s
        .setName("history")
        .setNameLocalization("zh-CN", "记录")
        .setDescription("Who changed the notes, and how")
        .setDescriptionLocalization("zh-CN", "谁改过笔记、改了什么"),
    )
    .addSubcommand((s) =>
      s
        .setName("undo")
        .setNameLocalization("zh-CN", "撤销")
        .setDescription("Take a change back (1 = the newest, as /server-notes history numbers them)")
        .setDescriptionLocalization("zh-CN", "撤销一处改动（1 = 最新，编号同 /server-notes history）")
        .addIntegerOption((o) =>
          o
            .setName("change")
            .setNameLocalization("zh-CN", "改动")
            .setDescription("Which change (default 1)")
            .setDescriptionLocalization("zh-CN", "第几处改动（默认 1）")
            .setMinValue(1)
            .setMaxValue(UNDO_REACH),
        ),
    ),
  modalPrefix: MODAL_PREFIX,

  async execute(interaction, ctx) {
    const say = sayFor(interaction);
    if (!interaction.inGuild())
      return void (await reply(
        interaction,
        say("Server notes belong to a server: use /server-notes there.", "服务器笔记属于某个服务器：请在服务器里使用 /server-notes。"),
      ));
    const notes = ctx.engine.serverNotesOf(interaction.guildId);
    const sub = interaction.options.getSubcommand();
    if (sub === "view") return view(interaction, notes, say);
    if (sub === "history") return history(interaction, notes, say);
    // Everything below writes: members with Manage Server, or the operator's role.
    if (!mayWriteServerNotes(interaction, ctx.config.serverNotes.roleId)) {
      return void (await reply(
        interaction,
        say(
          "Only members with Manage Server (or the server-notes role) may change the server's notes. Everyone may /server-notes view.",
          "只有拥有“管理服务器”权限（或服务器笔记角色）的成员可以修改服务器笔记。所有人都可以 /server-notes view。",
        ),
      ));
    }
    if (sub === "edit") return openEditor(interaction, notes, say);
    if (sub === "undo") return undo(interaction, notes, say);
    const section = checkSectionName(interaction.options.getString("section", true));
    if (!section.ok) return void (await reply(interaction, badSectionNameLine(section.error, say)));
    const writer = memberWriter(interaction.user.id);
    const result =
      sub === "add"
        ? await notes.notes.add(section.value, interaction.options.getString("content", true), writer)
        : await notes.notes.remove(section.value, writer);
    if (!result.ok)
      return void (await reply(interaction, `${writeRefusalLine(result, notes.notes.label, say)}\n${say("Nothing was changed.", "没有做任何改动。")}`));
    const where = `${notes.notes.label} › ${section.value}`;
    const { used, cap } = result.value.usage;
    const done = sectionChangeLine(sub === "add" ? "add" : "remove", result.value.changed, where, say);
    await reply(
      interaction,
      `${done} (${used}/${cap}). ${say("Conversations in this server see it from their next start.", "本服务器的对话从下一次开始时生效。")}`,
    );
  },

  async submitModal(interaction, ctx: BotContext) {
    const say = sayFor(interaction);
    const [, shownHash] = interaction.customId.split(":");
    if (!interaction.inGuild() || !shownHash)
      return void (await reply(interaction, say("That form is out of date; run /server-notes edit again.", "这个表单已过期，请重新运行 /server-notes edit。")));
    // Checked again: the right to write may have gone while the form was open.
    if (!mayWriteServerNotes(interaction, ctx.config.serverNotes.roleId))
      return void (await reply(
        interaction,
        say(
          "Only members with Manage Server (or the server-notes role) may change the server's notes.",
          "只有拥有“管理服务器”权限（或服务器笔记角色）的成员可以修改服务器笔记。",
        ),
      ));
    const notes = ctx.engine.serverNotesOf(interaction.guildId);
    const text = interaction.fields.getTextInputValue("content");
    const result = await notes.notes.write(text, memberWriter(interaction.user.id), { ifUnchanged: shownHash });
    if (!result.ok) {
      const draft = new AttachmentBuilder(Buffer.from(text), { name: "draft-SERVER.md" });
      return void (await reply(
        interaction,
        `${writeRefusalLine(result, notes.notes.label, say)}\n${say("The notes were not changed; your text is attached.", "笔记没有改动；你写的内容在附件里。")}`,
        [draft],
      ));
    }
    const { used, cap } = result.value.usage;
    await reply(interaction, `${say(`Saved ${notes.notes.label}`, `已保存 ${notes.notes.label}`)} (${used}/${cap}).`);
  },
};

async function view(interaction: ChatInputCommandInteraction, notes: ServerNotes, say: Say): Promise<void> {
  const text = await notes.notes.read();
  const { used, cap } = await notes.notes.usage();
  const header = say(`**${notes.notes.label}** of this server (${used}/${cap} chars)`, `本服务器的 **${notes.notes.label}**（${used}/${cap} 字）`);
  if (text.trim() === "")
    return void (await reply(
      interaction,
      `${header}: ${say("empty. Moderators add to it with /server-notes add.", "空的。管理员可以用 /server-notes add 添加。")}`,
    ));
  if (text.length <= INLINE_LIMIT) return void (await reply(interaction, `${header}\n${fenced(text)}`));
  await reply(interaction, header, [new AttachmentBuilder(Buffer.from(text), { name: "SERVER.md" })]);
}

async function history(interaction: ChatInputCommandInteraction, notes: ServerNotes, say: Say): Promise<void> {
  const entries = await notes.history();
  if (entries.length === 0) return void (await reply(interaction, say("The server's notes have not changed yet.", "服务器笔记还没有改动。")));
  const lines = entries.slice(0, HISTORY_SHOWN).map((entry, i) => `${i + 1}. ${cutChars(historyLine(entry, "UTC", say), 180)}`);
  await reply(interaction, [say("Changes to SERVER.md, newest first (UTC):", "SERVER.md 的改动，最新的在前（UTC）："), ...lines].join("\n"));
}

async function openEditor(interaction: ChatInputCommandInteraction, notes: ServerNotes, say: Say): Promise<void> {
  const text = await notes.notes.read();
  if (text.length > MODAL_TEXT_LIMIT)
    return void (await reply(
      interaction,
      say("The notes are longer than a form holds; shorten them with /server-notes remove.", "笔记比表单能容纳的更长；请用 /server-notes remove 缩短。"),
    ));
  const content = new TextInputBuilder().setCustomId("content").setStyle(TextInputStyle.Paragraph).setRequired(false).setMaxLength(MODAL_TEXT_LIMIT);
  if (text) content.setValue(text);
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(`${MODAL_PREFIX}:${contentHash(text)}`)
      .setTitle(say("Edit the server's notes", "编辑服务器笔记"))
      .addLabelComponents(
        new LabelBuilder().setLabel(say(`SERVER.md (cap ${notes.notes.cap} chars)`, `SERVER.md（上限 ${notes.notes.cap} 字）`)).setTextInputComponent(content),
      ),
  );
}

async function undo(interaction: ChatInputCommandInteraction, notes: ServerNotes, say: Say): Promise<void> {
  const n = interaction.options.getInteger("change") ?? 1;
  const entries = await notes.history();
  const target = entries[n - 1];
  if (!target)
    return void (await reply(
      interaction,
      say(`There is no change number ${n} (see /server-notes history).`, `没有第 ${n} 处改动（见 /server-notes history）。`),
    ));
  if (!undoableOf(entries).some((e) => e.id === target.id)) {
    return void (await reply(
      interaction,
      say(`Change ${n} cannot be taken back (it is an undo already undone, or was undone before).`, `第 ${n} 处改动无法撤销（已经撤销过）。`),
    ));
  }
  const result = await undoChanges(notes, [target.id], memberWriter(interaction.user.id).by);
  if (result.ok)
    return void (await reply(
      interaction,
      say(
        `Took back change ${n}: ${cutChars(historyLine(target, "UTC", say), 160)}`,
        `已撤销第 ${n} 处改动：${cutChars(historyLine(target, "UTC", say), 160)}`,
      ),
    ));
  const later = result.reason === "changed-since" ? result.later.map((e) => `#${entries.indexOf(e) + 1}`).join(", ") : "";
  await reply(
    interaction,
    result.reason === "changed-since"
      ? say(
          `The section changed since${later ? ` (${later})` : " by hand"}; undo those first. Nothing was changed.`,
          `该小节之后又改过${later ? `（${later}）` : "（手动）"}；请先撤销它们。没有做任何改动。`,
        )
      : say("That change cannot be taken back. Nothing was changed.", "这处改动无法撤销。没有做任何改动。"),
  );
}
