/**
 * Text as the recall index sees it. FTS5's unicode61 tokenizer splits on spaces and
 * punctuation, which leaves Chinese and Japanese as one token per sentence; so the index gets
 * a pre-tokenized copy: words from Intl.Segmenter, and for runs of Han and Kana every single
 * character and every overlapping pair of characters (the CJK bigram scheme of Lucene's
 * CJKAnalyzer), so that a two-character word such as 乌龙 finds 我最喜欢乌龙茶.
 */

const segmenter = new Intl.Segmenter("und", { granularity: "word" });
/** Scripts written without spaces between words that bigrams serve well. */
const UNSEGMENTED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}]/u;

export interface Word {
  text: string;
  /** True for a run of Han or Kana characters. */
  cjk: boolean;
}

/** Characters the segmenter sees at once: its iteration takes quadratic time in the length of what it is given. */
const PIECE = 1000;

/** Where to end a piece that starts at `start`: after the last space or line break in reach (no word is cut), else at PIECE. */
function pieceEnd(text: string, start: number): number {
  if (text.length - start <= PIECE) return text.length;
  for (let i = start + PIECE; i > start + PIECE / 2; i--) if (/\s/.test(text[i - 1]!)) return i;
  return start + PIECE;
}

/**
 * What UAX #29 (the word rules Intl.Segmenter follows) makes of each ASCII character: 1 a letter,
 * 2 a digit, 3 `_` (joins anything), 4 `:` (joins two letters), 5 `.` and `'` (two letters or two
 * digits), 6 `,` and `;` (two digits), 0 the rest (always a break).
 */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 26; c++) ASCII_CLASS[97 + c] = ASCII_CLASS[65 + c] = 1;
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = 2;
ASCII_CLASS[95] = 3;
ASCII_CLASS[58] = 4;
ASCII_CLASS[46] = ASCII_CLASS[39] = 5;
ASCII_CLASS[44] = ASCII_CLASS[59] = 6;

/**
 * The word-like pieces of ASCII text, as Intl.Segmenter gives them (the property test holds the
 * two side by side). Hand-written because the segmenter makes an object per segment through ICU:
 * it took 7.8 of the 18 s a large home's first index took, where this loop takes a few hundred ms.
 */
function asciiWords(text: string, from: number, to: number, words: Word[]): void {
  for (let i = from; i < to; ) {
    let last = ASCII_CLASS[text.charCodeAt(i)]!;
    if (last === 0 || last >= 4) {
      i++;
      continue;
    }
    const start = i++;
    let alphanumeric = last !== 3;
    while (i < to) {
      const k = ASCII_CLASS[text.charCodeAt(i)]!;
      if (k >= 1 && k <= 3) {
        if (k !== 3) alphanumeric = true;
        last = k;
        i++;
        continue;
      }
      // A joiner between two letters (`:` `.` `'`) or two digits (`.` `'` `,` `;`) stays in the word.
      const next = i + 1 < to ? ASCII_CLASS[text.charCodeAt(i + 1)]! : 0;
      if ((last === 1 && next === 1 && (k === 4 || k === 5)) || (last === 2 && next === 2 && (k === 5 || k === 6))) {
        last = next;
        i += 2;
        continue;
      }
      break;
    }
    // ICU counts one `_` alone as no word, two or more as one.
    if (alphanumeric || i - start >= 2) words.push({ text: text.slice(start, i), cjk: false });
  }
}

/** The segmenter's words of text[from, to), Han/Kana runs that touch joined into one. */
function segmentedWords(text: string, from: number, to: number, words: Word[], previousEnd: { at: number }): void {
  for (const { segment, index, isWordLike } of segmenter.segment(text.slice(from, to))) {
    if (!isWordLike) continue;
    const cjk = UNSEGMENTED.test(segment);
    const last = words.at(-1);
    if (cjk && last?.cjk && previousEnd.at === from + index) last.text += segment;
    else words.push({ text: segment, cjk });
    previousEnd.at = from + index + segment.length;
  }
}

const isAsciiSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

/**
 * Word-like pieces in order; adjacent Han/Kana words are joined back into one run. Words never
 * cross ASCII white space (UAX #29), so the text is read in stretches between spaces: stretches of
 * ASCII by `asciiWords`; a run of the others (with the spaces between them) by the segmenter in one
 * call, from the spaces before it (a combining mark right after a space belongs to the space).
 */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  const folded = text.normalize("NFKC").toLowerCase();
  const previousEnd = { at: -1 };
  for (let start = 0; start < folded.length; ) {
    const end = pieceEnd(folded, start);
    let from = start; // where the ASCII not read yet begins
    let run: { from: number; to: number } | undefined; // stretches waiting for the segmenter
    for (let i = start; i < end; ) {
      const spaces = i;
      while (i < end && isAsciiSpace(folded.charCodeAt(i))) i++;
      let plain = true;
      for (; i < end && !isAsciiSpace(folded.charCodeAt(i)); i++) if (folded.charCodeAt(i) > 127) plain = false;
      if (!plain) {
        if (run) run.to = i;
        else {
          asciiWords(folded, from, spaces, words);
          run = { from: spaces, to: i };
        }
      } else if (run && i > spaces) {
        segmentedWords(folded, run.from, run.to, words, previousEnd);
        from = run.to;
        run = undefined;
      }
    }
    if (run) {
      segmentedWords(folded, run.from, run.to, words, previousEnd);
      from = run.to;
    }
    asciiWords(folded, from, end, words);
    start = end;
  }
  return words;
}

function characters(run: string): string[] {
  return [...run].filter((c) => UNSEGMENTED.test(c));
}

function bigrams(chars: string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

/** The index's copy of a text: words, and single characters plus pairs for Han/Kana runs. */
export function indexText(text: string): string {
  const tokens: string[] = [];
  for (const word of wordsOf(text)) {
    if (!word.cjk) {
      tokens.push(word.text);
      continue;
    }
    const chars = characters(word.text);
    tokens.push(...chars, ...bigrams(chars));
  }
  return tokens.join(" ");
}

// English words that say how a question is asked, not what it is about: the usual stop list
// plus the verbs of remembering.
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can " +
    "could did do does doing done down during each few for from further had has have having he her here hers herself him himself " +
    "his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours " +
    "ourselves out over own same she should so some such than that the their theirs them themselves then there these they this " +
    "those through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours yourself yourselves s t d ll m re ve don didn doesn isn wasn weren won wouldn couldn shouldn " +
    "remember recall remind tell told say said saying mention mentioned mentioning know knew ask asked talk talked " +
    "ever again last time thing things something anything name named called call get got go went one ones also really"
  ).split(" "),
);

/**
 * The words of a question that carry its meaning, as index tokens, each once. Han/Kana runs
 * give all their pairs and characters, as the index has them: BM25 weighs common characters
 * down by itself, and masking "stop characters" lost more than it gained (bench:recall).
 */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const all: string[] = [];
  for (const word of wordsOf(text)) {
    if (word.cjk) {
      const chars = characters(word.text);
      terms.push(...bigrams(chars), ...chars);
      continue;
    }
    // "I'm", "Mei's": the parts, as the index's tokenizer splits them.
    for (const part of word.text.split(/['\u2019]/)) {
      if (part === "") continue;
      all.push(part);
      if (!STOP_WORDS.has(part)) terms.push(part);
    }
  }
  // A question made only of stop words ("what did I say?") still searches for them.
  return [...new Set(terms.length > 0 ? terms : all)];
}

/**
 * An FTS5 MATCH expression from index tokens: each one quoted (so `"`, `*`, `AND`, `(` typed
 * by anyone are plain text) and joined with OR; BM25 then ranks by how many and how rare.
 */
export function matchExpression(terms: readonly string[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}
