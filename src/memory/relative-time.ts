/**
 * Relative times ("next week", "明天") in text that is read on later days. Memory files other
 * than the daily log have no date of their own, so "next week" written today is wrong a month
 * from now: the model's writes carrying one are refused with today's date, to be rewritten as a
 * date. A text that also names a date ("next week, 2026-12-10") is fine.
 *
 * Hand-written lists, no library: the date parsers (chrono and the like) resolve relative words
 * but do not say whether a text is anchored, and none covers Chinese this way. Every pattern is
 * an alternation of literal words with bounded gaps: linear on any input.
 */

const DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
const UNITS = "days?|weeks?|months?|years?";
const COUNT = "a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|\\d{1,3}";
const ENGLISH = new RegExp(
  [
    "\\bday after tomorrow\\b",
    "\\bday before yesterday\\b",
    "\\b(?:tomorrow|yesterday|tonight|today)\\b",
    `\\b(?:next|last|this|coming) (?:week|weekend|month|year|spring|summer|autumn|fall|winter|${DAYS})\\b`,
    `\\bin (?:${COUNT}) (?:${UNITS})\\b`,
    `\\b(?:${COUNT}) (?:${UNITS}) ago\\b`,
  ].join("|"),
  "i",
);
const CHINESE =
  /大后天|后天|明天|明晚|明早|今天|今晚|今早|昨天|昨晚|前天|下(?:个)?(?:周|星期|礼拜)|上(?:个)?(?:周|星期|礼拜)|这(?:个)?(?:周|星期|礼拜)|本周|下个月|上个月|这个月|本月|明年|去年|今年|[\d一二三四五六七八九十几两]{1,3}(?:天|周|个星期|个月|年)(?:后|前|以后|之后|以前|之前)/;

const MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec";
/** An absolute date: 2026-12-10, 12/10, 10 Dec, December 10, January 2027, 12月10日, 2026年. */
const DATE = new RegExp(
  [
    "\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b",
    "\\b\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?\\b",
    `\\b(?:${MONTHS})[a-z]{0,6}\\.? (?:\\d{1,2}|\\d{4})\\b`,
    `\\b\\d{1,2} (?:${MONTHS})[a-z]{0,6}\\b`,
    "\\d{1,2}月\\d{1,2}[日号]",
    "\\d{4}年",
  ].join("|"),
  "i",
);

/** The first relative time word of a text that names no date, as written; undefined when there is none. */
export function relativeTimeIn(text: string): string | undefined {
  if (DATE.test(text)) return undefined;
  return (ENGLISH.exec(text) ?? CHINESE.exec(text))?.[0];
}
