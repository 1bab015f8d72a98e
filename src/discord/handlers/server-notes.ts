import { MessageFlags } from "discord.js";
import { writeRefusalLine } from "../../present/write-refusal.js";
import type { BotContext } from "../bot-context.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import { mayWriteServerNotes, memberWriter, suggestionLine } from "../views/server-notes.js";
import type { ComponentHandler, ComponentInteraction } from "./router.js";
import { COMPONENT } from "../views/custom-id.js";

/**
 * Save or Discard on a suggestion for the server's notes. Anyone may see it; only a member who
 * may write the notes may press it (others get a private line and nothing changes). Save runs
 * every check of a write again, and keeps the suggestion waiting when one refuses it.
 */
async function settle(interaction: ComponentInteraction, action: string, id: string, ctx: BotContext): Promise<void> {
  if (!interaction.isButton() || !interaction.guildId) return;
  const say = sayFor(interaction);
  const answer = (content: string) => interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  if (!mayWriteServerNotes(interaction, ctx.config.serverNotes.roleId)) {
    await interaction.reply({
      content: say(
        "Only members who may write this server's notes (Manage Server, or the server-notes role) can press this.",
        "只有可以编写本服务器笔记的成员（管理服务器权限或服务器笔记角色）才能按这个按钮。",
      ),
      flags: MessageFlags.Ephemeral,
    });
    return;
  }
  await interaction.deferUpdate();
  const notes = ctx.engine.serverNotesOf(interaction.guildId);
  const waiting = notes.suggestions().find((s) => s.id === id);
  if (!waiting) {
    await interaction.editReply({ components: [] });
    await answer(say("That suggestion was already handled, or it expired (after 7 days).", "这条建议已经处理过或已过期（7 天）。"));
    return;
  }
  const who = `<@${interaction.user.id}>`;
  if (action === "discard") {
    await notes.takeSuggestion(id, "discarded");
    await interaction.editReply({
      content: `${say(`Discarded by ${who}:`, `已由 ${who} 丢弃：`)} ~~${suggestionLine(waiting)}~~`,
      components: [],
      allowedMentions: NO_MENTIONS,
    });
    return;
  }
  // The model's words: the model's checks, journalled as the member who saved them.
  const saved = await notes.notes.add(waiting.section, waiting.content, memberWriter(interaction.user.id, "tool"));
  if (!saved.ok) {
    await answer(
      `${say("Not saved:", "未保存：")} ${writeRefusalLine(saved, notes.notes.label, say)}\n${say("The suggestion still waits.", "这条建议仍在等待。")}`,
    );
    return;
  }
  await notes.takeSuggestion(id, "saved");
  const { used, cap } = saved.value.usage;
  await interaction.editReply({
    content: `${say(`✅ Saved by ${who}`, `✅ 已由 ${who} 保存`)} (${used}/${cap}): ${suggestionLine(waiting)}`,
    components: [],
    allowedMentions: NO_MENTIONS,
  });
}

export const serverNotesHandlers: ComponentHandler[] = [
  { prefix: COMPONENT.serverSuggestion, shared: true, handle: (interaction, [action = "", id = ""], ctx) => settle(interaction, action, id, ctx) },
];
