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

/** Word-like pieces in order; adjacent Han/Kana words are joined back into one run. */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  const folded = text.normalize("NFKC").toLowerCase();
  let previousEnd = -1;
  for (let start = 0; start < folded.length; ) {
    const end = pieceEnd(folded, start);
    for (const { segment, index, isWordLike } of segmenter.segment(folded.slice(start, end))) {
      if (!isWordLike) continue;
      const cjk = UNSEGMENTED.test(segment);
      const last = words.at(-1);
      if (cjk && last?.cjk && previousEnd === start + index) last.text += segment;
      else words.push({ text: segment, cjk });
      previousEnd = start + index + segment.length;
    }
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
