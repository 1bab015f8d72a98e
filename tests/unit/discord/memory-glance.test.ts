import { describe, expect, it } from "vitest";
import { usageBar } from "../../../src/discord/commands/memory-glance.js";

describe("usageBar", () => {
  it("shows an empty file as an empty bar at 0%", () => {
    expect(usageBar(0, 1400)).toBe("▱▱▱▱▱▱▱▱▱▱ 0% 0/1400");
  });

  it("fills a segment per full tenth of the cap", () => {
    expect(usageBar(574, 1400)).toBe("▰▰▰▰▱▱▱▱▱▱ 41% 574/1400");
    expect(usageBar(500, 1000)).toBe("▰▰▰▰▰▱▱▱▱▱ 50% 500/1000");
  });

  it("never shows a file with text as empty, nor a file with room as full", () => {
    expect(usageBar(1, 1400)).toBe("▰▱▱▱▱▱▱▱▱▱ 1% 1/1400");
    expect(usageBar(1399, 1400)).toBe("▰▰▰▰▰▰▰▰▰▱ 99% 1399/1400");
  });

  it("shows a file exactly at its cap as full, without a warning", () => {
    expect(usageBar(1400, 1400)).toBe("▰▰▰▰▰▰▰▰▰▰ 100% 1400/1400");
  });

  it("shows a file over its cap above 100% with a warning, even by one character", () => {
    expect(usageBar(1568, 1400)).toBe("▰▰▰▰▰▰▰▰▰▰ 112% 1568/1400 ⚠️");
    expect(usageBar(1401, 1400)).toBe("▰▰▰▰▰▰▰▰▰▰ 101% 1401/1400 ⚠️");
  });
});
