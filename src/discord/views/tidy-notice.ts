import { ActionRowBuilder, ButtonBuilder, ButtonStyle, escapeMarkdown, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import type { TidyReport } from "../../memory/index.js";
import { tidyNotice } from "../../present/tidy-lines.js";
import { COMPONENT, componentId } from "./custom-id.js";

/**
 * The tidy-up's notice under an answer: one line, and for a run that changed memory its Undo
 * (the receipt's button: one undo takes the whole run back) and Details, for the owner only.
 */
export function tidyNoticeParts(
  owner: string,
  summary: TidyReport,
  say: Say,
): { lines: string[]; components: ActionRowBuilder<MessageActionRowComponentBuilder>[] } {
  // The example is a line of memory: shown as text, never as a link or formatting.
  const example = summary.example && {
    section: escapeMarkdown(summary.example.section),
    before: escapeMarkdown(summary.example.before),
    after: escapeMarkdown(summary.example.after),
  };
  const line = tidyNotice({ ...summary, ...(example ? { example } : {}) }, say);
  if (!line) return { lines: [], components: [] };
  if (!summary.entry) return { lines: [`-# ${line}`], components: [] };
  const row = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.undo, owner, summary.entry))
      .setLabel(say("Undo the tidy-up", "撤销整理"))
      .setStyle(ButtonStyle.Secondary),
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.tidyDetails, owner, summary.entry))
      .setLabel(say("Details", "详情"))
      .setStyle(ButtonStyle.Secondary),
  );
  return { lines: [`-# ${line}`], components: [row] };
}
