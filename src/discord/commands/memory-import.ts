import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type ChatInputCommandInteraction,
  type MessageActionRowComponentBuilder,
} from "discord.js";
import { importPreview, unknownImport } from "../../agent/import-preview.js";
import { applyImport, planImport, readImport } from "../../memory/import.js";
import type { MemoryStore } from "../../memory/memory-store.js";
import { savePending, takePending } from "../../memory/pending.js";
import { componentId, type ComponentHandler } from "../components/router.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";

/** Larger than any export of a year's use; refused before anything is downloaded. */
export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

/** /memory import file:<attachment>: reads the file, shows what would change, asks Import / Cancel. */
export async function runImport(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const say = sayFor(interaction);
  const attachment = interaction.options.getAttachment("file", true);
  const refuse = (content: string) => interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  if (attachment.size > IMPORT_MAX_BYTES) {
    await refuse(say(`${attachment.name} is too large to import (${Math.ceil(attachment.size / 1024 / 1024)} MB; at most 8 MB). Nothing was changed.`, `${attachment.name} 太大，无法导入（${Math.ceil(attachment.size / 1024 / 1024)} MB；最多 8 MB）。没有做任何改动。`));
    return;
  }
  const response = await fetch(attachment.url).catch(() => undefined);
  if (!response?.ok) {
    await refuse(say("I couldn't download that file from Discord; please try again. Nothing was changed.", "无法从 Discord 下载该文件，请重试。没有做任何改动。"));
    return;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(await response.arrayBuffer()));
  } catch {
    await refuse(say(`${attachment.name} is not UTF-8 text; nothing was changed.`, `${attachment.name} 不是 UTF-8 文本；没有做任何改动。`));
    return;
  }
  const files = readImport(attachment.name, text);
  if (!files.ok) {
    await refuse(`${unknownImport(attachment.name, say)} ${say("Nothing was changed.", "没有做任何改动。")}`);
    return;
  }
  const plan = planImport(memory, files.value);
  if (Object.keys(plan.writes).length === 0 && !plan.settings) {
    await refuse(`${importPreview(attachment.name, plan, say)}\n${say("Nothing to import.", "没有需要导入的内容。")}`);
    return;
  }
  const token = await savePending(memory.dir, "import", files.value);
  const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder().setCustomId(componentId("im", interaction.user.id, token)).setLabel(say("Import", "导入")).setStyle(ButtonStyle.Primary),
    new ButtonBuilder().setCustomId(componentId("ix", interaction.user.id, token)).setLabel(say("Cancel", "取消")).setStyle(ButtonStyle.Secondary),
  );
  await interaction.editReply({ content: importPreview(attachment.name, plan, say), components: [buttons], allowedMentions: NO_MENTIONS });
}

export const importHandlers: ComponentHandler[] = [
  {
    prefix: "im",
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      const memory = ctx.engine.memoryOf(interaction.user.id);
      const files = await takePending<Record<string, string>>(memory.dir, "import", token);
      if (!files) {
        await interaction.update({ content: say("That import is out of date; run /memory import again.", "这次导入已过期，请重新运行 /memory import。"), components: [] });
        return;
      }
      await interaction.deferUpdate();
      // Checked again now: the files may have changed since the preview.
      const plan = planImport(memory, files);
      await applyImport(memory, plan);
      const written = Object.keys(plan.writes).length;
      const refused = plan.files.filter((f) => f.status === "refused").length;
      await interaction.editReply({
        content: say(
          `Imported ${written} file(s)${refused ? `; ${refused} refused (see the list before)` : ""}. It applies from your next conversation; /memory undo takes it back.`,
          `已导入 ${written} 个文件${refused ? `；${refused} 个被拒绝（见之前的列表）` : ""}。从下一次对话开始生效；可用 /memory undo 撤销。`,
        ),
        components: [],
      });
    },
  },
  {
    prefix: "ix",
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      await takePending(ctx.engine.memoryOf(interaction.user.id).dir, "import", token);
      await interaction.update({ content: sayFor(interaction)("Nothing was imported.", "没有导入任何内容。"), components: [] });
    },
  },
];
