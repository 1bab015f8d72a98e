import type { Say } from "../../lib/locale.js";
import { type MemoryStore, undoableOf, undoChange, type UndoResult } from "../../memory/index.js";
import { inLocale, sayFor } from "../interaction-helpers.js";
import { historyPage, undoMenu, undoResultView, type View } from "../views/history.js";
import type { ComponentHandler } from "./router.js";
import { COMPONENT } from "../views/custom-id.js";

const PERSON = { kind: "person" } as const;

/** One page of the person's history, read now. */
export async function historyView(memory: MemoryStore, owner: string, filter: string, page: number, say: Say): Promise<View> {
  return historyPage(await memory.history(), owner, filter, page, memory.timeZone().zone, say);
}

/** The undo menu of the person's changes that can still be taken back, newest first. */
export async function undoView(memory: MemoryStore, owner: string, say: Say): Promise<View> {
  return undoMenu(undoableOf(await memory.history()), owner, memory.timeZone().zone, say);
}

/** Tries an undo (with the later changes, when `chain`) and says what happened. */
export async function undoAnswer(memory: MemoryStore, owner: string, id: string, say: Say, chain = false): Promise<View> {
  const result: UndoResult = await undoChange(memory, id, PERSON, { withLater: chain });
  const entries = new Map((await memory.history()).map((e) => [e.id, e]));
  return undoResultView(result, entries, owner, id, say);
}

export const historyHandlers: ComponentHandler[] = [
  {
    // A page of history.
    prefix: COMPONENT.historyPage,
    async handle(interaction, [filter = "all", page = "0"], ctx) {
      if (!interaction.isButton()) return;
      await interaction.deferUpdate();
      const view = await historyView(ctx.engine.memoryOf(interaction.user.id), interaction.user.id, filter, Number(page) || 0, sayFor(interaction));
      await interaction.editReply({ ...view, allowedMentions: { parse: [] } });
    },
  },
  {
    // The change chosen in the undo menu.
    prefix: COMPONENT.undoMenu,
    async handle(interaction, _args, ctx) {
      if (!interaction.isStringSelectMenu()) return;
      await interaction.deferUpdate();
      const { undone: _undone, ...view } = await undoAnswer(
        ctx.engine.memoryOf(interaction.user.id),
        interaction.user.id,
        interaction.values[0] ?? "",
        sayFor(interaction),
      );
      await interaction.editReply({ ...view, allowedMentions: { parse: [] } });
    },
  },
  {
    // Undo the later changes too, then the chosen one.
    prefix: COMPONENT.undoChain,
    async handle(interaction, [id = ""], ctx) {
      if (!interaction.isButton()) return;
      await interaction.deferUpdate();
      const { undone: _undone, ...view } = await undoAnswer(ctx.engine.memoryOf(interaction.user.id), interaction.user.id, id, sayFor(interaction), true);
      await interaction.editReply({ ...view, allowedMentions: { parse: [] } });
    },
  },
  {
    prefix: COMPONENT.undoChainCancel,
    async handle(interaction) {
      if (!interaction.isButton()) return;
      await interaction.update({ content: inLocale(interaction, "Nothing was changed.", "没有做任何改动。"), components: [] });
    },
  },
];
