import { stemmer } from "stemmer";
import { wordsOf } from "./recall/search-text.js";
import { relativeTimeIn } from "./relative-time.js";

/**
 * The facts of a text as code can compare them: its content words (stemmed, so "likes" is
 * "like"), its numbers, and whether it says no. Whose words a fact is, whether a quote supports
 * a line and whether a rewritten line kept what it said are all measured with these — not with
 * one shared word, which any two sentences about one subject have (docs/design.md §9, "Whose words").
 */
export interface Facts {
  /** Content words and numbers: stems of Latin words, Han and Kana characters that are not grammar. */
  words: ReadonlySet<string>;
  /** Numbers (digits, and number words as digits: "two" and 两 are 2), a subset of `words`: a fact with another number is another fact. */
  numbers: ReadonlySet<string>;
  /** Dates written out (2026-11-20): kept apart from the numbers (see ISO_DATE). */
  dates: ReadonlySet<string>;
  /** It says "next week", 明天…: a date the model wrote for it is carried. */
  relative: boolean;
  /** How many negations it holds ("not", "never", "n't", 不, 没…). */
  negations: number;
  /** Its clauses (cut at sentence marks and "but"), each with its words and negations: a "no" counts where it is said. */
  clauses: readonly Clause[];
}

interface Clause {
  words: ReadonlySet<string>;
  negations: number;
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
const NEGATIONS = new Set(
  (
    "not no never nor none nothing nobody neither cannot without hardly barely rarely seldom " +
    "dont doesnt didnt isnt arent wasnt werent wont cant couldnt shouldnt wouldnt hasnt havent hadnt aint"
  ).split(" "),
);
/** Number words as the digits they are: "two kids" and "2 kids" are one fact, "three kids" another. */
const NUMBER_WORDS = new Map(
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
    .split(" ")
    .map((word, i) => [word, String(i)] as const)
    .concat(["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"].map((word, i) => [word, String((i + 3) * 10)] as const))
    .concat([
      ["hundred", "100"],
      ["thousand", "1000"],
      ["million", "1000000"],
      ["dozen", "12"],
      ["twice", "2"],
      ["once", "1"],
    ]),
);
const HAN_NUMBERS = new Map(
  [..."零一二三四五六七八九十"]
    .map((char, i) => [char, String(i)] as const)
    .concat([
      ["两", "2"],
      ["百", "100"],
      ["千", "1000"],
      ["万", "10000"],
    ]),
);
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
 * turns a person's relative words into one, so a date is carried by a source that says a relative
 * time or the same date; it is never read as three numbers.
 */
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/** Where a clause ends: sentence marks, and "but" (a "no" after it belongs to what follows). One alternation of literals and one class: linear. */
const CLAUSE_END = /[.!?;\n。！？；]|\b(?:but|however|although|though|whereas)\b|但是|不过|可是|但/giu;

export function factsOf(text: string): Facts {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const read = text.length > MAX_FACT_CHARS ? text.slice(0, MAX_FACT_CHARS) : text;
  const dates = new Set(read.match(ISO_DATE) ?? []);
  const clauses: Clause[] = [];
  let negations = 0;
  for (const piece of read.replace(ISO_DATE, " ").split(CLAUSE_END)) {
    const clause = clauseOf(piece, numbers);
    if (clause.words.size === 0 && clause.negations === 0) continue;
    clauses.push(clause);
    for (const word of clause.words) words.add(word);
    negations += clause.negations;
  }
  return { words, numbers, dates, relative: relativeTimeIn(read) !== undefined, negations, clauses };
}

function clauseOf(text: string, numbers: Set<string>): Clause {
  const words = new Set<string>();
  let negations = 0;
  const number = (value: string) => {
    words.add(value);
    numbers.add(value);
  };
  for (const word of wordsOf(text)) {
    if (word.cjk) {
      // Han and Kana by character: a pair of characters counts a two-character word twice and a
      // phrase across two words once more, so a shared phrase outweighed a new clause ("在面包店工作，想辞职去参军").
      for (const char of word.text) {
        const han = HAN_NUMBERS.get(char);
        if (han !== undefined) number(han);
        else if (HAN_NEGATIONS.has(char)) negations++;
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
      const spelled = NUMBER_WORDS.get(raw);
      if (spelled !== undefined || DIGITS.test(raw)) {
        number(spelled ?? raw.replace(/^0+(?=\d)/, ""));
        continue;
      }
      if (FUNCTION_WORDS.has(raw) || [...raw].length < 2) continue;
      const stem = raw.length <= MAX_STEMMED ? stemmer(raw) : raw;
      if (!FUNCTION_WORDS.has(stem)) words.add(stem);
    }
  }
  return { words, negations };
}

/** At least this share of a line's content words must come from its source for the source to carry it. */
export const CARRIED_SHARE = 2 / 3;

/**
 * How much of `line`'s facts `source` carries: the share of its content words found there (1 for
 * a line with none). A number the source does not hold, a date it gave no time for, or a "no" it
 * does not say about the same things carries nothing: "allergic to penicillin" does not carry
 * "not allergic to penicillin", nor "born 1990" "born 1999", nor "I'm allergic to it. I don't
 * know" "not allergic to it".
 */
export function carriedShare(source: Facts, line: Facts): number {
  for (const number of line.numbers) if (!source.numbers.has(number)) return 0;
  for (const date of line.dates) if (!source.dates.has(date) && !source.relative) return 0;
  for (const clause of line.clauses) if (!samePolarity(source, clause)) return 0;
  if (line.words.size === 0) return 1;
  let found = 0;
  for (const word of line.words) if (source.words.has(word)) found++;
  return found / line.words.size;
}

/** Some clause of the source that is about what the line's clause is about says yes or no as it does. */
function samePolarity(source: Facts, clause: Clause): boolean {
  // A clause says no when it holds a negation at all: "no, I never drink it" is one no, not two.
  const said = clause.negations > 0;
  const words = [...clause.words];
  let about = false;
  for (const other of source.clauses) {
    if (words.length > 0 && !words.some((word) => other.words.has(word))) continue;
    about = true;
    if (other.negations > 0 === said) return true;
  }
  // Nothing the source says is about it: only a "no" needs the source's word.
  return !about && !said;
}

/** Whether `source` carries the facts of `line` (CARRIED_SHARE of its content words, its numbers, its polarity). */
export function carries(source: Facts, line: Facts): boolean {
  return carriedShare(source, line) >= CARRIED_SHARE;
}

/** The facts of many texts as one source (a person's typed words over a conversation). */
export function mergeFacts(all: readonly Facts[]): Facts {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const dates = new Set<string>();
  const clauses: Clause[] = [];
  let negations = 0;
  let relative = false;
  for (const facts of all) {
    for (const word of facts.words) words.add(word);
    for (const number of facts.numbers) numbers.add(number);
    for (const date of facts.dates) dates.add(date);
    for (const clause of facts.clauses) clauses.push(clause);
    negations += facts.negations;
    relative ||= facts.relative;
  }
  return { words, numbers, dates, relative, negations, clauses };
}

// The names people and models give profile sections: a category, not a fact about anyone.
const CATEGORIES = factsOf(
  "about basics profile preferences likes dislikes food drinks diet work job career school study studies health family friends " +
    "home contact languages hobbies interests pets schedule routine travel music books reading sports exercise fitness goals plans " +
    "notes personal background identity name location relationships projects skills tech style communication events important " +
    "dates birthday misc other general values habits learning education money finance people daily life places place city " +
    "country address occupation team company appointments reminders follow ups todo anniversaries media games movies shows " +
    "关于 基本信息 个人资料 喜好 偏好 饮食 工作 职业 学习 健康 家人 家庭 朋友 住处 联系方式 语言 爱好 兴趣 宠物 日程 作息 旅行 音乐 阅读 运动 目标 计划 笔记 背景 技能 沟通 其他 生日 生活",
).words;

/**
 * The facts a new section's name states beyond its category ("Diagnosed with epilepsy", not
 * "Health"): a section name is text the file will hold, and a fact can be written there as well
 * as in the lines under it.
 */
export function sectionNameFacts(name: string): Facts {
  const facts = factsOf(name);
  const keep = (words: ReadonlySet<string>) => new Set([...words].filter((word) => !CATEGORIES.has(word)));
  return { ...facts, words: keep(facts.words), clauses: facts.clauses.map((clause) => ({ ...clause, words: keep(clause.words) })) };
}
