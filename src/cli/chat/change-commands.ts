import type { Say } from "../../lib/locale.js";
import { proposalLine, settleProposalText, undoList, undoText } from "../memory-text.js";
import type { ChatContext } from "./context.js";

/** /undo, /save and /discard: numbers refer to the last list shown; ids work too. */

const NUMBER = /^\d{1,4}$/;
const CHANGE_ID = /^[0-9a-z]{1,40}$/;

/** `/undo` lists; `/undo N [all]` or `/undo <id> [all]` takes a change back. */
export async function undoCommand(ctx: ChatContext, args: string[]): Promise<void> {
  const { say, memory } = ctx;
  const [which, all, ...rest] = args;
  if (which === undefined) {
    const { entries, text } = await undoList(memory, 10, say);
    ctx.listed.undo = entries.map((e) => e.id);
    ctx.print(
      entries.length === 0
        ? text
        : `${text}\n${say("Undo one with /undo N (N from this list) or /undo <id>.", "用 /undo N（本列表的编号）或 /undo <id> 撤销一条。")}`,
    );
    return;
  }
  if ((all !== undefined && all !== "all") || rest.length > 0 || !(NUMBER.test(which) || CHANGE_ID.test(which))) {
    ctx.print(
      say(
        "Usage: /undo, /undo N, /undo N all (N from the last /undo list, or a change's id).",
        "用法：/undo、/undo N、/undo N all（N 是上一次 /undo 列表中的编号，或改动的 id）。",
      ),
    );
    return;
  }
  let id = which;
  if (NUMBER.test(which)) {
    // No list shown yet: the numbers a list would show now.
    ctx.listed.undo ??= (await undoList(memory, 10, say)).entries.map((e) => e.id);
    const listed = ctx.listed.undo[Number(which) - 1];
    if (!listed) {
      ctx.print(say(`There is no change ${which} in the last list; /undo lists them.`, `上一次的列表里没有第 ${which} 条；/undo 会列出它们。`));
      return;
    }
    id = listed;
  }
  ctx.print(await undoText(memory, id, all === "all", `/undo ${which} all`, say));
}

/** `/save` lists the changes waiting for the person's OK; `/save N` or `/discard N` answers one. */
export async function proposalCommand(ctx: ChatContext, save: boolean, args: string[]): Promise<void> {
  const { say, memory } = ctx;
  const [which, ...rest] = args;
  const command = save ? "/save" : "/discard";
  if (which === undefined) {
    showProposals(ctx, true);
    return;
  }
  if (rest.length > 0 || !(NUMBER.test(which) || CHANGE_ID.test(which))) {
    ctx.print(say(`Usage: ${command} N (the number shown with the change, or its id).`, `用法：${command} N（改动旁显示的编号，或它的 id）。`));
    return;
  }
  let id = which;
  if (NUMBER.test(which)) {
    ctx.listed.proposals ??= memory.listProposals().map((p) => p.id);
    const listed = ctx.listed.proposals[Number(which) - 1];
    if (!listed) {
      ctx.print(
        say(`There is no change ${which} waiting in the last list; /save lists them.`, `上一次的列表里没有第 ${which} 条等你确认的改动；/save 会列出它们。`),
      );
      return;
    }
    id = listed;
  }
  ctx.print(await settleProposalText(memory, id, save, say));
}

/** Lists the waiting proposals (a new list: its numbers are the ones /save N means from now on). */
export function showProposals(ctx: ChatContext, sayWhenNone: boolean): void {
  const proposals = ctx.memory.listProposals();
  if (proposals.length === 0) {
    if (sayWhenNone) ctx.print(noneWaiting(ctx.say));
    return;
  }
  ctx.listed.proposals = proposals.map((p) => p.id);
  ctx.print(proposals.map((p, i) => proposalLine(p, i + 1, ctx.say)).join("\n"));
}

const noneWaiting = (say: Say) => say("No change is waiting for your OK.", "没有等你确认的改动。");
