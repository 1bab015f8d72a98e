import { describe, expect, it } from "vitest";
import { checkContent, stripControlCharacters } from "../../../src/memory/safety.js";

/**
 * The edges of checkContent's rules (safety.ts), guarded so that moving one fails a test
 * (npm run test:mutation, docs/design.md §7): what it lets through at the ends of each range,
 * and the tag characters it lets through only as a subdivision flag.
 */

const tags = (code: string) => [...code].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("") + "\u{E007F}";

describe("checkContent: the tag characters of a flag", () => {
  it("lets the tags of a subdivision flag through after the black flag only", () => {
    expect(checkContent(`🏴${tags("gbeng")}`, "tool").ok).toBe(true);
    expect(checkContent(`a${tags("gbeng")}`, "tool")).toMatchObject({ ok: false, character: "U+E0067 TAG CHARACTER" });
    expect(checkContent(`🏳${tags("gbeng")}`, "tool").ok).toBe(false);
  });
});

describe("checkContent: characters outside the Basic Multilingual Plane", () => {
  it.each([
    ["U+10000, the first (high surrogate D800, low DC00)", "\u{10000}"],
    ["U+103FF (low surrogate DFFF)", "\u{103FF}"],
    ["U+10FC00 (high surrogate DBFF)", "\u{10FC00}"],
  ])("lets %s through as the character it is", (_name, text) => {
    expect(checkContent(`a${text}b`, "tool").ok).toBe(true);
  });

  it("refuses a surrogate that is not half of a pair, high or low, wherever it stands", () => {
    for (const text of ["\uD800", "a\uD800b", "\uDBFFx", "\uDC00", "a\uDFFF", "\uD800\uD800", "\uDC00\uD800"]) {
      expect(checkContent(text, "person").ok, JSON.stringify(text)).toBe(false);
    }
  });
});

describe("checkContent: emoji joiners and selectors", () => {
  it("lets a zero-width joiner through after an emoji with the lightest or darkest skin tone", () => {
    expect(checkContent("👩🏻\u200D💻", "tool").ok).toBe(true);
    expect(checkContent("👩🏿\u200D💻", "tool").ok).toBe(true);
  });

  it("lets VS16 through after an emoji whose low surrogate is at either end of the range", () => {
    // U+1F400 is D83D DC00; U+1F3FF is D83C DFFF.
    expect(checkContent("🐀\uFE0F", "tool").ok).toBe(true);
    expect(checkContent("\u{1F3FF}\uFE0F", "tool").ok).toBe(true);
  });

  it("refuses a joiner or a selector after a letter", () => {
    expect(checkContent("a\u200D💻", "tool").ok).toBe(false);
    expect(checkContent("a\uFE0F", "tool").ok).toBe(false);
  });
});

describe("the character before a joiner or a selector", () => {
  // checkContent stops at a lone surrogate; stripping goes on past it, and reads what stands before
  // each later character: the emoji itself, never the surrogate left next to it.
  it("is the emoji before it, though a lone high surrogate stands before that", () => {
    expect(stripControlCharacters("\uD800❤\uFE0F")).toBe("❤\uFE0F");
    expect(stripControlCharacters("\uD800👩\u200D💻")).toBe("👩\u200D💻");
  });

  it("is a lone low surrogate when one stands there, not the emoji before it", () => {
    expect(stripControlCharacters("❤\uDC00\uFE0F")).toBe("❤");
    expect(stripControlCharacters("👩\uDC00\u200D💻")).toBe("👩💻");
  });
});
