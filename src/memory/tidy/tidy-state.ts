import { join } from "node:path";
import { writeFileAtomic } from "../atomic-write.js";
import { readTextIfExistsSync } from "../memory-file.js";
import { withPersonLock } from "../person-lock.js";
import type { HoldReason } from "../../lib/provenance.js";
import type { TidyKind } from "./tidy-plan.js";

/** What a tidy-up did, for the one notice the person gets about it. */
export interface TidyReport {
  /** The journal entry of the run (Undo, Details); absent when the run became proposals. */
  entry?: string;
  counts: Record<TidyKind, number>;
  /** One replaced fact, to show: section, the old line and the new one. */
  example?: { section: string; before: string; after: string };
  /** Proposals made instead of changes (tidy_up:ask), and the held ones among them. */
  proposals?: number;
  /** Changes held for the person's Save whatever they chose (not their words, or an instruction), by why. */
  held?: Partial<Record<HoldReason, number>>;
  at: string;
}

/** users/<id>/tidy.json: when the last run was, and the notice not yet shown. */
export interface TidyState {
  /** ISO time of the last run that finished (changed something or found nothing to do). */
  lastRun?: string;
  /** The local date of the last attempt, whatever its outcome: at most one a day. */
  lastAttempt?: string;
  /** Failed attempts in a row (model down, an answer that was not a plan, an over-cap plan). */
  failures?: number;
  notice?: TidyReport;
}

const FILE = "tidy.json";

export function readTidyState(dir: string): TidyState {
  try {
    const parsed: unknown = JSON.parse(readTextIfExistsSync(join(dir, FILE)) ?? "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as TidyState) : {};
  } catch {
    return {};
  }
}

/** Callers hold the person's lock. */
export async function writeTidyState(dir: string, state: TidyState): Promise<void> {
  await writeFileAtomic(join(dir, FILE), `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * The notice of the last tidy-up, taken out so that it is shown once (the first reply of the next
 * conversation, or a DM); undefined when there is none. A read without the lock when there is
 * nothing to take: every conversation's first turn asks.
 */
export async function takeTidyNotice(dir: string): Promise<TidyReport | undefined> {
  if (!readTidyState(dir).notice) return undefined;
  return withPersonLock(dir, async () => {
    const { notice, ...rest } = readTidyState(dir);
    if (notice) await writeTidyState(dir, rest);
    return notice;
  });
}
