import type { Say } from "../lib/locale.js";

/**
 * What an undo refused because the section changed since, as Discord, the web page and the
 * terminal say it. `change` is the change as the front end names it (a history line, an id).
 */
export function editedByHandLine(change: string | undefined, say: Say): string {
  const which = change === undefined ? "" : say(` (${change})`, `（${change}）`);
  return say(`Not undone: that section was edited by hand since, so I left it alone.${which}`, `未撤销：该小节之后被手动修改过，所以我没有改动它。${which}`);
}

/** The head of the list of later changes that stand in an undo's way. */
export function changedSinceHead(say: Say): string {
  return say("Not undone yet: the section changed since, by:", "尚未撤销：该小节之后又被改动过：");
}

/** The question after that list: undo those too, then `change`? */
export function undoThoseTooQuestion(change: string, say: Say): string {
  return say(`Undo those too, then ${change}?`, `要一并撤销它们，再撤销 ${change} 吗？`);
}
