import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type ChatInputCommandInteraction,
  type MessageActionRowComponentBuilder,
} from "discord.js";
import { readFile, rm, writeFile } from "node:fs/promises";
import type { Say } from "../../lib/locale.js";
import { importRefusal, importReport, type ImportReport } from "../../present/import-preview.js";
import { applyImport, dropPendingImports, importableName, IMPORT_LIMITS, pendingUploadPath, planImport, readImport } from "../../memory/import.js";
import type { MemoryStore } from "../../memory/memory-store.js";
import { savePending, takePending } from "../../memory/pending.js";
import { downloadWhole } from "../attachments/download.js";
import { componentId, type ComponentHandler, type ComponentInteraction } from "../components/router.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";

/** Discord's limit for a message's text. */
const MESSAGE_CHARS = 2000;

/**
 * The report as a message: all of it when it fits, else the first files, a line saying how many
 * more, and the whole list attached as a text file.
 */
function asMessage(report: ImportReport, footer: string, fileName: string, say: Say): { content: string; files: AttachmentBuilder[] } {
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

/** /memory import file:<attachment>: reads the file, shows what would change, asks Import / Cancel. */
/**
 * People whose import is being read or written in this process: one at a time each. Forty
 * 10 MB previews at once took 2 GB and held up everyone's replies for seconds.
 */
const importing = new Set<string>();

const busyLine = (say: Say) =>
  say(
    "I'm still reading your last import; wait until it has answered, then try again. Nothing was changed.",
    "你上一次的导入还在处理中；请等它完成后再试。没有做任何改动。",
  );

/** Runs `work` as this person's one import under way, or answers `busy` when another is. */
async function oneAtATime(memory: MemoryStore, busy: () => Promise<unknown>, work: () => Promise<void>): Promise<void> {
  if (importing.has(memory.dir)) return void (await busy());
  importing.add(memory.dir);
  try {
    await work();
  } finally {
    importing.delete(memory.dir);
  }
}

export async function runImport(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const say = sayFor(interaction);
  await oneAtATime(memory, () => interaction.editReply({ content: busyLine(say), allowedMentions: NO_MENTIONS }), () => previewImport(interaction, memory, say));
}

async function previewImport(interaction: ChatInputCommandInteraction, memory: MemoryStore, say: Say): Promise<void> {
  const attachment = interaction.options.getAttachment("file", true);
  const name = attachment.name;
  const refuse = (content: string) => interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  // Refused before anything is downloaded when the name or the announced size already says no.
  if (!importableName(name)) return void (await refuse(importRefusal(name, { kind: "unknown-name" }, say)));
  if (attachment.size > IMPORT_LIMITS.bytes) return void (await refuse(importRefusal(name, { kind: "too-large", bytes: attachment.size, limit: IMPORT_LIMITS.bytes }, say)));
  const download = await downloadWhole(attachment.url, IMPORT_LIMITS.bytes);
  if (!download.ok) {
    if (download.error.reason === "too-big") return void (await refuse(importRefusal(name, { kind: "too-large", limit: IMPORT_LIMITS.bytes }, say)));
    return void (await refuse(say("I couldn't download that file from Discord; please try again. Nothing was changed.", "无法从 Discord 下载该文件，请重试。没有做任何改动。")));
  }
  const files = await readImport(name, download.value);
  if (!files.ok) return void (await refuse(importRefusal(name, files.error, say)));
  const plan = await planImport(memory, files.value);
  const report = importReport(name, plan, "preview", say);
  if (Object.keys(plan.writes).length === 0 && !plan.settings) {
    const { content, files: attached } = asMessage(report, say("Nothing to import.", "没有需要导入的内容。"), "import-preview.txt", say);
    await interaction.editReply({ content, files: attached, allowedMentions: NO_MENTIONS });
    return;
  }
  // The upload waits in the person's pending/ folder (an hour, gone with a forget); the button carries
  // its token. A new preview replaces any older one, so pending/ holds at most one upload a person.
  await dropPendingImports(memory);
  const token = await savePending(memory.dir, "import", { name });
  // Not atomic: a cut upload only fails to read again at Import, with its reason.
  await writeFile(pendingUploadPath(memory, token), download.value, { mode: 0o600 });
  const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder().setCustomId(componentId("im", interaction.user.id, token)).setLabel(say("Import", "导入")).setStyle(ButtonStyle.Primary),
    new ButtonBuilder().setCustomId(componentId("ix", interaction.user.id, token)).setLabel(say("Cancel", "取消")).setStyle(ButtonStyle.Secondary),
  );
  const footer = say("-# Memory files and logs are replaced as a whole; /memory undo takes the import back.", "-# 记忆文件和日志会被整体替换；可用 /memory undo 撤销这次导入。");
  const { content, files: attached } = asMessage(report, footer, "import-preview.txt", say);
  await interaction.editReply({ content, files: attached, components: [buttons], allowedMentions: NO_MENTIONS });
}

/** The upload a pending import kept, taken out (undefined when unknown, expired or already used). */
async function takeUpload(memory: MemoryStore, token: string): Promise<{ name: string; bytes: Buffer } | undefined> {
  const pending = await takePending<{ name?: unknown }>(memory.dir, "import", token);
  const path = pendingUploadPath(memory, token);
  const bytes = pending ? await readFile(path).catch(() => undefined) : undefined;
  await rm(path, { force: true });
  return typeof pending?.name === "string" && bytes ? { name: pending.name, bytes } : undefined;
}

export const importHandlers: ComponentHandler[] = [
  {
    prefix: "im",
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      const memory = ctx.engine.memoryOf(interaction.user.id);
      // Acknowledged first: reading and writing a large import takes longer than Discord waits.
      await interaction.deferUpdate();
      await oneAtATime(
        memory,
        () => interaction.followUp({ content: busyLine(say), flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS }),
        () => applyUpload(interaction, memory, token, say),
      );
    },
  },
  {
    prefix: "ix",
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      await takeUpload(ctx.engine.memoryOf(interaction.user.id), token);
      await interaction.update({ content: sayFor(interaction)("Nothing was imported.", "没有导入任何内容。"), components: [], attachments: [] });
    },
  },
];

/** Import pressed: the upload read again and applied (planned again under the lock). */
async function applyUpload(interaction: ComponentInteraction, memory: MemoryStore, token: string, say: Say): Promise<void> {
  const upload = await takeUpload(memory, token);
  const edit = (content: string, files: AttachmentBuilder[] = []) => interaction.editReply({ content, files, attachments: [], components: [], allowedMentions: NO_MENTIONS });
  if (!upload) return void (await edit(say("That import is out of date; run /memory import again.", "这次导入已过期，请重新运行 /memory import。")));
  const files = await readImport(upload.name, upload.bytes);
  if (!files.ok) return void (await edit(importRefusal(upload.name, files.error, say)));
  // Planned again under the lock: the files may have changed since the preview.
  const { plan } = await applyImport(memory, files.value);
  const wrote = plan.files.some((f) => f.status === "new" || f.status === "changed");
  const footer = wrote
    ? say("-# It applies from your next conversation; /memory undo takes it back.", "-# 从下一次对话开始生效；可用 /memory undo 撤销。")
    : say("-# Nothing was changed: your memory already held all of it.", "-# 没有做任何改动：你的记忆里已经有这些内容。");
  const { content, files: attached } = asMessage(importReport(upload.name, plan, "done", say), footer, "import-report.txt", say);
  await edit(content, attached);
}
