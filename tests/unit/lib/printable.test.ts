import { describe, expect, it } from "vitest";
import { printable } from "../../../src/lib/printable.js";

describe("printable", () => {
  it("keeps ordinary text, line feeds, tabs, Chinese and emoji as they are", () => {
    const text = "Hello\tworld\n你好，世界 👩‍👩‍👧 café";
    expect(printable(text)).toBe(text);
  });

  it("shows escape sequences, carriage returns, bells and C1 controls instead of obeying them", () => {
    expect(printable("a\u001b[2Jb")).toBe("a\u241b[2Jb");
    expect(printable("safe\rEVIL")).toBe("safe\u240dEVIL");
    expect(printable("\u0007\u0000\u007f")).toBe("\u2407\u2400\u2421");
    expect(printable("x\u009b31my")).toBe("x<U+009B>31my");
    expect(printable("\u001b]0;title\u0007")).toBe("\u241b]0;title\u2407");
  });

  it("shows bidirectional overrides, so text cannot be reordered on screen", () => {
    expect(printable("abc\u202edcba")).toBe("abc<U+202E>dcba");
    expect(printable("\u2066x\u2069")).toBe("<U+2066>x<U+2069>");
  });

  it("takes linear time on a megabyte of control characters", () => {
    const worst = "\u001b[".repeat(350_000);
    const started = performance.now();
    const out = printable(worst);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out).not.toContain("\u001b");
  });
});
