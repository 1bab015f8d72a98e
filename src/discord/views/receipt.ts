import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type MessageActionRowComponentBuilder, type MessageCreateOptions } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { countChars, cutChars } from "../../lib/text.js";
import type { JournalEntry, SectionChange, Suggestion, SuggestionState } from "../../memory/index.js";
import { describeEntry } from "../../present/history-lines.js";
import { COMPONENT, componentId } from "./custom-id.js";
import { suggestionLine } from "./server-notes.js";
import { NO_MENTIONS } from "../reply-stream.js";

/**
 * Where a closing conversation's receipt goes: its own channel (/end, a DM left idle); the
 * person's DMs when someone else archived the thread ("dm"), or when the bot was away and the
 * thread may be gone ("dm-unless-deleted": a deleted thread gets no receipt); or nowhere.
 */
export type ReceiptPlace = "channel" | "dm" | "dm-unless-deleted" | "none";

const BUTTONS = 25;
const PER_ROW = 5;

/** What the model suggested for the server's notes in the conversation, and what a moderator made of it. */
export type SuggestedLine = { suggestion: Suggestion; state: SuggestionState };

function stateWord(state: SuggestionState, say: Say): string {
  if (state === "saved") return say("saved", "已保存");
  if (state === "discarded") return say("discarded", "已丢弃");
  return say("waiting", "等待中");
}

/**
 * The message listing what the model changed in a conversation, an Undo button per change; then
 * what it suggested for the server's notes (no button: the notes are the moderators').
 */
export function receiptMessage(
  owner: string,
  entries: JournalEntry[],
  say: Say,
  hidden?: (change: SectionChange) => boolean,
  suggested: readonly SuggestedLine[] = [],
): MessageCreateOptions {
  const lines = entries.map((e, i) => `${i + 1}. ${cutChars(describeEntry(e, say, hidden), 160)}`);
  const changes = entries.length ? [say("-# 💾 What I changed in my memory during this conversation:", "-# 💾 这次对话中我对记忆做的改动："), ...lines] : [];
  const suggestions = suggested.length
    ? [
        say(
          "-# 💡 What I suggested for this server's notes during this conversation (the moderators decide):",
          "-# 💡 这次对话中我为本服务器笔记提出的建议（由管理员决定）：",
        ),
        ...suggested.map((s) => `• ${stateWord(s.state, say)}${say(": ", "：")}${cutChars(suggestionLine(s.suggestion), 200)}`),
      ]
    : [];
  // The suggestions keep their room (up to 900 characters): many changes must not push them out unseen.
  const suggestionText = cutChars(suggestions.join("\n"), 900);
  const room = 2000 - (suggestionText ? countChars(suggestionText) + 1 : 0);
  const content = [cutChars(changes.join("\n"), room), suggestionText].filter(Boolean).join("\n");
  const buttons = entries.slice(0, BUTTONS).map((e, i) =>
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.undo, owner, e.id))
      .setLabel(say(`Undo ${i + 1}`, `撤销 ${i + 1}`))
      .setStyle(ButtonStyle.Secondary),
  );
  const rows: ActionRowBuilder<MessageActionRowComponentBuilder>[] = [];
  for (let i = 0; i < buttons.length; i += PER_ROW)
    rows.push(new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(buttons.slice(i, i + PER_ROW)));
  return { content, components: rows, allowedMentions: NO_MENTIONS };
}
