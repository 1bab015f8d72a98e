import { stripControlCharacters } from "../safety.js";
import { cutChars } from "../../lib/text.js";
import type { UnitRow } from "./person-index.js";
import type { RecallSource } from "./units.js";
import { fuseRankings } from "./vectors.js";

export interface RecallHit {
  source: RecallSource;
  date: string;
  title: string;
  /** The matching message ("Name: text") or section, up to about 1,000 characters. */
  text: string;
  /** Higher is better; comparable within one search only. */
  score: number;
  /** Where it comes from, relative to the person's folder, e.g. "conversations/2026-10-02-books-3f2a9c1b.md". */
  file: string;
  /** Message or section number within the file (the first, when the text holds several). */
  ord: number;
  /** Every message or section number the text holds. */
  ords: number[];
}

const MAX_TEXT_CHARS = 1000;

export interface Ranked {
  id: number;
  hit: RecallHit;
}

export function toHit(row: UnitRow, score: number): RecallHit {
  // A display name may hold a variation selector or a zero-width joiner ("Mei ♥︎"): the name says who
  // spoke, and must not get every one of their messages blocked as invisible text.
  const text = cutChars(row.name ? `${stripControlCharacters(row.name)}: ${row.text}` : row.text, MAX_TEXT_CHARS);
  return { source: row.source, date: row.date, title: row.title, text, score, file: row.path, ord: row.ord, ords: [row.ord] };
}

const byScoreThenNewer = (a: Ranked, b: Ranked) => b.hit.score - a.hit.score || b.hit.date.localeCompare(a.hit.date);

/** BM25 first (FTS5's rank is lower-is-better), newer first among equals. */
export function rankKeyword(rows: (UnitRow & { rank: number })[]): Ranked[] {
  return rows.map((row) => ({ id: row.id, hit: toHit(row, Number((-row.rank).toPrecision(6))) })).sort(byScoreThenNewer);
}

/** Keyword and semantic rankings merged by reciprocal rank; the score is the fused one. */
export function fuse(keyword: Ranked[], semantic: UnitRow[]): Ranked[] {
  const fused = fuseRankings([keyword.map((k) => k.id), semantic.map((row) => row.id)]);
  const hits = new Map(keyword.map((k) => [k.id, k.hit]));
  for (const row of semantic) if (!hits.has(row.id)) hits.set(row.id, toHit(row, 0));
  return [...fused.entries()]
    .filter(([id]) => hits.has(id))
    .map(([id, score]) => ({ id, hit: { ...hits.get(id)!, score: Number(score.toPrecision(6)) } }))
    .sort(byScoreThenNewer);
}

/** The same text twice (a log entry also in the archive) is shown once. */
export function dedupe(ranked: Ranked[]): RecallHit[] {
  const seen = new Set<string>();
  return ranked
    .map((r) => r.hit)
    .filter((hit) => {
      const key = `${hit.source}|${hit.date}|${hit.text.trim()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
