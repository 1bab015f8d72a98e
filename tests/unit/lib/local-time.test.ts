import { TZDate } from "@date-fns/tz";
import { format } from "date-fns/format";
import { subDays } from "date-fns/subDays";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDate, localTime, recentDates } from "../../../src/lib/time.js";

// Zones with half-hour and 45-minute offsets, both hemispheres' summer time, a day skipped (Apia, 2011-12-30) and none.
const ZONES = [
  "UTC",
  "Asia/Shanghai",
  "America/New_York",
  "Europe/London",
  "Australia/Lord_Howe",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Pacific/Apia",
  "America/St_Johns",
  "Pacific/Chatham",
];
// 1970 to 2200, whole minutes off every hour included.
const instants = fc.integer({ min: 0, max: 7_258_118_400_000 }).map((ms) => new Date(ms));

describe("local dates and times", () => {
  it("are what date-fns with @date-fns/tz gives, for any instant in zones with odd offsets and clock changes", () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), fc.integer({ min: 1, max: 7 }), (now, zone, days) => {
        const there = new TZDate(now, zone);
        const today = format(there, "yyyy-MM-dd");
        expect(localDate(now, zone)).toBe(today);
        expect(localTime(now, zone)).toBe(format(there, "HH:mm"));
        // Calendar days back from today's local date (recentDates' rule): counted on a UTC noon, not on
        // the zone's clock, where date-fns gives a skipped day as the next one (Apia's 30 December 2011).
        const [year, month, day] = today.split("-").map(Number) as [number, number, number];
        const noon = new TZDate(year, month - 1, day, 12, "UTC");
        expect(recentDates(now, zone, days)).toEqual(Array.from({ length: days }, (_, i) => format(subDays(noon, days - 1 - i), "yyyy-MM-dd")));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives each instant of a minute, read one after another, the wall clock date-fns gives it, and the next minute's its own", () => {
    // Instants read in turn, as an opening does: the same minute (the kept reading) and the next ones, clock changes included.
    const seconds = fc.array(fc.integer({ min: 0, max: 125 }), { minLength: 2, maxLength: 8 });
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), seconds, (start, zone, offsets) => {
        for (const offset of offsets) {
          const now = new Date(start.getTime() + offset * 1_000);
          const there = new TZDate(now, zone);
          expect(localTime(now, zone)).toBe(format(there, "HH:mm"));
          expect(localDate(now, zone)).toBe(format(there, "yyyy-MM-dd"));
        }
      }),
      { numRuns: 1_000 },
    );
    // The minute before New York's clocks go forward (01:59 EST), then the instant they do (03:00 EDT).
    expect(localTime(new Date("2026-03-08T06:59:30Z"), "America/New_York")).toBe("01:59");
    expect(localTime(new Date("2026-03-08T07:00:00Z"), "America/New_York")).toBe("03:00");
    // Kathmandu's +5:45: the minute changes on UTC's minute, 45 past the local hour.
    expect(localTime(new Date("2026-03-08T06:59:59Z"), "Asia/Kathmandu")).toBe("12:44");
    expect(localTime(new Date("2026-03-08T07:00:00Z"), "Asia/Kathmandu")).toBe("12:45");
  });

  it("names midnight 00:00 and counts days back across a month, a year and a leap day", () => {
    expect(localTime(new Date("2026-03-01T00:00:00Z"), "UTC")).toBe("00:00");
    expect(recentDates(new Date("2028-03-01T10:00:00Z"), "UTC", 3)).toEqual(["2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(recentDates(new Date("2027-01-01T03:00:00Z"), "Asia/Shanghai", 2)).toEqual(["2026-12-31", "2027-01-01"]);
    // Samoa skipped 30 December 2011: its calendar still counts the day before as the 29th's next.
    expect(localDate(new Date("2011-12-30T10:00:00Z"), "Pacific/Apia")).toBe("2011-12-31");
    // Calendar days back from there (fast-check found date-fns's own answer, 31 and 31, in CI).
    expect(recentDates(new Date("2011-12-30T10:00:00Z"), "Pacific/Apia", 2)).toEqual(["2011-12-30", "2011-12-31"]);
    // Nuuk's clocks change at midnight: date-fns's day back from there gave 28, 30, 30 (a review found it).
    expect(recentDates(new Date("2025-03-31T00:00:00Z"), "America/Nuuk", 3)).toEqual(["2025-03-28", "2025-03-29", "2025-03-30"]);
  });

  it("throws a RangeError for a zone Intl does not know, as before", () => {
    expect(() => localDate(new Date(), "Mars/Olympus_Mons")).toThrow(RangeError);
  });
});
