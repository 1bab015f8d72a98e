import {
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from "discord.js";
import { sayIn, type Say } from "../lib/locale.js";
import type { Caller } from "../lib/access.js";
import { NO_MENTIONS } from "./reply-stream.js";

type AnyInteraction = ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction | StringSelectMenuInteraction;

export function callerOf(interaction: AnyInteraction): Caller {
  const roles = interaction.member?.roles;
  const roleIds = roles === undefined ? [] : Array.isArray(roles) ? roles : [...roles.cache.keys()];
  return { userId: interaction.user.id, guildId: interaction.guildId ?? undefined, roleIds };
}

export function displayNameOf(interaction: AnyInteraction): string {
  const member = interaction.member;
  const nick = member && "displayName" in member ? member.displayName : (member?.nick ?? undefined);
  return nick ?? interaction.user.globalName ?? interaction.user.username;
}

/** Ephemeral text answer, whether or not the interaction was deferred. */
export async function answerPrivately(interaction: AnyInteraction, content: string): Promise<void> {
  if (interaction.deferred || interaction.replied) {
    await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  } else {
    await interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  }
}

/** English or Chinese for the caller's Discord locale (lib/locale.ts decides), as a function to hand to formatters. */
export function sayFor(interaction: AnyInteraction): Say {
  return sayIn(interaction.locale);
}

/** Picks the English or Chinese text for the caller's Discord locale. */
export function inLocale(interaction: AnyInteraction, english: string, chinese: string): string {
  return sayFor(interaction)(english, chinese);
}

/** What a person typed, shown back in Discord without the marks Discord would render (one character class: linear). */
export const withoutMarkdownMarks = (text: string): string => text.replace(/[`*_~|\\]/g, "");
