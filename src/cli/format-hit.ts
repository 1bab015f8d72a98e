import { printable } from "../lib/printable.js";
import type { RecallHit } from "../memory/index.js";

/**
 * One search result for a terminal: its rank, date, where it comes from, then the text indented.
 * The raw score is left out (a BM25 or fused number means nothing to a reader; --json keeps it),
 * and everything the hit carries was written by someone else, so it is made printable.
 */
export function formatHit(hit: RecallHit, rank: number): string {
  const where = hit.title ? `${hit.source} › ${hit.title}` : hit.source;
  const text = hit.text.replace(/\n+/g, "\n   ");
  return printable(`${rank}. ${hit.date} · ${where}  (${hit.file})\n   ${text}\n`);
}
