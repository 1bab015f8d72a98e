import { historyLine } from "../present/history-lines.js";
import { heldLine } from "../present/provenance-lines.js";
import { english, type Say } from "../lib/locale.js";
import { printable } from "../lib/printable.js";
import {
  FILE_KINDS,
  FILE_TABLE,
  type JournalEntry,
  kindOfLabel,
  type MemoryStore,
  type Proposal,
  settleProposal,
  undoableOf,
  undoChange,
} from "../memory/index.js";
import { writeRefusalLine } from "../present/write-refusal.js";
import { changedSinceHead, editedByHandLine } from "../present/undo-lines.js";

/**
 * History, undo and proposals as plain text, for the terminal chat and the operator CLI.
 * Memory text is someone else's writing: every line is made printable() before it is returned.
 */

const FILES: Record<string, (file: string) => boolean> = Object.fromEntries(FILE_KINDS.map((kind) => [kind, (f: string) => kindOfLabel(f) === kind]));

export async function historyText(memory: MemoryStore, options: { file?: string | undefined; limit?: number } = {}, say: Say = english): Promise<string> {
  const keep = options.file ? FILES[options.file] : () => true;
  if (!keep) return unknownFile(options.file ?? "", say);
  const entries = (await memory.history()).filter((e) => e.changes.some((c) => keep(c.file))).slice(0, options.limit ?? 20);
  if (entries.length === 0) return say("Nothing has changed in this memory yet.", "这份记忆还没有任何改动。");
  const { zone } = memory.timeZone();
  const header = say(`Changes, newest first (times in ${zone}):`, `改动，最新在前（时间为 ${zone} 时区）：`);
  return printable([header, ...entries.map((e) => `${historyLine(e, zone, say)}  [${e.id}]`)].join("\n"));
}

export function unknownFile(file: string, say: Say = english): string {
  const choices = Object.keys(FILES).join(", ");
  return printable(say(`Unknown file "${file}"; choose one of ${choices}.`, `没有文件 "${file}"；可选：${choices}。`));
}

/** The changes an undo can still take back, newest first, as numbered lines. */
export async function undoList(memory: MemoryStore, limit = 10, say: Say = english): Promise<{ entries: JournalEntry[]; text: string }> {
  const entries = undoableOf(await memory.history()).slice(0, limit);
  const { zone } = memory.timeZone();
  const text =
    entries.length === 0
      ? say("There is nothing to undo.", "没有可以撤销的改动。")
      : printable(
          [
            say(`Changes that can be undone, newest first (times in ${zone}):`, `可以撤销的改动，最新在前（时间为 ${zone} 时区）：`),
            ...entries.map((e, i) => `${i + 1}. ${historyLine(e, zone, say)}  [${e.id}]`),
          ].join("\n"),
        );
  return { entries, text };
}

/**
 * Undoes one change (and, with `withLater`, the later changes that touched the same sections),
 * and says which changes were taken back. `again` is the command that undoes the later ones too.
 */
export async function undoText(memory: MemoryStore, id: string, withLater: boolean, again: string, say: Say = english): Promise<string> {
  const result = await undoChange(memory, id, { kind: "person" }, { withLater });
  const { zone } = memory.timeZone();
  const line = (e: JournalEntry) => `  ${historyLine(e, zone, say)}  [${e.id}]`;
  if (result.ok) {
    const undoes = new Set(result.entry.undoes ?? []);
    const taken = (await memory.history()).filter((e) => undoes.has(e.id));
    return printable(
      [
        say(`Undone (${[...undoes].join(", ")}):`, `已撤销（${[...undoes].join(", ")}）：`),
        ...taken.map(line),
        say("The files have changed now; the assistant sees it from the next conversation.", "文件已经改好；助手从下一次对话起看到这些变化。"),
      ].join("\n"),
    );
  }
  switch (result.reason) {
    case "not-found":
      return printable(say(`No change ${id} in the history.`, `历史中没有改动 ${id}。`));
    case "already-undone":
      return printable(say(`Change ${id} was already undone (by ${result.by.id}).`, `改动 ${id} 已经撤销过了（由 ${result.by.id}）。`));
    case "not-undoable":
      return printable(say(`Change ${id} cannot be undone (${result.op}).`, `改动 ${id} 无法撤销（${result.op}）。`));
    case "changed-since":
      return result.later.length === 0
        ? editedByHandLine(undefined, say)
        : printable([changedSinceHead(say), ...result.later.map(line), say(`To undo those too: ${again}`, `要一并撤销：${again}`)].join("\n"));
  }
}

/** Where a proposal would write, as the person knows the file: `USER.md › Work`. */
function proposalPlace(proposal: Proposal): string {
  const file = proposal.file === "daily" ? `daily/${proposal.date ?? "?"}.md` : FILE_TABLE[proposal.file].label;
  return `${file} › ${proposal.section}`;
}

/** The text a proposal would save, in full: the person approves exactly this. */
function proposalChange(proposal: Proposal, say: Say = english): string {
  switch (proposal.tool) {
    case "memory_add":
      return `+ “${(proposal.content ?? "").trim()}”`;
    case "memory_replace":
      return `~ “${proposal.oldText ?? ""}” → “${proposal.newText ?? ""}”`;
    case "memory_remove":
      return say("− removes the whole section", "− 删除整节");
  }
}

/** One waiting proposal as a numbered line, with the commands that answer it; continuation lines indented. */
export function proposalLine(proposal: Proposal, n: number, say: Say = english): string {
  const waiting = say("waiting for your OK", "等你确认");
  const answer = say(`/save ${n} or /discard ${n}`, `/save ${n} 保存，/discard ${n} 放弃`);
  // After a dash, not in brackets: the reason carries brackets of its own.
  const held = proposal.held ? ` — ${heldLine(proposal.held, say)}` : "";
  const text = `✋ ${n}. ${waiting}${held}: ${proposalPlace(proposal)}: ${proposalChange(proposal, say)} — ${answer}`;
  return printable(text.replace(/\n/g, "\n     "));
}

/** Saves or discards one waiting proposal by id, and says what became of it; a refused Save keeps it waiting. */
export async function settleProposalText(memory: MemoryStore, id: string, save: boolean, say: Say = english): Promise<string> {
  const settled = await settleProposal(memory, id, save);
  if (settled.kind === "gone")
    return say("That change was already saved or discarded, or it expired (after 7 days).", "这条改动已经保存或放弃过，或已过期（7 天）。");
  const where = printable(proposalPlace(settled.proposal));
  if (settled.kind === "discarded") return say(`Discarded; nothing was saved to ${where}.`, `已放弃；没有保存到 ${where}。`);
  if (settled.kind === "refused") {
    return printable(
      `${say("Not saved:", "未保存：")} ${writeRefusalLine(settled, settled.label, say)}\n${say(
        "It is still waiting: make room (/memory, /undo) and /save it again, or /discard it.",
        "它仍在等待：请先腾出空间（/memory、/undo），再 /save，或者 /discard 放弃。",
      )}`,
    );
  }
  const { used, cap } = settled.outcome.usage;
  return say(`Saved to ${where} (${used}/${cap} chars).`, `已保存到 ${where}（${used}/${cap} 字）。`);
}
