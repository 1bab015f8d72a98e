import { english, historyLine } from "../agent/history-lines.js";
import type { JournalEntry } from "../memory/journal.js";
import type { MemoryStore } from "../memory/memory-store.js";
import { applyProposal } from "../memory/proposals.js";
import { undoable, undoChanges, undoWithLater } from "../memory/undo.js";

/** History, undo and proposals as plain text, for the terminal chat and the operator CLI. */

const FILES: Record<string, (file: string) => boolean> = {
  soul: (f) => f === "SOUL.md",
  user: (f) => f === "USER.md",
  memory: (f) => f === "MEMORY.md",
  daily: (f) => f.startsWith("daily/"),
};

export async function historyText(memory: MemoryStore, options: { file?: string | undefined; limit?: number } = {}): Promise<string> {
  const keep = options.file ? FILES[options.file] : () => true;
  if (!keep) return `Unknown file "${options.file}"; choose one of ${Object.keys(FILES).join(", ")}.`;
  const entries = (await memory.history()).filter((e) => e.changes.some((c) => keep(c.file))).slice(0, options.limit ?? 20);
  if (entries.length === 0) return "Nothing has changed in this memory yet.";
  const { zone } = memory.timeZone();
  return entries.map((e) => `${historyLine(e, zone, english)}  [${e.id}]`).join("\n");
}

/** The changes an undo can still take back, newest first, as numbered lines. */
export async function undoList(memory: MemoryStore, limit = 10): Promise<{ entries: JournalEntry[]; text: string }> {
  const entries = undoable([...(await memory.history())].reverse()).slice(0, limit);
  const { zone } = memory.timeZone();
  const text = entries.length === 0 ? "There is nothing to undo." : entries.map((e, i) => `${i + 1}. ${historyLine(e, zone, english)}  [${e.id}]`).join("\n");
  return { entries, text };
}

/** Undoes one change (and, with `withLater`, the later changes that touched the same sections). */
export async function undoText(memory: MemoryStore, id: string, withLater: boolean, again: string): Promise<string> {
  const result = withLater ? await undoWithLater(memory, id, { kind: "person" }) : await undoChanges(memory, [id], { kind: "person" });
  const { zone } = memory.timeZone();
  if (result.ok) return `Undone (${(result.entry.undoes ?? []).join(", ")}); it applies from the next conversation.`;
  switch (result.reason) {
    case "not-found":
      return `No change ${id} in the history.`;
    case "already-undone":
      return `Change ${id} was already undone (by ${result.by.id}).`;
    case "not-undoable":
      return `Change ${id} cannot be undone (${result.op}).`;
    case "changed-since":
      return result.later.length === 0
        ? `Not undone: the section was edited by hand since; nothing was changed.`
        : `Not undone: the section changed since, by:\n${result.later.map((e) => `  ${historyLine(e, zone, english)}  [${e.id}]`).join("\n")}\nTo undo those too: ${again}`;
  }
}

export function proposalsText(memory: MemoryStore): string {
  const proposals = memory.listProposals();
  if (proposals.length === 0) return "";
  return proposals
    .map((p, i) => `✋ ${i + 1}. waiting for your OK: ${p.file} › ${p.section} (${p.tool.replace("memory_", "")}) — /save ${i + 1} or /discard ${i + 1}`)
    .join("\n");
}

/** /save N or /discard N in the terminal: the Nth waiting proposal, as listed by proposalsText. */
export async function settleProposal(memory: MemoryStore, n: number, save: boolean): Promise<string> {
  const proposal = memory.listProposals()[n - 1];
  if (!proposal) return `There is no proposal ${n}.`;
  const taken = await memory.takeProposal(proposal.id);
  if (!taken) return `Proposal ${n} was already handled or expired.`;
  if (!save) return "Discarded; nothing was saved.";
  const saved = await applyProposal(memory, taken);
  return saved.ok ? `Saved to ${saved.value.file} › ${taken.section} (${saved.value.usage.used}/${saved.value.usage.cap} chars).` : `Not saved: ${saved.error}`;
}
