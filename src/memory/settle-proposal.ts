import { modelWriter, type Refusal, type RefusalDetail, type WriteOutcome, type WriteResult } from "./memory-file.js";
import type { MemoryStore } from "./memory-store.js";
import type { Proposal } from "./proposal-store.js";

/**
 * Saves a proposal the person approved: the same write the model asked for, as the model in
 * its session (the journal and the receipt name it), with every check made again now.
 */
async function applyProposal(memory: MemoryStore, proposal: Proposal): Promise<WriteResult> {
  const file =
    proposal.file === "daily"
      ? memory.daily(proposal.date ?? "")
      : proposal.file === "soul" && typeof proposal.locale === "string"
        ? memory.inLocale(proposal.locale).soul
        : memory.file(proposal.file);
  const writer = modelWriter(proposal.session, proposal.title);
  switch (proposal.tool) {
    case "memory_add":
      return file.add(proposal.section, proposal.content ?? "", writer);
    case "memory_replace":
      return file.replace(proposal.section, proposal.oldText ?? "", proposal.newText ?? "", writer);
    case "memory_remove":
      return file.remove(proposal.section, writer);
  }
}

/** What became of a proposal the person answered; the front ends word it. */
export type Settled =
  | { kind: "gone" }
  | { kind: "discarded"; proposal: Proposal }
  | { kind: "saved"; proposal: Proposal; outcome: WriteOutcome }
  | { kind: "refused"; proposal: Proposal; error: string; refusal: Refusal; detail?: RefusalDetail; label: string };

/**
 * Save or Discard, for Discord's buttons and the terminal's /save and /discard alike. A Save
 * that is refused (the file is full now, a secret, the text changed) keeps the proposal, so the
 * person can make room and save again; a Save that succeeds and a Discard take it out.
 */
export function settleProposal(memory: MemoryStore, id: string, save: boolean): Promise<Settled> {
  // Taken and applied under the person's lock (re-entered by the write and the take): a double press,
  // or Save in Discord and /save in the terminal at once, cannot write twice.
  return memory.serialize(async (): Promise<Settled> => {
    const proposal = memory.listProposals().find((p) => p.id === id);
    if (!proposal) return { kind: "gone" };
    if (!save) {
      await memory.takeProposal(id);
      return { kind: "discarded", proposal };
    }
    const saved = await applyProposal(memory, proposal);
    if (!saved.ok) {
      const { error, refusal, detail } = saved;
      const label = (proposal.file === "daily" ? memory.daily(proposal.date ?? "") : memory.file(proposal.file)).label;
      return { kind: "refused", proposal, error, refusal, label, ...(detail ? { detail } : {}) };
    }
    await memory.takeProposal(id);
    return { kind: "saved", proposal, outcome: saved.value };
  });
}
