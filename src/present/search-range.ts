import type { Say } from "../lib/locale.js";
import type { RecallHit } from "../memory/recall/recall.js";
import { cutChars } from "../lib/text.js";
import { dateBound } from "../lib/time.js";
import { FILE_TABLE } from "../memory/file-kinds.js";

/** Local dates, both inclusive, as the recall index takes them. */
export interface SearchRange {
  since?: string | undefined;
  until?: string | undefined;
}

export type RangeReading = { ok: true; range: SearchRange } | { ok: false; line: string };

/**
 * The dates of a search as a person typed them (Discord's since/until, the terminal's and the
 * CLI's --since/--until): a day or a month each, the start not after the end. A wrong one is
 * one line in the person's language, which the front end escapes for where it shows it.
 */
export function readSearchRange(since: string | null | undefined, until: string | null | undefined, say: Say): RangeReading {
  const range: SearchRange = {};
  for (const [end, text] of [
    ["since", since],
    ["until", until],
  ] as const) {
    if (text === null || text === undefined || text.trim() === "") continue;
    const bound = dateBound(text, end);
    if (bound === undefined) {
      const shown = cutChars(text.trim(), 40);
      return {
        ok: false,
        line: say(
          `“${shown}” is not a date: give a day as YYYY-MM-DD or a month as YYYY-MM (e.g. 2026-10-03 or 2026-10).`,
          `“${shown}”不是日期：请写成 YYYY-MM-DD 的日期或 YYYY-MM 的月份（例如 2026-10-03 或 2026-10）。`,
        ),
      };
    }
    range[end] = bound;
  }
  if (range.since && range.until && range.since > range.until) {
    return {
      ok: false,
      line: say(`The start (${range.since}) is after the end (${range.until}).`, `开始日期（${range.since}）晚于结束日期（${range.until}）。`),
    };
  }
  return { ok: true, range };
}

/** "2026-10-01 – 2026-10-31", "from 2026-10-01", "until 2026-10-31"; undefined for no dates. */
export function rangeLabel(range: SearchRange, say: Say): string | undefined {
  const { since, until } = range;
  if (since && until) return `${since} – ${until}`;
  if (since) return say(`from ${since}`, `${since} 起`);
  if (until) return say(`until ${until}`, `${until} 及以前`);
  return undefined;
}

/** The range as a heading of its own (a listing of those days with no words): "From 2026-10-01", "Until …". */
export function rangeHeading(range: SearchRange, say: Say): string | undefined {
  const label = rangeLabel(range, say);
  return label && label.charAt(0).toUpperCase() + label.slice(1);
}

/** A search with no words and no dates has nothing to look for. */
export function emptySearchLine(say: Say, dates: string): string {
  return say(`Give some words to look for, or a ${dates} date (or both).`, `请给出要找的词，或${dates}日期（或两者都给）。`);
}

/** Where a search result comes from: "conversation “tea talk”", "your profile (USER.md) › Likes". `title` as the front end shows it (escaped for Markdown in Discord). */
export function hitSource(hit: RecallHit, say: Say, title = hit.title): string {
  const section = title ? ` › ${title}` : "";
  if (hit.source === "conversation") return say(`conversation “${title}”`, `对话“${title}”`);
  const { name, label } = FILE_TABLE[hit.source];
  if (hit.source === "daily") return say(`${name.en}${section}`, `${name.zh}${section}`);
  return say(`${name.en} (${label})${section}`, `${name.zh}（${label}）${section}`);
}
