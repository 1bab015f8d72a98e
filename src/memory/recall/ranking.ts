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
  /** Where a public place may see it (Unit.sharedIn): a server's id, or "*"; a memory file's private sections are told apart by name. */
  sharedIn?: string;
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
  return {
    source: row.source,
    date: row.date,
    title: row.title,
    text,
    score,
    file: row.path,
    ord: row.ord,
    ords: [row.ord],
    ...(row.shared ? { sharedIn: row.shared } : {}),
  };
}

const byScoreThenNewer = (a: Ranked, b: Ranked) => b.hit.score - a.hit.score || b.hit.date.localeCompare(a.hit.date);

/** BM25 first (FTS5's rank is lower-is-better), newer first among equals; the person's words before the assistant's echo of them. */
export function rankKeyword(rows: (UnitRow & { rank: number })[]): Ranked[] {
  const ranked = rows.map((row) => ({ id: row.id, hit: toHit(row, Number((-row.rank).toPrecision(6))) }));
  return personBeforeEcho(ranked, rows).sort(byScoreThenNewer);
}

/**
 * An assistant's message that answers a matching message of the person ("Clara likes jasmine: got
 * it.") is short, so BM25 puts it above what the person said. What the person said is the fact;
 * an assistant's message shorter than the matching message it answers goes just below it. Other
 * assistant messages keep their place (a longer answer holds facts of its own).
 */
/** The longest an acknowledgement is taken to be ("Noted — oolong. I'll remember that."). */
const ACKNOWLEDGEMENT_CHARS = 160;

function personBeforeEcho(ranked: Ranked[], rows: readonly UnitRow[]): Ranked[] {
  const at = (path: string, ord: number) => `${ord}\u0000${path}`;
  const said = new Map<string, { score: number; length: number }>();
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { id, hit } of ranked) {
    const row = byId.get(id);
    if (row?.speaker === "person") said.set(at(hit.file, hit.ord), { score: hit.score, length: row.text.length });
  }
  return ranked.map((r) => {
    const row = byId.get(r.id);
    const before = row?.speaker === "assistant" ? said.get(at(row.path, row.ord - 1)) : undefined;
    // Only a reply shorter than what it answers: an acknowledgement, not an answer with facts of its own.
    const answered = before && row!.text.length < before.length && row!.text.length <= ACKNOWLEDGEMENT_CHARS ? before.score : undefined;
    if (answered === undefined || answered > r.hit.score) return r;
    return { id: r.id, hit: { ...r.hit, score: Number((answered - Math.max(Math.abs(answered) * 1e-4, 1e-9)).toPrecision(8)) } };
  });
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

/** How much the other hits of the same conversation add to a hit (session-level voting). */
const SESSION_WEIGHT = 0.5;
/** At most this many other hits of a conversation vote for it. */
const VOTERS = 3;
/** Reciprocal-rank constant, as for fusing rankings. */
const RANK_K = 60;

/** A title as a daily entry's heading keeps it (daily-entry.ts's entryHeading). */
function cleanTitle(title: string): string {
  return title
    .replace(/[#\r\n]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 60);
}

/** A conversation's date and title, as its day's summary entry names it ("HH:mm · title"). */
function entryKey(hit: RecallHit): string | undefined {
  if (hit.source === "conversation") return `${hit.date}|${cleanTitle(hit.title)}`;
  // A second entry of the same title is "… (2)"; a public place's entry ends with 🌐 before that.
  const match = hit.source === "daily" ? /^\d{2}:\d{2} · (.*?)(?: 🌐)?(?: \(\d{1,3}\))?$/u.exec(hit.title) : null;
  return match ? `${hit.date}|${cleanTitle(match[1]!)}` : undefined;
}

/**
 * Which conversation a hit belongs to: a message by its file; a day's summary entry by the one
 * conversation among the hits with its date and title (none when several share them: every DM of
 * a day is "direct messages").
 */
function sessionsOf(hits: readonly RecallHit[]): (string | undefined)[] {
  const files = new Map<string, Set<string>>();
  for (const hit of hits) {
    if (hit.source !== "conversation") continue;
    const key = entryKey(hit)!;
    files.set(key, (files.get(key) ?? new Set()).add(hit.file));
  }
  return hits.map((hit) => {
    if (hit.source === "conversation") return hit.file;
    const key = entryKey(hit);
    const candidates = key === undefined ? undefined : files.get(key);
    return candidates?.size === 1 ? [...candidates][0] : undefined;
  });
}

/**
 * Session-level voting: a message from a conversation that matched in several places (other
 * messages, its summary in the daily log) moves up. Each hit scores by its rank (1 / (k + rank));
 * the best other hits of its conversation add half of theirs. Memory-file sections keep their
 * rank's score.
 *
 * A day's summary entry whose conversation is among the hits is a key to that conversation, not a
 * result: it votes for the conversation's messages and gives its place to them (what was said,
 * where the summary only points at it). On LoCoMo's development split summaries took a fifth of the
 * first five places; giving them up raised recall@5 by 4 points and moved no set of bench:recall
 * down (docs/design.md §8). A summary that leads to no hit (every DM of a day shares one title, or
 * its conversation did not match) stays a result. Nothing else found is dropped.
 */
export function voteBySession(hits: readonly RecallHit[]): RecallHit[] {
  const own = hits.map((_, i) => 1 / (RANK_K + i + 1));
  const sessions = sessionsOf(hits);
  const bySession = new Map<string, number[]>();
  hits.forEach((_hit, i) => {
    const session = sessions[i];
    if (session === undefined) return;
    const scores = bySession.get(session) ?? [];
    scores.push(own[i]!);
    bySession.set(session, scores);
  });
  const scored = hits.map((hit, i) => {
    const session = sessions[i];
    // Scores by rank are all different: the hit's own is told apart by its value.
    const others = session === undefined ? [] : bySession.get(session)!.filter((score) => score !== own[i]);
    const vote = others.slice(0, VOTERS).reduce((sum, score) => sum + score, 0);
    return { hit, score: own[i]! + SESSION_WEIGHT * vote, rank: i };
  });
  scored.sort((a, b) => b.score - a.score || a.rank - b.rank);
  const leadsToHit = (i: number) => hits[i]!.source === "daily" && sessions[i] !== undefined;
  return scored.filter(({ rank }) => !leadsToHit(rank)).map(({ hit, score }) => ({ ...hit, score: Number(score.toPrecision(6)) }));
}

/** How much a hit from the time a question names gains: half of what the first place scores. */
const PERIOD_WEIGHT = 0.5;

/**
 * A question that names a date ("in April 2022", named-period.ts): the conversations and summaries
 * of that time move up by PERIOD_WEIGHT of a first place's score. A bonus, not a filter: a
 * question about "the tournament he won by July 2022" is still answered from March. Chosen on
 * LoCoMo's development split (0.3, 0.5, 1 and 3 tried; 0.5 raised temporal recall@5 by 2 points and
 * lowered no category); bench:recall's two sets name no whole dates and do not move.
 */
export function preferPeriod(hits: readonly RecallHit[], period: { since: string; until: string; sources: readonly RecallSource[] }): RecallHit[] {
  const within = (hit: RecallHit) => period.sources.includes(hit.source) && hit.date >= period.since && hit.date <= period.until;
  return hits
    .map((hit, rank) => ({ hit, rank, score: 1 / (RANK_K + rank + 1) + (within(hit) ? PERIOD_WEIGHT / (RANK_K + 1) : 0) }))
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .map(({ hit }) => hit);
}
