import { describe, expect, it } from "vitest";
import { dateBound } from "../../../src/lib/time.js";
import { expectLinear } from "../../helpers/linear-time.js";

describe("dateBound", () => {
  it("takes a day as itself and a month as its first or last day", () => {
    expect(dateBound("2026-10-03", "since")).toBe("2026-10-03");
    expect(dateBound(" 2026-10-03 ", "until")).toBe("2026-10-03");
    expect(dateBound("2026-10", "since")).toBe("2026-10-01");
    expect(dateBound("2026-10", "until")).toBe("2026-10-31");
    expect(dateBound("2028-02", "until")).toBe("2028-02-29");
    expect(dateBound("2026-02", "until")).toBe("2026-02-28");
  });

  it("refuses what is not a real day or month", () => {
    for (const text of ["2026-02-30", "2026-13", "2026-00-10", "2026-1-3", "October", "2026/10/03", "", "2026-10-03T00:00", "２０２６-10-03"]) {
      expect(dateBound(text, "since"), text).toBeUndefined();
    }
  });

  it("runs in linear time on a megabyte of digits and dashes", () => {
    expectLinear(
      (size) => "2026-10-".repeat(size / 8),
      (text) => dateBound(text, "since"),
    );
  });
});
