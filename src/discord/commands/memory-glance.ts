import { EmbedBuilder, MessageFlags, type ChatInputCommandInteraction } from "discord.js";
import { historyLine } from "../../present/history-lines.js";
import { storageLine } from "../../present/storage-lines.js";
import type { Say } from "../../lib/locale.js";
import {
  FILE_KINDS,
  type FileOverview,
  memoryOverview,
  type MemoryOverview,
  type MemoryStore,
  parseSections,
  privateSectionNames,
  SERVER_NOTES_CAP,
  SERVER_NOTES_LABEL,
  type ServerNotes,
} from "../../memory/index.js";
import { countChars, cutChars } from "../../lib/text.js";
import { sayFor } from "../interaction-helpers.js";

const SEGMENTS = 10;
/** One history line, cut well inside an embed field's 1,024 characters. */
const CHANGE_CHARS = 200;
/** The private sections' line, well inside the description's 4,096 characters. */
const PRIVATE_CHARS = 1_000;

/**
 * `▰▰▰▰▱▱▱▱▱▱ 41% 574/1400`. A segment fills per full tenth; a file with any text shows at least
 * one segment and 1%, a file with room left at most 99%, so neither reads as empty or full when
 * it is not. Over the cap the percentage keeps counting (101% at least) and a ⚠️ follows.
 */
export function usageBar(used: number, cap: number): string {
  const over = used > cap;
  // Multiplying first keeps whole numbers whole (1568 × 100 / 1400 is 112, not 112.00000000000001).
  const rounded = Math.round((used * 100) / cap);
  const percent = used === 0 ? 0 : over ? Math.max(101, rounded) : used === cap ? 100 : Math.min(99, Math.max(1, rounded));
  const filled = used === 0 ? 0 : Math.min(SEGMENTS, Math.max(1, Math.floor((used * SEGMENTS) / cap)));
  const bar = "▰".repeat(filled) + "▱".repeat(SEGMENTS - filled);
  return `${bar} ${percent}% ${used}/${cap}${over ? " ⚠️" : ""}`;
}

function fileLine(file: FileOverview, say: Say): string {
  const sections = file.used === 0 ? say("empty", "空") : say(`${file.sections} ${file.sections === 1 ? "section" : "sections"}`, `${file.sections} 个小节`);
  return `${file.label} ${usageBar(file.used, file.cap)} · ${sections}`;
}

function serverOverview(text: string): FileOverview {
  return { label: SERVER_NOTES_LABEL, used: countChars(text), cap: SERVER_NOTES_CAP, sections: parseSections(text).sections.length };
}

/** The glance as one embed: a bar per file, the last change, and what is kept beyond the files. */
function glanceEmbed(overview: MemoryOverview, privateSections: readonly string[], server: FileOverview | undefined, say: Say): EmbedBuilder {
  const lines = overview.files.map((file) => fileLine(file, say));
  // Asked in a server: its notes are in every conversation there too (they are the server's, not the person's).
  if (server && server.used > 0)
    lines.push(
      "",
      `${fileLine(server, say)} · ${say("this server's notes, in every conversation here (/server-notes view)", "本服务器的笔记，这里的每次对话都会用到（/server-notes view）")}`,
    );
  // The snapshot cuts such a file at its cap: the person should know part of it goes unseen.
  const over = overview.files
    .filter((file) => file.used > file.cap)
    .map(
      (file) =>
        `⚠️ ${file.label} ${say("is over its cap: I only read the part that fits. Shorten it with /memory edit.", "超出上限：我只读取放得下的部分。请用 /memory edit 精简。")}`,
    );
  if (over.length > 0) lines.push("", ...over);
  if (privateSections.length > 0) {
    lines.push(
      "",
      cutChars(
        say(`🔒 Private, kept out of public threads: ${privateSections.join(", ")}`, `🔒 私密，公开子区里不会用到：${privateSections.join("、")}`),
        PRIVATE_CHARS,
      ),
    );
  }
  const last = overview.lastChange;
  return new EmbedBuilder()
    .setTitle(say("Your memory at a glance", "你的记忆一览"))
    .setDescription(lines.join("\n"))
    .addFields(
      {
        name: say(`Last change (${overview.zone})`, `最近改动（${overview.zone}）`),
        value: last ? cutChars(historyLine(last, overview.zone, say), CHANGE_CHARS) : say("No changes yet.", "还没有改动。"),
        inline: false,
      },
      { name: say("Archived daily logs", "已归档的日志"), value: String(overview.archivedLogs), inline: true },
      { name: say("Saved conversations", "保存的对话"), value: String(overview.conversations), inline: true },
      { name: say("Storage", "存储空间"), value: storageLine(overview.storage, say), inline: true },
    )
    .setFooter({ text: say(`One file in full: /memory view file:${FILE_KINDS.join("|")}`, `查看单个文件全文：/memory view file:${FILE_KINDS.join("|")}`) });
}

/** /memory view without a file: the caller's own memory in one ephemeral embed. */
export async function runGlance(interaction: ChatInputCommandInteraction, memory: MemoryStore, serverNotes?: ServerNotes): Promise<void> {
  // The private sections there are now, by their names: a mark left by a section forget removed is not one.
  const marked = memory.readSettings().privateSections;
  const texts = await memory.privateSectionTexts();
  const privateNames = privateSectionNames(texts, marked);
  const embed = glanceEmbed(await memoryOverview(memory), privateNames, serverNotes && serverOverview(serverNotes.readSync()), sayFor(interaction));
  await interaction.reply({ embeds: [embed], flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}
