import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonInSlices } from "../../../src/lib/json-in-slices.js";
import { startLoopProbe } from "../../helpers/loop-probe.js";

describe("parseJsonInSlices", () => {
  it("reads any JSON text exactly as JSON.parse does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.json({ depthSize: "medium" }), fc.constantFrom("", " ", "\n\t\r "), async (text, space) => {
        expect(await parseJsonInSlices(`${space}${text}${space}`)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a __proto__ key as data, as JSON.parse does", async () => {
    const parsed = await parseJsonInSlices('{"__proto__": {"polluted": true}, "a": [1, -2.5e3, true, null, "\\u00e9\\ud83d\\ude00"]}');
    expect(parsed).toEqual({ ok: true, value: JSON.parse('{"__proto__": {"polluted": true}, "a": [1, -2.5e3, true, null, "\\u00e9\\ud83d\\ude00"]}') });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("refuses what JSON.parse refuses, and says at which line and column", async () => {
    const cases: [string, number, number][] = [
      ["{not json", 1, 2],
      ['{\n  "a": 1,\n  "b": }', 3, 8],
      ['{"a": "line\nbreak"}', 1, 12],
      ['{"a": "\\x"}', 1, 8],
      ["[1, 2,]", 1, 7],
      ["[01]", 1, 3],
      ['{"a": 1} x', 1, 10],
      ["", 1, 1],
      ['{"a": "never closed', 1, 20],
      ["\u00ff{", 1, 1],
      ["[1.]", 1, 3],
      ["tru", 1, 1],
    ];
    for (const [text, line, column] of cases) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(await parseJsonInSlices(text), JSON.stringify(text)).toEqual({ ok: false, error: { kind: "syntax", line, column } });
    }
  });

  it("refuses nesting deeper than it allows instead of overflowing the stack", async () => {
    expect(await parseJsonInSlices(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, { maxDepth: 64 })).toEqual({
      ok: false,
      error: { kind: "too-deep", line: 1, column: 65 },
    });
  });

  it("refuses more values than it allows, early", async () => {
    expect(await parseJsonInSlices(`[${"1,".repeat(4_999_999)}1]`, { maxValues: 1000 })).toEqual({
      ok: false,
      error: { kind: "too-many-values", line: 1, column: 2000 },
    });
    expect(await parseJsonInSlices('{"a": ["x", {"b": 1}]}', { maxValues: 5 })).toMatchObject({ ok: true });
    expect(await parseJsonInSlices('{"a": ["x", {"b": 1}]}', { maxValues: 4 })).toMatchObject({ ok: false, error: { kind: "too-many-values" } });
  });

  it("leaves the event loop to others while it reads 12 MB of the slowest JSON (escapes, many small strings, long strings)", async () => {
    const texts = [
      JSON.stringify({ files: { a: '\u0001\n"\\'.repeat(1_000_000) } }),
      JSON.stringify({ files: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`conversations/2026-01-01-x${i}.md`, "\u0001\n".repeat(300)])) }),
      JSON.stringify({ files: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, "中文 words and emoji 😀\n".repeat(40_000)])) }),
      `[${"1,".repeat(99_998)}1]`,
    ];
    for (const text of texts) {
      const probe = startLoopProbe();
      const parsed = await parseJsonInSlices(text, { maxValues: 100_000 });
      const { worstCpuMs, worstWallMs } = probe.stop();
      expect(parsed).toEqual({ ok: true, value: JSON.parse(text) });
      const shown = `reading ${text.slice(0, 20)}…, a timer waited ${Math.round(worstWallMs)} ms (${Math.round(worstCpuMs)} ms of it our CPU)`;
      expect(worstCpuMs, shown).toBeLessThan(100);
      expect(worstWallMs, shown).toBeLessThan(1000);
    }
  });
});
