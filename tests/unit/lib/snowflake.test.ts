import { describe, expect, it } from "vitest";
import { isSnowflake, MESSAGE_PLACE } from "../../../src/lib/snowflake.js";

describe("a Discord id", () => {
  it("is 1 to 20 ASCII digits and nothing else", () => {
    for (const id of ["1", "123456789012345678", "9".repeat(20)]) expect(isSnowflake(id)).toBe(true);
    for (const id of ["", "9".repeat(21), "12a", "１２３", "123\n", " 123", "../123", "-1", 123, undefined, null]) expect(isSnowflake(id)).toBe(false);
    expect(MESSAGE_PLACE.test("123/456")).toBe(true);
    expect(MESSAGE_PLACE.test("123/456/789")).toBe(false);
  });

  it("is checked in linear time on a megabyte of the worst input", () => {
    const started = performance.now();
    for (const text of ["1".repeat(1 << 20), `${"1".repeat(1 << 20)}x`, `${"1/".repeat(1 << 19)}`]) {
      expect(isSnowflake(text)).toBe(false);
      expect(MESSAGE_PLACE.test(text)).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(500);
  });
});
