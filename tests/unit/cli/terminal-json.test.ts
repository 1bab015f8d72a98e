import { describe, expect, it } from "vitest";
import { jsonForTerminal } from "../../../src/cli/terminal-json.js";
import { printable } from "../../../src/lib/printable.js";

describe("jsonForTerminal", () => {
  it("leaves no character raw that printable() would stand in for, and parses back to the same value", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      // Lone surrogates are not text a terminal can show; JSON.stringify escapes them itself.
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const value = { text: `a${char}b`, [`k${char}`]: [char] };
      const json = jsonForTerminal(value);
      expect(JSON.parse(json)).toEqual(value);
      if (printable(char) !== char) expect(json, `U+${code.toString(16)}`).not.toContain(char);
    }
  });

  it("keeps ordinary text, Chinese and emoji readable, and indents like JSON.stringify", () => {
    const value = { title: "茶 ☕ café", list: [1, "two"] };
    expect(jsonForTerminal(value, 2)).toBe(JSON.stringify(value, null, 2));
  });

  it("takes linear time on a megabyte of controls and bidirectional overrides", () => {
    // 1 MB of UTF-8 (two bytes and three a pair), every character one that must be escaped.
    const worst = "\u009b\u202e".repeat(210_000);
    const started = performance.now();
    const json = jsonForTerminal([worst]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(JSON.parse(json)).toEqual([worst]);
  });
});
