import type { RecallHit } from "../../memory/recall/recall.js";
import { blockedNotice, checkContent } from "../../memory/safety.js";
import { maskSecrets } from "../../memory/secrets.js";
import { countChars, cutChars } from "../../lib/text.js";
import { toolJson } from "./tool-json.js";

/** What memory_search answers the model with, at most this many characters of JSON. */
const SEARCH_RESULT_CHARS = 3000;
/** A hand-written section name can be long; in results it is a label. */
const TITLE_CHARS = 80;

interface SearchResult {
  source: RecallHit["source"];
  date: string;
  title: string;
  text: string;
}

/**
 * Search results as the model gets them: secrets masked, checked like memory is when a session
 * opens (a text or title with an invisible character is replaced by a notice), and cut so that
 * the whole answer stays within SEARCH_RESULT_CHARS. Tags need no check here: the tool's JSON
 * escapes every "<" (toolJson).
 */
export function searchResultsForModel(
  query: string,
  hits: RecallHit[],
  range: { since?: string | undefined; until?: string | undefined } = {},
  heldBack = 0,
): object {
  const between = range.since || range.until ? `${range.since ?? "the beginning"} – ${range.until ?? "today"}` : undefined;
  const results: SearchResult[] = hits.map((hit) => {
    // The index holds masked text already; this covers a hit from anywhere else.
    const [hitText, hitTitle] = [maskSecrets(hit.text), maskSecrets(hit.title)];
    const text = checkContent(hitText, "record");
    const title = checkContent(hitTitle, "record");
    return {
      source: hit.source,
      date: hit.date,
      title: title.ok ? cutChars(hitTitle, TITLE_CHARS) : blockedNotice(title),
      text: text.ok ? hitText : blockedNotice(text),
    };
  });
  const answer = (texts: string[]) => ({
    ok: true,
    query: maskSecrets(query),
    ...(between ? { between } : {}),
    results: results.map((r, i) => ({ ...r, text: texts[i]! })),
    ...(results.length === 0
      ? {
          note: between
            ? `nothing found between ${between.replace(" – ", " and ")}; try other words, or wider dates`
            : "nothing found; try other words (a name, a place, a topic)",
        }
      : {}),
    ...(heldBack > 0
      ? {
          held_back: heldBack,
          held_back_note: `${heldBack} result(s) held back: they are private (a direct message, a private thread or a private section) and this conversation is public`,
        }
      : {}),
  });
  return answer(
    fitTexts(
      results.map((r) => r.text),
      (texts) => toolJson(answer(texts)).length,
    ),
  );
}

/** Shortens the longest texts first until the answer fits (every result keeps some text). */
function fitTexts(texts: string[], size: (texts: string[]) => number): string[] {
  let current = [...texts];
  for (let round = 0; round < 50 && size(current) > SEARCH_RESULT_CHARS; round++) {
    const over = size(current) - SEARCH_RESULT_CHARS;
    const longest = Math.max(...current.map(countChars));
    // Cut every text down towards a common length, a bit more than the excess in all.
    const target = Math.max(40, longest - Math.ceil(over / Math.max(1, current.filter((t) => countChars(t) === longest).length)) - 1);
    const next = current.map((text) => cutChars(text, target));
    if (next.every((text, i) => text === current[i])) break;
    current = next;
  }
  return current;
}
