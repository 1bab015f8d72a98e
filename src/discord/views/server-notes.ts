import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  PermissionFlagsBits,
  type Interaction,
  type MessageActionRowComponentBuilder,
  type MessageCreateOptions,
} from "discord.js";
import type { Say } from "../../lib/locale.js";
import { cutChars } from "../../lib/text.js";
import { SERVER_NOTES_LABEL, type Suggestion, type Writer } from "../../memory/index.js";
import { NO_MENTIONS } from "../reply-stream.js";
import { COMPONENT, componentId } from "./custom-id.js";

/** Whether this member may write the server's notes: Manage Server, or the role the operator named. */
export function mayWriteServerNotes(interaction: Interaction, roleId: string | undefined): boolean {
  if (!interaction.inGuild()) return false;
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return true;
  if (!roleId) return false;
  const roles = interaction.member.roles;
  return Array.isArray(roles) ? roles.includes(roleId) : roles.cache.has(roleId);
}

/**
 * A member's own edit of the notes: the person's checks, and the journal names them; a secret is
 * refused, not warned about, since everyone in the server reads the notes. A saved suggestion is
 * the model's text, so it keeps the model's stricter checks.
 */
export const memberWriter = (userId: string, level: Writer["level"] = "person"): Writer => ({ level, by: { kind: "person", userId }, refusesSecrets: true });

/** `SERVER.md › Events: + “…”`, the words cut to one line of a message. */
export function suggestionLine(suggestion: Suggestion): string {
  return `${SERVER_NOTES_LABEL} › ${suggestion.section}: + “${cutChars(suggestion.content.replace(/\s+/g, " "), 300)}”`;
}

/** The message the moderators get: what was suggested, from whose conversation, Save / Discard for those allowed. */
export function suggestionMessage(guildId: string, suggestion: Suggestion, say: Say): MessageCreateOptions {
  const content = say(
    `💡 I suggest a change to this server's notes (from a conversation with <@${suggestion.userId}>):\n${suggestionLine(suggestion)}\n-# Only members who may write server notes can save it.`,
    `💡 我建议修改本服务器笔记（来自与 <@${suggestion.userId}> 的对话）：\n${suggestionLine(suggestion)}\n-# 只有可以编写服务器笔记的成员才能保存。`,
  );
  const row = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.serverSuggestion, guildId, "save", suggestion.id))
      .setLabel(say("Save", "保存"))
      .setStyle(ButtonStyle.Success),
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.serverSuggestion, guildId, "discard", suggestion.id))
      .setLabel(say("Discard", "丢弃"))
      .setStyle(ButtonStyle.Secondary),
  );
  return { content, components: [row], allowedMentions: NO_MENTIONS };
}
