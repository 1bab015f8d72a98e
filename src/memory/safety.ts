import { cutChars } from "../lib/text.js";

/**
 * What keeps memory from steering the model (DESIGN.md §2). Not a list of phrases: text is
 * data, whatever words it holds. What it may not hold is what a reader cannot see (invisible,
 * bidirectional and control characters) and, in the model's own writes, a line that would
 * start a new section. Where memory meets the prompt, every "<" is escaped (escapeTags), so
 * nothing inside a block can open or close one.
 */

/** "tool": the model's writes (no invisible characters, no `##` lines).
 *  "person": a person's own edits and files (no invisible characters; a byte-order mark may start the text).
 *  "record": text shown to the model from files and transcripts (no invisible characters at all). */
export type SafetyLevel = "tool" | "person" | "record";
/** `character`: the code and name of the invisible character found, e.g. "U+202E RIGHT-TO-LEFT OVERRIDE". */
export type SafetyVerdict = { ok: true } | { ok: false; reason: string; character?: string; position?: number };

export function checkContent(text: string, level: SafetyLevel): SafetyVerdict {
  const at = findInvisible(text, level === "person");
  if (at !== undefined) {
    const position = countCodePoints(text, at) + 1;
    const code = text.codePointAt(at)!;
    const character = nameOf(code);
    const detail = code === 0x0d ? `${character} (not followed by a line feed)` : character;
    return { ok: false, reason: `contains an invisible or bidirectional control character: ${detail} at character ${position}`, character, position };
  }
  if (level === "tool") {
    const heading = HEADING_LINE.exec(text);
    if (heading) {
      const line = countLines(text, heading.index);
      return {
        ok: false,
        reason: `has a line that would start a new section ("## …", line ${line}); add to that section with its own call, or use "###" for a heading inside this one`,
      };
    }
  }
  return { ok: true };
}

/** What the model sees instead of blocked text: the character's code and name, never the text itself. */
export function blockedNotice(verdict: { character?: string }): string {
  return `[blocked: ${verdict.character ? `invisible or control character ${verdict.character}` : "unsafe text"}; see /memory view]`;
}

/** The text without what checkContent refuses as invisible (for model text kept anyway, like summaries). */
export function stripControlCharacters(text: string): string {
  let kept = "";
  let from = 0;
  for (let at = findInvisible(text, false); at !== undefined; at = findInvisible(text, false, from)) {
    const char = String.fromCodePoint(text.codePointAt(at)!);
    // A line break in another spelling stays a line break.
    kept += text.slice(from, at) + (char === "\r" || char === "\u2028" || char === "\u2029" ? "\n" : "");
    from = at + char.length;
  }
  return kept + text.slice(from);
}

/** A file saved with a UTF-8 byte-order mark reads as the same file without it. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Memory text as it goes into a prompt block: every "<" and its full-width and small forms
 * (which NFKC folds to "<") become "&lt;", so no tag can be opened or closed from inside.
 * ">" stays: without a "<" it closes nothing, and arrows and quotes stay readable.
 */
export function escapeTags(text: string): string {
  return text.replace(LESS_THAN, "&lt;");
}

/**
 * A short text a person chose (thread title, display name) as quoted data on one line: invisible
 * characters dropped, whitespace runs made one space, tags escaped, cut to `maxChars`, quoted as JSON.
 */
export function quoteForPrompt(text: string, maxChars: number): string {
  // Only the start can be shown: a 1 MB title costs no more than a short one.
  const head = text.length > maxChars * 8 ? `${text.slice(0, maxChars * 8)}…` : text;
  const flat = stripControlCharacters(head).replace(WHITESPACE_RUN, " ").trim();
  return JSON.stringify(cutChars(escapeTags(flat), maxChars));
}

// What a reader cannot see: C0 and C1 controls (not tab or line feed), every format character
// and default-ignorable code point (zero-width, bidi, variation selectors 1–256, tags, the
// combining grapheme joiner, Hangul fillers…), line and paragraph separators, lone surrogates,
// noncharacters, and the braille blank, which looks like a space. permitted() lets through what
// emoji need (a joiner between two emoji, VS16 after one, a flag's tags), CRLF, and a BOM that
// starts a file.
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Default_Ignorable_Code_Point}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}\u2800]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

/** A line the section parser (or Markdown) reads as a `##` heading; `###` and deeper are body text. */
const HEADING_LINE = /^ {0,3}##(?:[ \t\r]|$)/m;
const LESS_THAN = /[<\uFF1C\uFE64]/g;
const WHITESPACE_RUN = /\s+/gu;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const EMOJI = /^[\p{Emoji}\p{Extended_Pictographic}]$/u;

const ZWJ = 0x200d;
const VS16 = 0xfe0f;
const BLACK_FLAG = 0x1f3f4;
// The three subdivision flags (England, Scotland, Wales): the only tag sequences in use, as tags after 🏴.
const FLAG_TAGS = ["gbeng", "gbsct", "gbwls"].map((code) => [...code].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("") + "\u{E007F}");

/**
 * Which UTF-16 units need a closer look: INVISIBLE for every BMP character, and every surrogate.
 * Hand-written because V8 runs a class this large at about 50 ns a character; the table takes 1,
 * so the check on a 2,000-character note stays far under a millisecond (bench: injection-check).
 */
let suspects: Uint8Array | undefined;
function suspectTable(): Uint8Array {
  if (suspects) return suspects;
  const table = new Uint8Array(0x10000);
  table.fill(1, 0xd800, 0xe000);
  let bmp = "";
  for (let unit = 0; unit < 0xd800; unit++) bmp += String.fromCharCode(unit);
  for (let unit = 0xe000; unit < 0x10000; unit++) bmp += String.fromCharCode(unit);
  for (const match of bmp.matchAll(INVISIBLE_ALL)) table[match[0].charCodeAt(0)] = 1;
  return (suspects = table);
}

/** Index (UTF-16) of the first character that is not allowed, from `from` on. One pass: linear. */
function findInvisible(text: string, leadingBom: boolean, from = 0): number | undefined {
  const table = suspectTable();
  for (let at = from; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (table[unit] === 0) continue;
    let code = unit;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const low = text.charCodeAt(at + 1);
      // A lone surrogate is refused: a file would get U+FFFD in its place.
      if (unit > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return at;
      code = text.codePointAt(at)!;
      if (!hasProperty(INVISIBLE, code)) {
        at += 1;
        continue;
      }
    }
    const skip = permitted(text, at, code, leadingBom);
    if (skip === 0) return at;
    at += skip - 1;
  }
  return undefined;
}

/** How many UTF-16 units to pass over when the suspect at `at` is allowed where it stands; 0 when not. */
function permitted(text: string, at: number, code: number, leadingBom: boolean): number {
  if (code === 0x0d) return text.charCodeAt(at + 1) === 0x0a ? 1 : 0;
  if (code === 0xfeff) return at === 0 && leadingBom ? 1 : 0;
  if (code === VS16) return isEmoji(codePointBefore(text, at)) ? 1 : 0;
  if (code === ZWJ) return joinsEmoji(text, at) ? 1 : 0;
  if (code >= 0xe0020 && code <= 0xe007f && codePointBefore(text, at) === BLACK_FLAG) {
    const flag = FLAG_TAGS.find((tags) => text.startsWith(tags, at));
    return flag ? flag.length : 0;
  }
  return 0;
}

/** A zero-width joiner between two emoji (👩‍👩‍👧, 🏳️‍🌈, 👩🏽‍💻), not one that hides in a word. */
function joinsEmoji(text: string, at: number): boolean {
  let before = codePointBefore(text, at);
  // The joiner may follow VS16 or a skin tone that follows the emoji.
  if (before !== undefined && (before === VS16 || (before >= 0x1f3fb && before <= 0x1f3ff))) {
    before = codePointBefore(text, at - (before > 0xffff ? 2 : 1));
  }
  const after = text.codePointAt(at + 1);
  return before !== undefined && after !== undefined && hasProperty(PICTOGRAPHIC, before) && hasProperty(PICTOGRAPHIC, after);
}

function isEmoji(code: number | undefined): boolean {
  return code !== undefined && hasProperty(EMOJI, code);
}

/** Emoji repeat within a text and across texts: each answer is kept (a few thousand at most). */
const answers = new Map<RegExp, Map<number, boolean>>();
function hasProperty(property: RegExp, code: number): boolean {
  let known = answers.get(property);
  if (!known) answers.set(property, (known = new Map()));
  let answer = known.get(code);
  if (answer === undefined) {
    answer = property.test(String.fromCodePoint(code));
    if (known.size < 8192) known.set(code, answer);
  }
  return answer;
}

function codePointBefore(text: string, at: number): number | undefined {
  if (at <= 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2);
  }
  return low;
}

function countCodePoints(text: string, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function countLines(text: string, end: number): number {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

const NAMES: Record<number, string> = {
  0: "NULL",
  8: "BACKSPACE",
  13: "CARRIAGE RETURN",
  27: "ESCAPE",
  127: "DELETE",
  173: "SOFT HYPHEN",
  847: "COMBINING GRAPHEME JOINER",
  1564: "ARABIC LETTER MARK",
  4447: "HANGUL CHOSEONG FILLER",
  4448: "HANGUL JUNGSEONG FILLER",
  6158: "MONGOLIAN VOWEL SEPARATOR",
  8203: "ZERO WIDTH SPACE",
  8204: "ZERO WIDTH NON-JOINER",
  8205: "ZERO WIDTH JOINER",
  8206: "LEFT-TO-RIGHT MARK",
  8207: "RIGHT-TO-LEFT MARK",
  8232: "LINE SEPARATOR",
  8233: "PARAGRAPH SEPARATOR",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8288: "WORD JOINER",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
  10240: "BRAILLE PATTERN BLANK",
  12644: "HANGUL FILLER",
  65279: "ZERO WIDTH NO-BREAK SPACE",
  65440: "HALFWIDTH HANGUL FILLER",
  65529: "INTERLINEAR ANNOTATION ANCHOR",
  65530: "INTERLINEAR ANNOTATION SEPARATOR",
  65531: "INTERLINEAR ANNOTATION TERMINATOR",
};

function nameOf(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  const name =
    NAMES[code] ??
    (code >= 0xfe00 && code <= 0xfe0f
      ? `VARIATION SELECTOR-${code - 0xfe00 + 1}`
      : code >= 0xe0100 && code <= 0xe01ef
        ? `VARIATION SELECTOR-${code - 0xe0100 + 17}`
        : code >= 0xe0000 && code <= 0xe007f
          ? "TAG CHARACTER"
          : undefined);
  return name === undefined ? hex : `${hex} ${name}`;
}
