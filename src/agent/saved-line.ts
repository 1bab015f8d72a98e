import type { MemoryChange } from "../tools/execute-tool.js";
import { english, type Say } from "../lib/locale.js";

/** "saved to USER.md › Preferences, MEMORY.md › Follow-ups", or "" when nothing changed. */
export function describeChanges(changes: MemoryChange[], say: Say = english): string {
  const places = [...new Set(changes.map((c) => (c.section ? `${c.file} › ${c.section}` : c.file)))];
  return places.length === 0 ? "" : say(`💾 saved to ${places.join(", ")}`, `💾 已保存到 ${places.join("、")}`);
}
