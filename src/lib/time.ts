import { TZDate } from "@date-fns/tz";
// The two functions by their own paths: the package's index loads all of date-fns (~0.1 s at every start).
import { format } from "date-fns/format";
import { subDays } from "date-fns/subDays";

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone.trim() !== "";
  } catch {
    return false;
  }
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The local calendar date (yyyy-MM-dd) of an instant in a zone. */
export function localDate(now: Date, zone: string): string {
  return format(new TZDate(now, zone), "yyyy-MM-dd");
}

/** The local wall-clock time (HH:mm) of an instant in a zone. */
export function localTime(now: Date, zone: string): string {
  return format(new TZDate(now, zone), "HH:mm");
}

/** The last `days` local dates ending today, oldest first. */
export function recentDates(now: Date, zone: string, days: number): string[] {
  const today = new TZDate(now, zone);
  return Array.from({ length: days }, (_, i) => format(subDays(today, days - 1 - i), "yyyy-MM-dd"));
}

/** A local date as daily logs are named: yyyy-MM-dd (and nothing that could leave a folder). */
export function isLocalDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text);
}

/** The date of a daily log's file name ("2026-12-02.md"), or undefined for any other file. */
export function dateOfLog(fileName: string): string | undefined {
  const date = fileName.endsWith(".md") ? fileName.slice(0, -".md".length) : "";
  return isLocalDate(date) ? date : undefined;
}

/**
 * A day or a month named as a search bound, as the first or last date it covers: "2026-10-03"
 * is itself, "2026-10" is "2026-10-01" as `since` and "2026-10-31" as `until`. Undefined for
 * anything else, a day that does not exist ("2026-02-30") included. Calendar arithmetic on UTC
 * dates: a bound is a local date already, no zone applies.
 */
export function dateBound(text: string, end: "since" | "until"): string | undefined {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [year, month] = [Number(match[1]), Number(match[2])];
  if (month < 1 || month > 12) return undefined;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = match[3] !== undefined ? Number(match[3]) : end === "since" ? 1 : lastDay;
  if (day < 1 || day > lastDay) return undefined;
  return `${match[1]}-${match[2]}-${String(day).padStart(2, "0")}`;
}
