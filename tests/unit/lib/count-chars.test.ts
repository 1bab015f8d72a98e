import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countChars, cutChars } from "../../../src/lib/text.js";

describe("countChars", () => {
  it("counts code points as the string iterator does: a pair of surrogates is one, a lone surrogate is one", () => {
    expect(countChars("")).toBe(0);
    expect(countChars("乌龙茶 🍵")).toBe(5);
    expect(countChars("👩‍👧")).toBe(3);
    expect(countChars("\ud83c")).toBe(1);
    expect(countChars("\udf75\ud83c")).toBe(2);
    expect(countChars("a\ud83c\udf75\ud83c")).toBe(3);
    // Any mix of BMP characters, pairs and lone halves, in any order.
    const unit = fc.constantFrom("a", "茶", "\ud83c", "\udf75", "\ud83c\udf75", "\u0301", "\n");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const text = units.join("");
        expect(countChars(text)).toBe([...text].length);
      }),
      { numRuns: 2000 },
    );
  });

  it("cutChars cuts by code point, never inside a pair", () => {
    expect(cutChars("🍵🍵🍵", 2)).toBe("🍵…");
    expect(cutChars("🍵🍵", 2)).toBe("🍵🍵");
  });
});
