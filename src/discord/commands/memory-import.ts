import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type ChatInputCommandInteraction,
  type MessageActionRowComponentBuilder,
} from "discord.js";
import type { Say } from "../../lib/locale.js";
import { importBusyLine, importRefusal, importReport } from "../../present/import-preview.js";
import { IMPORT_LIMITS, importableName, type MemoryStore, oneImportAtATime, previewImport } from "../../memory/index.js";
import { downloadWhole } from "../attachments/download.js";
import { COMPONENT, componentId } from "../views/custom-id.js";
import { asMessage } from "../handlers/import.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";

/** Discord's limit for a message's text. */
export async function runImport(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const say = sayFor(interaction);
  await oneImportAtATime(
    memory,
    async () => void (await interaction.editReply({ content: importBusyLine(say), allowedMentions: NO_MENTIONS })),
    () => previewUpload(interaction, memory, say),
  );
}

async function previewUpload(interaction: ChatInputCommandInteraction, memory: MemoryStore, say: Say): Promise<void> {
  const attachment = interaction.options.getAttachment("file", true);
  const name = attachment.name;
  const refuse = (content: string) => interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  // Refused before anything is downloaded when the name or the announced size already says no.
  if (!importableName(name)) return void (await refuse(importRefusal(name, { kind: "unknown-name" }, say)));
  if (attachment.size > IMPORT_LIMITS.bytes)
    return void (await refuse(importRefusal(name, { kind: "too-large", bytes: attachment.size, limit: IMPORT_LIMITS.bytes }, say)));
  const download = await downloadWhole(attachment.url, IMPORT_LIMITS.bytes);
  if (!download.ok) {
    if (download.error.reason === "too-big") return void (await refuse(importRefusal(name, { kind: "too-large", limit: IMPORT_LIMITS.bytes }, say)));
    return void (await refuse(
      say("I couldn't download that file from Discord; please try again. Nothing was changed.", "无法从 Discord 下载该文件，请重试。没有做任何改动。"),
    ));
  }
  const preview = await previewImport(memory, name, download.value, { keep: true });
  if (preview.kind === "refused") return void (await refuse(importRefusal(name, preview.refusal, say)));
  const report = importReport(name, preview.plan, "preview", say);
  if (preview.kind === "nothing") {
    const { content, files: attached } = asMessage(report, say("Nothing to import.", "没有需要导入的内容。"), "import-preview.txt", say);
    await interaction.editReply({ content, files: attached, allowedMentions: NO_MENTIONS });
    return;
  }
  const token = preview.token!;
  const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.importConfirm, interaction.user.id, token))
      .setLabel(say("Import", "导入"))
      .setStyle(ButtonStyle.Primary),
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.importCancel, interaction.user.id, token))
      .setLabel(say("Cancel", "取消"))
      .setStyle(ButtonStyle.Secondary),
  );
  const footer = say(
    "-# Memory files and logs are replaced as a whole; /memory undo takes the import back.",
    "-# 记忆文件和日志会被整体替换；可用 /memory undo 撤销这次导入。",
  );
  const { content, files: attached } = asMessage(report, footer, "import-preview.txt", say);
  await interaction.editReply({ content, files: attached, components: [buttons], allowedMentions: NO_MENTIONS });
}
