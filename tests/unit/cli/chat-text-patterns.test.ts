import { describe, expect, it } from "vitest";
import { AnswerOutput, terminalHints } from "../../../src/cli/chat/answer-output.js";
import { readInput } from "../../../src/cli/chat/commands.js";
import { parseChatArgs } from "../../../src/cli/chat/options.js";

/**
 * Every pattern the terminal chat runs on a person's or the model's text stays linear on 1 MB of
 * its worst input: a quadratic pattern takes minutes here, so the bounds leave room for a busy machine.
 */

const MB = 1_000_000;

function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

describe("terminal chat text handling on hostile input", () => {
  it("reads a 1 MB line that almost looks like a command in linear time", () => {
    const inputs = [`/a${"b".repeat(MB)}!`, `/${"a-".repeat(MB / 2)}`, `/help${" ".repeat(MB)}x`, `//${"/".repeat(MB)}`, `/memory view${" x".repeat(MB / 2)}`];
    for (const text of inputs) {
      let kind = "";
      expect(timed(() => void (kind = readInput(text).kind))).toBeLessThan(2000);
      expect(kind).not.toBe("");
    }
    expect(readInput(`/a${"b".repeat(MB)}!`).kind).toBe("message");
  });

  it("prints 1 MB of near-miss Discord command names, streamed in small pieces, in linear time", () => {
    const text = "/memory vie".repeat(MB / 11) + "/memory view";
    let printed = "";
    const output = new AnswerOutput((piece) => void (printed += piece));
    const ms = timed(() => {
      for (let i = 0; i < text.length; i += 7) output.push(text.slice(i, i + 7));
      output.end();
    });
    expect(ms).toBeLessThan(3000);
    expect(printed.endsWith("/memory vie/memory\n")).toBe(true);
    expect(timed(() => void terminalHints("/memory ".repeat(MB / 8)))).toBeLessThan(2000);
  });

  it("refuses a 1 MB --title or --name full of control characters in linear time", () => {
    for (const value of [`${"a".repeat(MB)}\u001b`, "\u202e".repeat(MB)]) {
      let line = "";
      expect(timed(() => void (line = JSON.stringify(parseChatArgs(["--title", value]))))).toBeLessThan(2000);
      expect(line).toContain("invalid");
    }
  });
});
