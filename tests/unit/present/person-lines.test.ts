import { describe, expect, it } from "vitest";
import { sayIn } from "../../../src/lib/locale.js";
import type { Refusal } from "../../../src/memory/memory-file.js";
import { checkSectionName, type SectionNameProblem } from "../../../src/memory/section-name.js";
import { badSectionNameLine, writeRefusalLine } from "../../../src/present/write-refusal.js";

const REFUSALS: Refusal[] = ["unsafe", "secret", "not-applicable", "over-cap", "changed"];
const PROBLEMS: SectionNameProblem[] = ["empty", "too-long", "not-one-line", "has-hash"];
/** An English word of three letters or more: a Chinese line holds none but names (USER.md) and commands. */
const englishWords = (line: string) => line.replace(/[A-Z]+\.md|\/memory edit|e\.g\./g, "").match(/[A-Za-z]{3,}/g) ?? [];

describe("lines a person reads about a refused write or a bad section name", () => {
  it("are worded from the kind in both languages, with no English in the Chinese and none of the model's hints", () => {
    for (const refusal of REFUSALS) {
      const details = [
        undefined,
        { used: 10, cap: 20, adds: 30, missing: "喜好", sections: [{ name: "工作", chars: 12 }] },
        { reason: "missing" as const, missing: "喜好", sections: [{ name: "工作", chars: 12 }] },
        { reason: "duplicate" as const, count: 2 },
        { reason: "old-text-missing" as const },
        { reason: "old-text-repeated" as const, count: 3 },
        { part: "section-name" as const, character: "U+202E RIGHT-TO-LEFT OVERRIDE", position: 4 },
        { part: "text" as const, character: "U+000D CARRIAGE RETURN", position: 2 },
      ];
      for (const detail of details) {
        const en = writeRefusalLine({ refusal, ...(detail ? { detail } : {}) }, "USER.md", sayIn("en-US"));
        const zh = writeRefusalLine({ refusal, ...(detail ? { detail } : {}) }, "USER.md", sayIn("zh-CN"));
        expect(en).toMatch(/^USER\.md/);
        expect(en).not.toMatch(/tell the person|Sections \(chars\)/);
        expect(englishWords(zh)).toEqual([]);
      }
    }
    for (const problem of PROBLEMS) {
      expect(badSectionNameLine(problem, sayIn("en-US"))).toMatch(/^That section name won't work: .+\. Nothing was changed\.$/);
      expect(englishWords(badSectionNameLine(problem, sayIn("zh-CN")))).toEqual([]);
      expect(badSectionNameLine(problem, sayIn("en-US"), " ## Likes ")).toMatch(/^“## Likes” cannot be a section name: .+\. Nothing was changed\.$/);
    }
  });
});

describe("a section name a person types", () => {
  it("is trimmed, and refused when empty, over 80 characters, more than one line, or holding a #", () => {
    expect(checkSectionName("  Likes ")).toEqual({ ok: true, value: "Likes" });
    expect(checkSectionName(" ")).toEqual({ ok: false, error: "empty" });
    expect(checkSectionName("x".repeat(81))).toEqual({ ok: false, error: "too-long" });
    expect(checkSectionName("a\u2028b")).toEqual({ ok: false, error: "not-one-line" });
    expect(checkSectionName("## Likes")).toEqual({ ok: false, error: "has-hash" });
  });

  it("is checked in linear time on a megabyte of the worst input", () => {
    const started = performance.now();
    for (const raw of [" ".repeat(1 << 20), `${" ".repeat(1 << 20)}x${" ".repeat(1 << 20)}`, "\n".repeat(1 << 20)]) checkSectionName(raw);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
