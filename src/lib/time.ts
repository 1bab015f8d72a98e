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

/**
 * Per zone, one Intl formatter that gives an instant's local date and time in one call. Written on
 * Intl itself rather than through @date-fns/tz: its TZDate asks Intl again for every step (the
 * offset, each field, each day back), and a session's opening spent 0.1 ms on three dates that
 * way; a formatter is slow to make and quick to use, so each zone's is made once.
 */
const clocks = new Map<string, ZoneClock>();
/** Zones whose formatter is kept: the people of a process use a few; a flood of names only empties the map. */
const CLOCKS_KEPT = 512;
/**
 * Since 1973 every zone's offset is a whole number of minutes (Africa/Monrovia's −0:44:30 was the
 * last that was not), so one UTC minute is one wall-clock minute: the last one asked is kept.
 */
const WHOLE_MINUTES_SINCE = Date.UTC(1973, 0, 1);

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

interface ZoneClock {
  format: Intl.DateTimeFormat;
  /** The UTC minute (ms ÷ 60,000) of the last instant read, and its wall clock. */
  minute: number;
  last: WallClock | undefined;
}

/** An instant as a zone's calendar and wall clock show it; a RangeError for a zone Intl does not know. */
function wallClock(now: Date, zone: string): WallClock {
  let clock = clocks.get(zone);
  if (clock === undefined) {
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    });
    clock = { format, minute: Number.NaN, last: undefined };
    if (clocks.size >= CLOCKS_KEPT) clocks.clear();
    clocks.set(zone, clock);
  }
  const ms = now.getTime();
  // An opening reads today's date, the time and the days back of one instant: Intl once.
  const minute = Math.floor(ms / 60_000);
  if (minute === clock.minute && clock.last !== undefined) return clock.last;
  const fields: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of clock.format.formatToParts(now)) fields[part.type] = part.value;
  const year = Number(fields.year);
  if (!Number.isFinite(year)) throw new RangeError("Invalid time value");
  const read: WallClock = Object.freeze({
    year,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
  });
  if (ms >= WHOLE_MINUTES_SINCE) {
    clock.minute = minute;
    clock.last = read;
  }
  return read;
}

const two = (n: number) => String(n).padStart(2, "0");

/** yyyy-MM-dd of a calendar day (years of our era: the instants here are times things happened). */
function dayName(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
}

/** yyyy-MM-dd of a date's UTC calendar day: calendar arithmetic done on UTC dates, named. */
export function utcDay(date: Date): string {
  return dayName(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** The local calendar date (yyyy-MM-dd) of an instant in a zone. */
export function localDate(now: Date, zone: string): string {
  const { year, month, day } = wallClock(now, zone);
  return dayName(year, month, day);
}

/** The local wall-clock time (HH:mm) of an instant in a zone. */
export function localTime(now: Date, zone: string): string {
  const { hour, minute } = wallClock(now, zone);
  return `${two(hour)}:${two(minute)}`;
}

/**
 * The last `days` local dates ending today, oldest first: today's local date, then calendar days
 * back (a day back on the calendar is the same whatever the zone's clock changes do that day).
 */
export function recentDates(now: Date, zone: string, days: number): string[] {
  const { year, month, day } = wallClock(now, zone);
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day - (days - 1 - i));
    return utcDay(date);
  });
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
  return `${match[1]}-${match[2]}-${two(day)}`;
}
