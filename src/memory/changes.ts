import { english, type Say } from "../lib/locale.js";

/** A change the model's tools made to a memory file in a turn. */
export interface MemoryChange {
  file: string;
  section?: string;
}

/** A write the model asked for that waits for the person's OK. */
export interface PendingChange extends MemoryChange {
  proposal: string;
  /** What it would do, e.g. `+ "prefers oolong"`. */
  summary: string;
}

/** "saved to USER.md › Preferences, MEMORY.md › Follow-ups", or "" when nothing changed. */
export function describeChanges(changes: MemoryChange[], say: Say = english): string {
  const places = [...new Set(changes.map((c) => (c.section ? `${c.file} › ${c.section}` : c.file)))];
  return places.length === 0 ? "" : say(`💾 saved to ${places.join(", ")}`, `💾 已保存到 ${places.join("、")}`);
}
