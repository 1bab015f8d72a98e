import { describe, expect, it } from "vitest";
import { entryHeading } from "../../../src/engine/daily-entry.js";
import { describeChange, describeEntry } from "../../../src/present/history-lines.js";
import { english } from "../../../src/lib/locale.js";
import type { JournalEntry } from "../../../src/memory/journal.js";
import type { Message } from "discord.js";
import { readIncoming } from "../../../src/discord/incoming.js";
import { splitForDiscord } from "../../../src/discord/split-message.js";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";

const entry = (before: string, after: string): JournalEntry => ({
  id: "e1",
  at: "2026-12-02T14:03:00.000Z",
  by: { kind: "person" },
  op: "import",
  changes: [{ file: "USER.md", section: "Notes", position: 0, before, after }],
});

/** Fills `size` characters by repeating `unit`, then ends with `tail`. */

describe("patterns on a person's or the model's text run in linear time (1 MB of the worst input)", () => {
  it("history lines: a long run of blanks that does not end a line (a 150 KB import froze /memory history)", () => {
    const worst = (size: number) => `## Notes\na${repeatTo(" \t", size)}b\n`;
    expectLinear(worst, (text) => describeEntry(entry(text, `${text}- more\n`), english));
  });

  it("history lines: many short lines, blank-ended or all different, and a bullet marker after a long indent", () => {
    expectLinear(
      (size) => repeatTo("   x\n", size),
      (text) => describeEntry(entry(text, `${text}y\n`), english),
    );
    const distinct = (size: number) =>
      Array.from({ length: Math.ceil(size / 8) }, (_, i) => `l${i}`)
        .join("\n")
        .slice(0, size);
    expectLinear(distinct, (text) => describeEntry(entry(text, `z\n${text}`), english));
    expectLinear(
      (size) => repeatTo(" ", size, "x"),
      (text) => describeChange({ file: "USER.md", section: "A", position: 0, before: null, after: text }, english),
    );
  });

  it("still reads a change that only gained blank lines as the neighbour's, not as this section's", () => {
    const line = describeEntry(
      {
        ...entry("## A\none  \n", "## A\none\n\n"),
        changes: [
          { file: "USER.md", section: "A", position: 0, before: "## A\none  \n", after: "## A\none\n\n" },
          { file: "USER.md", section: "B", position: 1, before: null, after: "## B\ntwo\n" },
        ],
      },
      english,
    );
    expect(line).toBe("USER.md › B: + “two”");
  });

  it("daily entry headings from a thread title of heading marks, line breaks and blanks", () => {
    expectLinear(
      (size) => repeatTo("#\r\n \t", size),
      (title) => entryHeading("14:03", title, "public"),
    );
    expectLinear(
      (size) => repeatTo("🌐 #", size),
      (title) => entryHeading("14:03", title, "direct"),
    );
    expect(entryHeading("14:03", "## tea\r\n\r\n  talk ", "direct")).toBe("14:03 · tea talk");
    // Only a public place's entry carries the mark; a title cannot put it there.
    expect(entryHeading("14:03", "tea talk", "public")).toBe("14:03 · tea talk 🌐");
    expect(entryHeading("14:03", "secrets 🌐", "private")).toBe("14:03 · secrets");
  });

  it("splitting an answer whose lines look like fences followed by long blanks", () => {
    expectLinear(
      (size) => `\`\`\`${repeatTo(" \t", size)}x\n`,
      (text) => splitForDiscord(text),
    );
    expectLinear(
      (size) => `${repeatTo("`", size)} x\n`,
      (text) => splitForDiscord(text),
    );
    expectLinear(
      (size) => repeatTo("```\n   ~~~~ \t\r\n", size),
      (text) => splitForDiscord(text),
    );
  });

  it("reading a message of link-like text (is it only links?)", async () => {
    // Just what readIncoming reads of a message with no reply, stickers, embeds or files.
    const message = { reference: null, stickers: new Map(), embeds: [], attachments: new Map() } as unknown as Message;
    const limits = { vision: false, imageBytes: 1, imagesPerMessage: 1, fileBytes: 1, messageBytes: 1 };
    for (const size of [32 << 10, 1 << 20]) {
      for (const words of [repeatTo("http://", size), repeatTo("https:/", size), `https://${repeatTo("a", size)} x`]) {
        const started = performance.now();
        await readIncoming(message, words, limits, english);
        expect(performance.now() - started).toBeLessThan(5000);
      }
    }
  });
});
