import { ActionRowBuilder, ButtonBuilder, ButtonStyle, StringSelectMenuBuilder, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { cutChars } from "../../lib/text.js";
import { FILE_KINDS, type JournalEntry, kindOfLabel, type UndoResult } from "../../memory/index.js";
import { localDate, localTime } from "../../lib/time.js";
import { describeEntry, historyLine, who } from "../../present/history-lines.js";
import { COMPONENT, componentId } from "./custom-id.js";
import { changedSinceHead, editedByHandLine, undoThoseTooQuestion } from "../../present/undo-lines.js";

const PAGE = 10;
const MENU = 25;

type Row = ActionRowBuilder<MessageActionRowComponentBuilder>;
export interface View {
  content: string;
  components: Row[];
  /** True when the change was taken back. */
  undone?: boolean;
}

const FILES: Record<string, (file: string) => boolean> = {
  all: () => true,
  ...Object.fromEntries(FILE_KINDS.map((kind) => [kind, (f: string) => kindOfLabel(f) === kind])),
};

/** One page of /memory history from the whole history (oldest first as stored): newest first, with buttons to the older and newer pages. */
export function historyPage(history: readonly JournalEntry[], owner: string, filter: string, page: number, zone: string, say: Say): View {
  const keep = FILES[filter] ?? FILES.all!;
  const entries = history.filter((e) => e.changes.some((c) => keep(c.file)));
  if (entries.length === 0) return { content: say("Nothing has changed in your memory yet.", "你的记忆还没有任何改动。"), components: [] };
  const pages = Math.ceil(entries.length / PAGE);
  const at = Math.max(0, Math.min(page, pages - 1));
  const lines = entries.slice(at * PAGE, at * PAGE + PAGE).map((e) => `• ${cutChars(historyLine(e, zone, say), 180)}`);
  const header = say(`**History of your memory** · page ${at + 1}/${pages} · newest first`, `**你的记忆的改动记录** · 第 ${at + 1}/${pages} 页 · 最新在前`);
  const nav = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.historyPage, owner, filter, String(at - 1)))
      .setLabel(say("◀ Newer", "◀ 较新"))
      .setStyle(ButtonStyle.Secondary)
      .setDisabled(at === 0),
    new ButtonBuilder()
      .setCustomId(componentId(COMPONENT.historyPage, owner, filter, String(at + 1)))
      .setLabel(say("Older ▶", "较早 ▶"))
      .setStyle(ButtonStyle.Secondary)
      .setDisabled(at >= pages - 1),
  );
  return { content: [header, ...lines].join("\n"), components: pages > 1 ? [nav] : [] };
}

/** /memory undo: a menu of the last 25 changes that can still be taken back (`entries` newest first). */
export function undoMenu(entries: readonly JournalEntry[], owner: string, zone: string, say: Say): View {
  const shown = entries.slice(0, MENU);
  if (shown.length === 0) return { content: say("There is nothing to undo.", "没有可以撤销的改动。"), components: [] };
  const menu = new StringSelectMenuBuilder()
    .setCustomId(componentId(COMPONENT.undoMenu, owner))
    .setPlaceholder(say("Choose a change to undo", "选择要撤销的改动"))
    .addOptions(
      shown.map((e) => ({
        label: cutChars(describeEntry(e, say), 100),
        description: cutChars(`${localDate(new Date(e.at), zone).slice(5)} ${localTime(new Date(e.at), zone)} · ${who(e, say)}`, 100),
        value: e.id,
      })),
    );
  return {
    content: say("Which change should I take back? The section returns to how it was before it.", "要撤销哪一处改动？该小节会恢复到改动之前的样子。"),
    components: [new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(menu)],
  };
}

/** What an undo did, in words; a section changed since offers to undo the later changes too. `entries` are the history by id. */
export function undoResultView(result: UndoResult, entries: ReadonlyMap<string, JournalEntry>, owner: string, id: string, say: Say): View {
  const line = (e: JournalEntry | undefined) => (e ? describeEntry(e, say) : id);
  // A long chain is named in part: a Discord message holds 2,000 characters.
  const bullets = (items: string[]) =>
    (items.length > 10 ? [...items.slice(0, 10), say(`…and ${items.length - 10} more`, `……另有 ${items.length - 10} 处`)] : items).map(
      (t) => `• ${cutChars(t, 150)}`,
    );
  if (result.ok) {
    const undone = bullets((result.entry.undoes ?? []).map((u) => line(entries.get(u))));
    return {
      content: cutChars(
        `${say("↩ Undone:", "↩ 已撤销：")}\n${undone.join("\n")}\n-# ${say("It applies from your next conversation.", "从下一次对话开始生效。")}`,
        2000,
      ),
      components: [],
      undone: true,
    };
  }
  switch (result.reason) {
    case "not-found":
      return { content: say("That change is no longer in your history.", "这处改动已不在记录中。"), components: [] };
    case "already-undone":
      return {
        content: say(`That change was already undone: ${line(entries.get(result.id))}`, `这处改动已经撤销过了：${line(entries.get(result.id))}`),
        components: [],
      };
    case "not-undoable":
      return { content: say("Forgotten text cannot be brought back.", "已忘记的内容无法恢复。"), components: [] };
    case "changed-since": {
      if (result.later.length === 0) {
        return {
          content: editedByHandLine(line(entries.get(result.id)), say),
          components: [],
        };
      }
      const later = bullets(result.later.map((e) => line(e))).join("\n");
      const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
        new ButtonBuilder()
          .setCustomId(componentId(COMPONENT.undoChain, owner, id))
          .setLabel(say("Undo these too", "一并撤销"))
          .setStyle(ButtonStyle.Danger),
        new ButtonBuilder().setCustomId(componentId(COMPONENT.undoChainCancel, owner)).setLabel(say("Cancel", "取消")).setStyle(ButtonStyle.Secondary),
      );
      return {
        content: cutChars(`${changedSinceHead(say)}\n${later}\n${undoThoseTooQuestion(line(entries.get(result.id)), say)}`, 2000),
        components: [buttons],
      };
    }
  }
}
