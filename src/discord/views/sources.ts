import { ActionRowBuilder, ButtonBuilder, ButtonStyle, escapeMarkdown, StringSelectMenuBuilder, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { cutChars } from "../../lib/text.js";
import { isWholeFileKind, type SourceRef } from "../../memory/index.js";
import { sourceLabel, sourcesLine } from "../../present/source-lines.js";
import { COMPONENT, componentId } from "./custom-id.js";

type Row = ActionRowBuilder<MessageActionRowComponentBuilder>;

/**
 * Under an answer that rests on memory_search: where it came from (a conversation whose Discord
 * message still exists links to it), and "Not right?" for the owner. `token` finds the sources again.
 */
export function sourcesFooter(
  owner: string,
  sources: readonly SourceRef[],
  links: readonly (string | undefined)[],
  token: string,
  say: Say,
): { lines: string[]; components: Row[] } {
  // <…> around the address: a link, without an embed of the message under the answer.
  const labels = sources.map((ref, i) =>
    links[i] ? `[${escapeMarkdown(sourceLabel(ref, say)).replace(/[[\]]/g, "")}](<${links[i]}>)` : escapeMarkdown(sourceLabel(ref, say)),
  );
  const line = `-# ${sourcesLine(labels, say)}`;
  const row = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.sourceNotRight, owner, token))
      .setLabel(say("Not right?", "不对？"))
      .setStyle(ButtonStyle.Secondary),
  );
  return { lines: [line], components: [row] };
}

/** "Not right?": which of the sources is wrong. */
export function sourcesMenu(owner: string, sources: readonly SourceRef[], token: string, say: Say): { content: string; components: Row[] } {
  const menu = new StringSelectMenuBuilder()
    .setCustomId(componentId(COMPONENT.sourceMenu, owner, token))
    .setPlaceholder(say("Which one is not right?", "哪一条不对？"))
    .addOptions(sources.map((ref, i) => ({ label: cutChars(sourceLabel(ref, say), 100), value: String(i) })));
  return {
    content: say(
      "Which of these did my answer rest on wrongly? You can forget it, or correct a section of your memory.",
      "我的回答错用了哪一条？你可以忘记它，或者更正记忆里的那一节。",
    ),
    components: [new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(menu)],
  };
}

/** One source chosen: its text as it is now, with Forget, and Correct for a section of a memory file. */
export function sourceChoice(owner: string, ref: SourceRef, text: string, token: string, index: number, say: Say): { content: string; components: Row[] } {
  const quote = `> ${escapeMarkdown(cutChars(text.trim(), 600)).replace(/\n+/g, "\n> ")}`;
  const buttons = [
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.sourceForget, owner, token, String(index)))
      .setLabel(say("Forget", "忘记"))
      .setStyle(ButtonStyle.Danger),
  ];
  if (correctable(ref))
    buttons.push(
      new ButtonBuilder()
        .setCustomId(componentId(COMPONENT.sourceCorrect, owner, token, String(index)))
        .setLabel(say("Correct", "更正"))
        .setStyle(ButtonStyle.Primary),
    );
  return {
    content: cutChars(`**${escapeMarkdown(sourceLabel(ref, say))}**\n${quote}`, 2000),
    components: [new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(buttons)],
  };
}

/** A section of SOUL.md, USER.md or MEMORY.md can be corrected in a form; a conversation is a record, and a log the day's. */
export function correctable(ref: SourceRef): boolean {
  return isWholeFileKind(ref.source) && ref.title !== "";
}
