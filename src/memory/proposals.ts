import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { KeyedMutex } from "../lib/keyed-mutex.js";
import { writeFileAtomic } from "./atomic-write.js";
import { modelWriter, readTextIfExistsSync, type WriteOutcome, type WriteResult } from "./memory-file.js";
import type { FileKind, MemoryStore } from "./memory-store.js";

/** A write the model asked for while the person wants to approve changes first (ask before saving). */
export interface Proposal {
  id: string;
  createdAt: string;
  /** The session that proposed it: the journal names the model in it when the person saves. */
  session: string;
  title: string;
  tool: "memory_add" | "memory_replace" | "memory_remove";
  file: FileKind;
  /** The date of the log for a daily write, fixed when it was proposed. */
  date?: string;
  section: string;
  content?: string;
  oldText?: string;
  newText?: string;
}

export const PROPOSAL_DAYS = 7;

/** users/<id>/proposals.json: the pending ones; older than 7 days they are gone. Callers hold the person's lock. */
export class Proposals {
  readonly path: string;

  constructor(dir: string) {
    this.path = join(dir, "proposals.json");
  }

  list(now = new Date()): Proposal[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readTextIfExistsSync(this.path) ?? "[]");
    } catch {
      return [];
    }
    const oldest = now.getTime() - PROPOSAL_DAYS * 86_400_000;
    return Array.isArray(parsed) ? (parsed as Proposal[]).filter((p) => typeof p?.id === "string" && Date.parse(p.createdAt) >= oldest) : [];
  }

  async add(proposal: Omit<Proposal, "id" | "createdAt">, now = new Date()): Promise<Proposal> {
    const full: Proposal = { id: randomBytes(5).toString("hex"), createdAt: now.toISOString(), ...proposal };
    await this.save([...this.list(now), full]);
    return full;
  }

  /** Takes a proposal out (saved or discarded); undefined when it is gone or expired. */
  async take(id: string, now = new Date()): Promise<Proposal | undefined> {
    const all = this.list(now);
    const found = all.find((p) => p.id === id);
    if (found) await this.save(all.filter((p) => p.id !== id));
    return found;
  }

  private async save(proposals: Proposal[]): Promise<void> {
    await writeFileAtomic(this.path, `${JSON.stringify(proposals, null, 2)}\n`);
  }
}

/**
 * Saves a proposal the person approved: the same write the model asked for, as the model in
 * its session (the journal and the receipt name it), with every check made again now.
 */
export async function applyProposal(memory: MemoryStore, proposal: Proposal): Promise<WriteResult> {
  const file = proposal.file === "daily" ? memory.daily(proposal.date ?? "") : memory.file(proposal.file);
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
  | { kind: "refused"; proposal: Proposal; error: string };

/** One Save or Discard at a time per person in this process, so a double press cannot write twice. */
const settling = new KeyedMutex();

/**
 * Save or Discard, for Discord's buttons and the terminal's /save and /discard alike. A Save
 * that is refused (the file is full now, a secret, the text changed) keeps the proposal, so the
 * person can make room and save again; a Save that succeeds and a Discard take it out.
 */
export function settleProposal(memory: MemoryStore, id: string, save: boolean): Promise<Settled> {
  return settling.run(memory.dir, async (): Promise<Settled> => {
    const proposal = memory.listProposals().find((p) => p.id === id);
    if (!proposal) return { kind: "gone" };
    if (!save) {
      await memory.takeProposal(id);
      return { kind: "discarded", proposal };
    }
    const saved = await applyProposal(memory, proposal);
    if (!saved.ok) return { kind: "refused", proposal, error: saved.error };
    await memory.takeProposal(id);
    return { kind: "saved", proposal, outcome: saved.value };
  });
}
