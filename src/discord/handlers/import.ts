import { AttachmentBuilder, MessageFlags } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { cancelImport, confirmImport, type MemoryStore, oneImportAtATime } from "../../memory/index.js";
import { importBusyLine, importForgottenLine, importRefusal, importReport, type ImportReport } from "../../present/import-preview.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import type { ComponentHandler, ComponentInteraction } from "./router.js";
import { COMPONENT } from "../views/custom-id.js";

const MESSAGE_CHARS = 2000;

/**
 * The report as a message: all of it when it fits, else the first files, a line saying how many
 * more, and the whole list attached as a text file.
 */
export function asMessage(report: ImportReport, footer: string, fileName: string, say: Say): { content: string; files: AttachmentBuilder[] } {
  const full = [report.header, ...report.files, footer].join("\n");
  if (full.length <= MESSAGE_CHARS) return { content: full, files: [] };
  const more = (n: number) => say(`…and ${n} more file(s): every file is listed in ${fileName}.`, `……另有 ${n} 个文件：完整列表见 ${fileName}。`);
  const shown: string[] = [];
  let used = report.header.length + footer.length + more(report.files.length).length + 3;
  for (const block of report.files) {
    if (used + block.length + 1 > MESSAGE_CHARS) break;
    shown.push(block);
    used += block.length + 1;
  }
  const content = [report.header, ...shown, more(report.files.length - shown.length), footer].join("\n");
  return { content, files: [new AttachmentBuilder(Buffer.from(full.replaceAll("**", "")), { name: fileName })] };
}

export const importHandlers: ComponentHandler[] = [
  {
    prefix: COMPONENT.importConfirm,
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      const memory = ctx.engine.memoryOf(interaction.user.id, interaction.locale);
      // Acknowledged first: reading and writing a large import takes longer than Discord waits.
      await interaction.deferUpdate();
      await oneImportAtATime(
        memory,
        async () => void (await interaction.followUp({ content: importBusyLine(say), flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS })),
        () => applyUpload(interaction, memory, token, say),
      );
    },
  },
  {
    prefix: COMPONENT.importCancel,
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      await cancelImport(ctx.engine.memoryOf(interaction.user.id), token);
      await interaction.update({ content: sayFor(interaction)("Nothing was imported.", "没有导入任何内容。"), components: [], attachments: [] });
    },
  },
];

/** Import pressed: the upload read again and applied (planned again under the lock). */
async function applyUpload(interaction: ComponentInteraction, memory: MemoryStore, token: string, say: Say): Promise<void> {
  const edit = (content: string, files: AttachmentBuilder[] = []) =>
    interaction.editReply({ content, files, attachments: [], components: [], allowedMentions: NO_MENTIONS });
  const result = await confirmImport(memory, token, new Date());
  if (result.kind === "gone")
    return void (await edit(say("That import is out of date; run /memory import again.", "这次导入已过期，请重新运行 /memory import。")));
  if (result.kind === "refused") return void (await edit(importRefusal(result.name, result.refusal, say)));
  if (result.kind === "forgotten") return void (await edit(importForgottenLine(say)));
  const { name, plan, wrote } = result;
  const footer = wrote
    ? say("-# It applies from your next conversation; /memory undo takes it back.", "-# 从下一次对话开始生效；可用 /memory undo 撤销。")
    : say("-# Nothing was changed: your memory already held all of it.", "-# 没有做任何改动：你的记忆里已经有这些内容。");
  const { content, files: attached } = asMessage(importReport(name, plan, "done", say), footer, "import-report.txt", say);
  await edit(content, attached);
}
