import type { MemoryChange } from "../tools/execute-tool.js";

/** "saved to USER.md › Preferences, MEMORY.md › Follow-ups", or "" when nothing changed. */
export function describeChanges(changes: MemoryChange[]): string {
  const places = [...new Set(changes.map((c) => (c.section ? `${c.file} › ${c.section}` : c.file)))];
  return places.length === 0 ? "" : `💾 saved to ${places.join(", ")}`;
}
