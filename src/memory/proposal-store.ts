import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { readTextIfExistsSync } from "./memory-file.js";
import type { FileKind } from "./file-kinds.js";
import type { Held } from "../lib/provenance.js";

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
  /**
   * SOUL.md only: the language of the session that proposed it, in which a missing SOUL.md read
   * as the default persona the model saw; a Save makes the change from that same default.
   */
  locale?: string;
  /** Held for the person's Save by code (not their words, or it reads as an instruction), whatever they chose. */
  held?: Held;
}

const PROPOSAL_DAYS = 7;

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
