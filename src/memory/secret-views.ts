/**
 * Text as the secret shapes see it (memory/secrets.ts): NFKC with default-ignorable characters
 * dropped, and a second view with line breaks between two key characters removed, each mapping
 * its units back to offsets in the original text; and the character classes keys are made of.
 */

// ── normalising and scanning ───────────────────────────────────────────────────────────────

/** The text as the shapes see it, and where each of its UTF-16 units came from in the original. */
export interface View {
  text: string;
  /** Original offset where unit i of the view starts. */
  start(i: number): number;
  /** Original offset where unit i of the view ends. */
  end(i: number): number;
  /** In a joined view: where each removed line break was (the offset of the text after it). */
  joins?: number[];
}

const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const folded = new Map<string, string>();

/** NFKC of one code point, with default-ignorable characters (zero-width, soft hyphen, variation selectors) dropped. */
function fold(char: string): string {
  let out = folded.get(char);
  if (out === undefined) {
    out = IGNORABLE.test(char) ? "" : char.normalize("NFKC");
    // Bounded: a hostile text of every code point must not grow the cache without end.
    if (folded.size < 20_000) folded.set(char, out);
  }
  return out;
}

const identityView = (text: string): View => ({ text, start: (i) => i, end: (i) => i + 1 });

/** Characters NFKC may change or that may be ignorable: not ASCII, Han, kana or Hangul syllables (most of any note). */
const MAY_FOLD = /[^\x00-\x7f\u4e00-\u9fff\u3041-\u3096\u30a1-\u30fa\uac00-\ud7a3]/g;

/**
 * NFKC, default-ignorable characters dropped. Only the characters that change are visited
 * (one native pass finds them) and recorded as edits; an offset maps back by bisection.
 */
export function normalisedView(text: string): View {
  const pieces: string[] = [];
  // Per edit: where it starts in the view, where it ends there, and the original span it replaced.
  const viewStart: number[] = [];
  const viewEnd: number[] = [];
  const origStart: number[] = [];
  const origEnd: number[] = [];
  let copied = 0;
  let length = 0;
  MAY_FOLD.lastIndex = 0;
  // Without the u flag (2.5× faster): a character outside the BMP comes as its two halves, joined here.
  for (let m = MAY_FOLD.exec(text); m !== null; m = MAY_FOLD.exec(text)) {
    const code = m[0].charCodeAt(0);
    const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(m.index + 1) & 0xfc00) === 0xdc00;
    const char = pair ? text.slice(m.index, m.index + 2) : m[0];
    if (pair) MAY_FOLD.lastIndex = m.index + 2;
    const out = fold(char);
    if (out === char) continue;
    pieces.push(text.slice(copied, m.index), out);
    length += m.index - copied;
    viewStart.push(length);
    length += out.length;
    viewEnd.push(length);
    origStart.push(m.index);
    origEnd.push(m.index + char.length);
    copied = m.index + char.length;
  }
  if (viewStart.length === 0) return identityView(text);
  pieces.push(text.slice(copied));
  /** The last edit that starts at or before view offset i, or -1. */
  const editAt = (i: number) => {
    let low = 0;
    let high = viewStart.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (viewStart[mid]! <= i) low = mid + 1;
      else high = mid;
    }
    // Several dropped characters start at one offset: take the last, which covers them all.
    return low - 1;
  };
  const shift = (k: number) => (k < 0 ? 0 : origEnd[k]! - viewEnd[k]!);
  return {
    text: pieces.join(""),
    start: (i) => {
      const k = editAt(i);
      return k >= 0 && i < viewEnd[k]! ? origStart[k]! : i + shift(k);
    },
    end: (i) => {
      const k = editAt(i);
      return k >= 0 && i < viewEnd[k]! ? origEnd[k]! : i + 1 + shift(k);
    },
  };
}

/**
 * The view with line breaks inside keys removed: where a line ends with what looks like part of a
 * key (digits, odd capitals, a cut after a prefix such as "sk-proj-") and the next one goes on
 * with key characters that are not a plain word. Undefined when there is no such break.
 */
export function joinedView(view: View): View | undefined {
  const text = view.text;
  let breakAt = text.indexOf("\n");
  if (breakAt < 0) return undefined;
  const pieces: string[] = [];
  let copied = 0;
  while (breakAt >= 0) {
    let left = breakAt;
    while (left > copied && isBlank(text.charCodeAt(left - 1))) left--;
    let right = breakAt + 1;
    while (right < text.length && isBlank(text.charCodeAt(right))) right++;
    let tokenStart = left;
    while (tokenStart > copied && isKeyChar(text.charCodeAt(tokenStart - 1))) tokenStart--;
    let tokenEnd = right;
    while (tokenEnd < text.length && isKeyChar(text.charCodeAt(tokenEnd))) tokenEnd++;
    if (tokenStart < left && tokenEnd > right && keyFragment(text, tokenStart, left) && continuesKey(text, right, tokenEnd)) {
      pieces.push(text.slice(copied, left));
      copied = right;
    }
    breakAt = text.indexOf("\n", Math.max(right, breakAt + 1));
  }
  if (pieces.length === 0) return undefined;
  pieces.push(text.slice(copied));
  const joined = pieces.join("");
  // Only blanks and line breaks were removed, each just before a key character: walking both
  // texts side by side maps every character of the joined one back.
  const at = new Int32Array(joined.length);
  const joins: number[] = [];
  let i = 0;
  for (let k = 0; k < joined.length; k++, i++) {
    if (text.charCodeAt(i) !== joined.charCodeAt(k)) {
      while (text.charCodeAt(i) !== joined.charCodeAt(k)) i++;
      joins.push(k);
    }
    at[k] = i;
  }
  return { text: joined, start: (k) => view.start(at[k]!), end: (k) => view.end(at[k]!), joins };
}

/** The end of a line, text[start, end), that may be the first part of a wrapped key or card number: digits, odd capitals, a cut after a prefix. */
function keyFragment(text: string, start: number, end: number): boolean {
  if (end - start >= 20) return true;
  const last = text.charCodeAt(end - 1);
  if (last === 45 || last === 95) return true;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
    if (i > start && isUpper(code) && (isLower(text.charCodeAt(i - 1)) || (i + 1 < end && isUpper(text.charCodeAt(i - 1)) && isLower(text.charCodeAt(i + 1)))))
      return true;
  }
  return false;
}

/**
 * The start of a line, text[start, end), that may go on with a key: letters or digits, not a
 * plain word (PLAIN_WORD: a capital at most first, then small letters) and not a list marker.
 */
function continuesKey(text: string, start: number, end: number): boolean {
  let alphanumeric = false;
  let plain = end - start <= 21;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    const lower = isLower(code);
    if (lower || isUpper(code) || (code >= 48 && code <= 57)) alphanumeric = true;
    if (!(lower || (i === start && isUpper(code)))) plain = false;
  }
  return alphanumeric && !plain;
}

const isUpper = (code: number) => code >= 65 && code <= 90;
const isLower = (code: number) => code >= 97 && code <= 122;

/** Space, tab or carriage return. */
export function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/** [A-Za-z0-9+/=_-] */
export function isKeyChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 95 ||
    code === 45
  );
}

/** A word after a key on the next line ("…key\nthanks") is not part of the key: the match ends at that line break. */
export const PLAIN_WORD = /^[A-Z]?[a-z]{1,20}$/;

export function endBeforeWords(view: View, start: number, end: number): number {
  const joins = view.joins;
  if (!joins) return end;
  // The last join before `end`, found by bisection: a text can hold many joins and many matches.
  let low = 0;
  let high = joins.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (joins[mid]! < end) low = mid + 1;
    else high = mid;
  }
  for (let i = low - 1; i >= 0; i--) {
    const at = joins[i]!;
    if (at <= start) break;
    const tail = /^[A-Za-z0-9]*/.exec(view.text.slice(at, Math.min(end, at + 24)))![0];
    if (!PLAIN_WORD.test(tail)) break;
    end = at;
  }
  return end;
}
