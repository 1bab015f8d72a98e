import type { JournalEntry } from "../journal.js";
import { normalLine } from "./tidy-plan.js";

const TIDY_LABELS = new Set(["USER.md", "MEMORY.md"]);
/** A person's undo puts back what someone else wrote: it does not make the lines theirs. */
const NOT_AUTHORED = new Set(["undo"]);

/**
 * The lines of USER.md and MEMORY.md a person wrote themselves (an edit, an add, an import),
 * normalised: what a changed section holds after their change and did not before. From the
 * journal, so only as far back as it keeps history (docs/design.md §3).
 */
export function personWrittenLines(entries: readonly JournalEntry[]): Set<string> {
  const lines = new Set<string>();
  for (const entry of entries) {
    if (entry.by.kind !== "person" || NOT_AUTHORED.has(entry.op)) continue;
    for (const change of entry.changes) {
      if (!TIDY_LABELS.has(change.file) || change.after === null) continue;
      const before = new Set((change.before ?? "").split("\n").map(normalLine));
      for (const line of change.after.split("\n")) {
        const normal = normalLine(line);
        if (normal !== "" && !normal.startsWith("#") && !before.has(normal)) lines.add(normal);
      }
    }
  }
  return lines;
}
