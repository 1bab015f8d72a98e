import { MessageFlags, type AttachmentBuilder, type ChatInputCommandInteraction, type ModalSubmitInteraction, type SlashCommandStringOption } from "discord.js";

/** Discord's limit for a text input's value. */
export const MODAL_TEXT_LIMIT = 4000;
/** Room for the header and fence around a file shown inline. */
export const INLINE_LIMIT = 1800;

/** The `section` option of /memory and /server-notes: a name without ##, at most 80 characters. */
export function withSection(o: SlashCommandStringOption): SlashCommandStringOption {
  return o
    .setName("section")
    .setNameLocalization("zh-CN", "小节")
    .setDescription("Section name, without ##")
    .setDescriptionLocalization("zh-CN", "小节名（不含 ##）")
    .setRequired(true)
    .setMaxLength(80);
}

/** An answer only the caller sees, pinging nobody. */
export const ephemeralReply = (interaction: ChatInputCommandInteraction | ModalSubmitInteraction, content: string, files: AttachmentBuilder[] = []) =>
  interaction.reply({ content, files, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });

/** The longest backtick run inside decides the fence, so a file with ``` still shows whole. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}md\n${text.trimEnd()}\n${fence}`;
}
