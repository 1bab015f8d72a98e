import type { RecallHit } from "../memory/recall/recall.js";

/** One search result for a terminal: number, date, where it comes from, then the text indented. */
export function formatHit(hit: RecallHit, n: number): string {
  const where = hit.title ? `${hit.source} › ${hit.title}` : hit.source;
  const text = hit.text.replace(/\n+/g, "\n   ");
  return `${n}. ${hit.date} · ${where}  (${hit.file}, score ${hit.score})\n   ${text}\n`;
}
