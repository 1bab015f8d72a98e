import { stemmer } from "stemmer";
import { wordsOf } from "./recall/search-text.js";

/**
 * The facts of a text as code can compare them: its content words (stemmed, so "likes" is
 * "like"), its numbers, and whether it says no. Whose words a fact is, whether a quote supports
 * a line and whether a rewritten line kept what it said are all measured with these — not with
 * one shared word, which any two sentences about one subject have (docs/design.md §9, "Whose words").
 */
export interface Facts {
  /** Content words and numbers: stems of Latin words, Han and Kana characters that are not grammar. */
  words: ReadonlySet<string>;
  /** Numbers as written (digits), a subset of `words`: a fact with another number is another fact. */
  numbers: ReadonlySet<string>;
  /** How many negations it holds ("not", "never", "n't", 不, 没…): odd says the opposite. */
  negations: number;
  /** The facts of several texts (mergeFacts): their polarities cannot be added up, only "one of them says no". */
  merged?: true;
}

// Words that say how, not what: articles, pronouns, auxiliaries, prepositions, conjunctions and
// the fillers of speech. Negations are not here: "not allergic" is another fact than "allergic".
const FUNCTION_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing done down during each few for from further had has have having he her here hers herself him himself " +
    "his how i if in into is it its itself just me more most my myself now of off on once only or other our ours " +
    "ourselves out over own same she should so some such than that the their theirs them themselves then there these they this " +
    "those through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours yourself yourselves s t d ll m re ve let lets really actually pretty quite maybe perhaps okay ok yeah yes oh well " +
    "think guess mean kind sort lot lots thing things stuff something anything much many get got gets " +
    "don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven hadn ain"
  ).split(" "),
);
const NEGATIONS = new Set(["not", "no", "never", "nor", "none", "nothing", "nobody", "neither", "cannot", "without"]);
/** Han characters that are grammar, not content. */
const HAN_FUNCTION = new Set([..."的了是我你他她它们在和也就都很吗呢吧啊呀这那有个些着过把被给对让从向跟与及而但又还要会能想说就去来上下里"]);
const HAN_NEGATIONS = new Set([..."不没未别无非莫勿"]);
const DIGITS = /^\p{Nd}+$/u;
/** The stemmer's patterns run on one word; a "word" of a megabyte is not a word anyone compares. */
const MAX_STEMMED = 40;

/**
 * What is compared of one text: far more than a memory file holds (2,200) or the model reads of a
 * voice (60,000), and a pasted megabyte costs a few milliseconds, not a second of everyone's loop.
 * A source cut here only carries less.
 */
const MAX_FACT_CHARS = 100_000;

/**
 * A date written out (2026-11-20) is how memory must say "last week" (relative-time.ts): the model
 * turns a person's relative words into one, so a date is not a fact their words must hold.
 */
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

export function factsOf(text: string): Facts {
  const words = new Set<string>();
  const numbers = new Set<string>();
  let negations = 0;
  const read = (text.length > MAX_FACT_CHARS ? text.slice(0, MAX_FACT_CHARS) : text).replace(ISO_DATE, " ");
  for (const word of wordsOf(read)) {
    if (word.cjk) {
      // Han and Kana by character: a pair of characters counts a two-character word twice and a
      // phrase across two words once more, so a shared phrase outweighed a new clause ("在面包店工作，想辞职去参军").
      for (const char of word.text) {
        if (HAN_NEGATIONS.has(char)) negations++;
        else if (!HAN_FUNCTION.has(char)) words.add(char);
      }
      continue;
    }
    // "don't", "isn't": the negation is a fact of its own; "Mei's" is Mei.
    for (const raw of word.text.split(/['\u2019]/)) {
      if (raw === "") continue;
      if (raw.endsWith("n") && word.text.length > raw.length && /n['\u2019]t$/.test(word.text)) negations++;
      if (NEGATIONS.has(raw)) {
        negations++;
        continue;
      }
      if (DIGITS.test(raw)) {
        const number = raw.replace(/^0+(?=\d)/, "");
        words.add(number);
        numbers.add(number);
        continue;
      }
      if (FUNCTION_WORDS.has(raw) || [...raw].length < 2) continue;
      const stem = raw.length <= MAX_STEMMED ? stemmer(raw) : raw;
      if (!FUNCTION_WORDS.has(stem)) words.add(stem);
    }
  }
  return { words, numbers, negations };
}

/** At least this share of a line's content words must come from its source for the source to carry it. */
export const CARRIED_SHARE = 2 / 3;

/**
 * How much of `line`'s facts `source` carries: the share of its content words found there (1 for
 * a line with none). A number the source does not hold, or a negation it does not have, carries
 * nothing: "allergic to penicillin" does not carry "not allergic to penicillin", nor "born 1990" "born 1999".
 */
export function carriedShare(source: Facts, line: Facts): number {
  for (const number of line.numbers) if (!source.numbers.has(number)) return 0;
  if (source.merged ? line.negations > 0 && source.negations === 0 : line.negations % 2 !== source.negations % 2) return 0;
  if (line.words.size === 0) return 1;
  let found = 0;
  for (const word of line.words) if (source.words.has(word)) found++;
  return found / line.words.size;
}

/** Whether `source` carries the facts of `line` (CARRIED_SHARE of its content words, its numbers, its polarity). */
export function carries(source: Facts, line: Facts): boolean {
  return carriedShare(source, line) >= CARRIED_SHARE;
}

/** The facts of many texts as one source (a person's typed words over a conversation). */
export function mergeFacts(all: readonly Facts[]): Facts {
  const words = new Set<string>();
  const numbers = new Set<string>();
  let negations = 0;
  for (const facts of all) {
    for (const word of facts.words) words.add(word);
    for (const number of facts.numbers) numbers.add(number);
    negations += facts.negations;
  }
  return { words, numbers, negations, merged: true };
}
