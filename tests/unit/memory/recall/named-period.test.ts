import { describe, expect, it } from "vitest";
import { namedPeriod } from "../../../../src/memory/recall/named-period.js";

describe("namedPeriod: the days a question names in words", () => {
  it("reads a month with its year as that month and the week after it", () => {
    expect(namedPeriod("What physical transformation did Nate undergo in April 2022?")).toEqual({ since: "2022-04-01", until: "2022-05-07" });
    expect(namedPeriod("Where did she go in Dec 2023")).toEqual({ since: "2023-12-01", until: "2024-01-07" });
    expect(namedPeriod("2022年7月我去了哪里")).toEqual({ since: "2022-07-01", until: "2022-08-07" });
  });

  it("reads a day, written either way round, as that day and the two weeks after it", () => {
    expect(namedPeriod("What movie did Joanna watch on 1 May, 2022?")).toEqual({ since: "2022-05-01", until: "2022-05-15" });
    expect(namedPeriod("What did Nate do for Joanna on May 25, 2022?")).toEqual({ since: "2022-05-25", until: "2022-06-08" });
    expect(namedPeriod("What happened on the 3rd of March 2024?")).toEqual({ since: "2024-03-03", until: "2024-03-17" });
    expect(namedPeriod("2022年5月1日那天")).toEqual({ since: "2022-05-01", until: "2022-05-15" });
  });

  it("names nothing without a year, for a day that does not exist, or for a month word that is not a month", () => {
    for (const question of [
      "What did I do in March?",
      "what did we say last month",
      "on 31 February 2022",
      "2022年13月",
      "may I ask about 2022",
      "the year 2022",
    ]) {
      expect(namedPeriod(question), question).toBeUndefined();
    }
  });

  it("reads only the first thousand characters, and a megabyte of the worst input in linear time", () => {
    expect(namedPeriod(`${"x ".repeat(600)}in April 2022`)).toBeUndefined();
    for (const worst of ["2022年".repeat(200_000), "1 ".repeat(500_000), "may ".repeat(250_000), "年".repeat(1_000_000)]) {
      const started = performance.now();
      namedPeriod(worst);
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});
