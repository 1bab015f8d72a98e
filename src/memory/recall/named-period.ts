import { utcDay } from "../../lib/time.js";

/**
 * The days a question names in words ("in July 2022", "on 1 May, 2022", "May 25, 2022",
 * "2022年7月", "2022年5月1日"), as the dates whose conversations it most likely means: a day
 * and the two weeks after it (people tell of a day in the days that follow: "last week",
 * "yesterday"), a month and the week after it. Only whole dates with a year: "in March" or
 * "last month" need the asker's today, and the model passes those as since/until.
 *
 * Hand-written: the date libraries on npm (chrono-node and the like) parse far more than this
 * needs (times, relative phrases, many languages) and would decide ranking from guesses.
 */

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const SHORT = MONTHS.map((m) => m.slice(0, 3));

export interface NamedPeriod {
  since: string;
  until: string;
}

/** A question longer than this is not a question a date is read from. */
const MAX_CHARS = 1000;

function dayPeriod(year: number, month: number, day: number): NamedPeriod | undefined {
  const start = new Date(Date.UTC(year, month, day));
  if (start.getUTCMonth() !== month || start.getUTCDate() !== day) return undefined;
  return { since: utcDay(start), until: utcDay(new Date(Date.UTC(year, month, day + 14))) };
}

function monthPeriod(year: number, month: number): NamedPeriod {
  return { since: utcDay(new Date(Date.UTC(year, month, 1))), until: utcDay(new Date(Date.UTC(year, month + 1, 7))) };
}

function monthOf(word: string | undefined): number {
  if (word === undefined) return -1;
  const full = MONTHS.indexOf(word);
  return full >= 0 ? full : word.length === 3 || (word.length === 4 && word.endsWith(".")) ? SHORT.indexOf(word.slice(0, 3)) : -1;
}

const year = (word: string | undefined) => (word !== undefined && /^(19|20)\d\d$/.test(word) ? Number(word) : undefined);
const dayNumber = (word: string | undefined) => {
  const match = word === undefined ? null : /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
  return match ? Number(match[1]) : undefined;
};

/** The first date with a year the question names, as a period; undefined when it names none. */
export function namedPeriod(question: string): NamedPeriod | undefined {
  const text = question.slice(0, MAX_CHARS).toLowerCase();
  // 2022年7月, 2022年5月1日 (bounded digit runs: linear).
  const han = /(\d{4})\s?年\s?(\d{1,2})\s?月(?:\s?(\d{1,2})\s?[日号])?/.exec(text);
  if (han) {
    const [y, m] = [Number(han[1]), Number(han[2]) - 1];
    if (m >= 0 && m < 12 && year(han[1]) !== undefined) return han[3] ? dayPeriod(y, m, Number(han[3])) : monthPeriod(y, m);
  }
  const words = text.split(/[\s,?!;:()"]+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const month = monthOf(words[i]);
    if (month < 0) continue;
    // "1 May, 2022" / "1st of May 2022"
    const before = dayNumber(words[i - 1]) ?? (words[i - 1] === "of" ? dayNumber(words[i - 2]) : undefined);
    // "May 25, 2022" / "May 2022"
    const after = dayNumber(words[i + 1]);
    const y = year(words[after === undefined ? i + 1 : i + 2]);
    if (y === undefined) continue;
    const day = after ?? before;
    return day === undefined ? monthPeriod(y, month) : dayPeriod(y, month, day);
  }
  return undefined;
}
