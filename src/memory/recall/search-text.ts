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

interface Word {
  text: string;
  /** True for a run of Han or Kana characters. */
  cjk: boolean;
}

/** Word-like pieces in order; adjacent Han/Kana words are joined back into one run. */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let previousEnd = -1;
  for (const { segment, index, isWordLike } of segmenter.segment(text.normalize("NFKC").toLowerCase())) {
    if (!isWordLike) continue;
    const cjk = UNSEGMENTED.test(segment);
    const last = words.at(-1);
    if (cjk && last?.cjk && previousEnd === index) last.text += segment;
    else words.push({ text: segment, cjk });
    previousEnd = index + segment.length;
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

// Words that say how a question is asked, not what it is about (English: the usual stop list
// plus the verbs of remembering; Chinese: function words, question words and relative times).
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can " +
    "could did do does doing done down during each few for from further had has have having he her here hers herself him himself " +
    "his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours " +
    "ourselves out over own same she should so some such than that the their theirs them themselves then there these they this " +
    "those through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours yourself yourselves s t d ll m re ve don didn doesn isn wasn weren won wouldn couldn shouldn " +
    "remember recall remind tell told say said saying mention mentioned mentioning know knew ask asked talk talked " +
    "ever again last time thing things something anything name named called call get got go went one ones also really " +
    "的 了 吗 呢 吧 啊 呀 哦 嘛 么 我 你 您 他 她 它 我们 你们 他们 她们 咱们 是 在 有 和 与 及 就 都 也 还 又 说 讲 那 这 " +
    "那个 这个 那些 这些 那家 这家 那位 那本 那次 这次 什么 啥 哪 哪个 哪些 哪里 哪儿 哪家 哪本 哪位 谁 怎么 怎样 怎么样 为什么 " +
    "多少 几 记得 还记得 记不记得 知道 告诉 提到 提过 说过 聊过 聊到 问过 一下 上次 之前 以前 当时 时候 的时候 曾经 后来 " +
    "上个月 这个月 上周 这周 上星期 去年 今年 最近 那天 过 个 叫 叫做 名字 一个 一些 给 跟 让 把 被 对 从 到 会 能 要 想 请 帮 吗 我的 你的 自己 东西 事 事情"
  ).split(" "),
);

const LONGEST_STOP = 4;

/**
 * Han/Kana characters of a question that carry meaning: stop words are masked longest first,
 * what is left gives its pairs (or the character itself when it stands alone).
 */
function cjkTerms(run: string): string[] {
  const chars = characters(run);
  const kept: (string | null)[] = [...chars];
  for (let i = 0; i < chars.length; ) {
    let length = Math.min(LONGEST_STOP, chars.length - i);
    while (length > 0 && !STOP_WORDS.has(chars.slice(i, i + length).join(""))) length--;
    if (length === 0) {
      i++;
      continue;
    }
    kept.fill(null, i, i + length);
    i += length;
  }
  const terms: string[] = [];
  let stretch: string[] = [];
  for (const char of [...kept, null]) {
    if (char !== null) {
      stretch.push(char);
      continue;
    }
    terms.push(...(stretch.length === 1 ? stretch : bigrams(stretch)));
    stretch = [];
  }
  return terms;
}

/** The words of a question that carry its meaning, as index tokens, each once. */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const all: string[] = [];
  for (const word of wordsOf(text)) {
    if (word.cjk) {
      terms.push(...cjkTerms(word.text));
      all.push(...bigrams(characters(word.text)));
      continue;
    }
    // "I'm", "Mei's": the parts, as the index's tokenizer splits them.
    for (const part of word.text.split(/['’]/)) {
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
