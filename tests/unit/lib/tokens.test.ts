import { describe, expect, it } from "vitest";
import { estimateTokens, keepEnd, keepStart } from "../../../src/lib/tokens.js";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";

describe("the token estimate that fits requests into a model's context", () => {
  it("counts a Han, kana or other non-Latin letter as a token, an emoji as two, punctuation as half, words as 3.5 characters a token and long unbroken runs as 1.5", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("I like oolong tea")).toBe(5);
    expect(estimateTokens("我喜欢乌龙茶")).toBe(6);
    expect(estimateTokens("お茶が好き")).toBe(5);
    expect(estimateTokens("Привет")).toBe(6);
    expect(estimateTokens("สวัสดี")).toBe(6);
    expect(estimateTokens("🍵🍵")).toBe(4);
    expect(estimateTokens('{"a":"b"}')).toBe(1 + 4);
    // A key or base64: after 16 characters, one token per 1.5.
    expect(estimateTokens("A".repeat(46))).toBe(Math.ceil(16 / 3.5) + 20);
    // A real tokenizer (cl100k, Llama 3) gives about 1 token per 4 English characters: the estimate is above it.
    const english = "The quick brown fox jumps over the lazy dog. ".repeat(100);
    expect(estimateTokens(english)).toBeGreaterThan(english.length / 4);
  });

  it("cuts to a number of tokens from the start or the end, never inside a surrogate pair", () => {
    const text = "abc🍵".repeat(200);
    const head = keepStart(text, 50);
    const tail = keepEnd(text, 50);
    expect(estimateTokens(head.slice(0, -1))).toBeLessThanOrEqual(50);
    expect(estimateTokens(tail.slice(1))).toBeLessThanOrEqual(50);
    expect(head.endsWith("…")).toBe(true);
    expect(tail.startsWith("…")).toBe(true);
    for (const piece of [head, tail]) expect(piece).toBe(Buffer.from(piece, "utf8").toString("utf8"));
    expect(keepStart("short", 50)).toBe("short");
    expect(keepEnd("short", 50)).toBe("short");
  });

  it("runs in linear time on a megabyte", () => {
    expectLinear(
      (size) => repeatTo("茶a🍵 ", size),
      (input) => estimateTokens(input),
    );
    expectLinear(
      (size) => repeatTo("茶a🍵 ", size),
      (input) => keepEnd(input, 1_000),
    );
  });
});
