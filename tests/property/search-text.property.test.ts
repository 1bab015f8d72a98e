import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordsOf, type Word } from "../../src/memory/recall/search-text.js";
import { RUNS, TIMEOUT } from "./runs.js";

// --- the oracle: every piece given whole to Intl.Segmenter, as wordsOf did before its ASCII reader ---

const segmenter = new Intl.Segmenter("und", { granularity: "word" });
const UNSEGMENTED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}]/u;

function segmenterWords(text: string): Word[] {
  const words: Word[] = [];
  const folded = text.normalize("NFKC").toLowerCase();
  let previousEnd = -1;
  for (let start = 0; start < folded.length; ) {
    // The same pieces as wordsOf: at most 1,000 characters, ended after a white space in the second half.
    let end = folded.length - start <= 1000 ? folded.length : start + 1000;
    if (end < folded.length)
      for (let i = start + 1000; i > start + 500; i--)
        if (/\s/.test(folded[i - 1]!)) {
          end = i;
          break;
        }
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

// What UAX #29 treats differently: letters, digits and `_`; the joiners `.` `'` `:` `,` `;`; ASCII
// spaces and line breaks; and around them accents, joiners, emoji, flags, Han, Kana, Hebrew, Thai,
// curly quotes, no-break and ideographic spaces, full-width letters that NFKC folds to ASCII.
const ASCII_PARTS = ["a", "b", "Z", "1", "9", "_", ".", "'", ":", ",", ";", " ", "  ", "\n", "\r\n", "\t", "-", "@", "/", "!", "?", '"', "#"];
const OTHER_PARTS = [
  "\u0301", // combining acute accent (Extend)
  "\u200d", // zero-width joiner
  "\u00ad", // soft hyphen (Format)
  "🧑",
  "🇫🇷",
  "é",
  "ß",
  "乌龙",
  "茶",
  "カタ",
  "ひら",
  "שלום",
  "ข้าว",
  "’",
  "·",
  "\u00a0",
  "\u3000",
  "ＯＫ",
  "①",
  "…",
];
const text = (parts: string[]) => fc.array(fc.constantFrom(...parts), { maxLength: 60 }).map((chosen) => chosen.join(""));

describe("wordsOf reads ASCII itself and gives the words the segmenter gives", () => {
  it(
    "on ASCII text",
    () => {
      fc.assert(
        fc.property(text(ASCII_PARTS), (t) => {
          expect(wordsOf(t)).toEqual(segmenterWords(t));
        }),
        { numRuns: RUNS * 8 },
      );
    },
    TIMEOUT,
  );

  it(
    "on ASCII mixed with accents, joiners, emoji, Han, Kana and other scripts",
    () => {
      fc.assert(
        fc.property(text([...ASCII_PARTS, ...ASCII_PARTS, ...OTHER_PARTS]), (t) => {
          expect(wordsOf(t)).toEqual(segmenterWords(t));
        }),
        { numRuns: RUNS * 8 },
      );
    },
    TIMEOUT,
  );

  it(
    "across the 1,000-character pieces of a long text",
    () => {
      fc.assert(
        fc.property(fc.array(text([...ASCII_PARTS, ...OTHER_PARTS]), { minLength: 20, maxLength: 80 }), (lines) => {
          const t = lines.join(" ");
          expect(wordsOf(t)).toEqual(segmenterWords(t));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
