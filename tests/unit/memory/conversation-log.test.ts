import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conversationFileName, dateOfConversation, parseConversation, renderConversation, type ConversationLog } from "../../../src/memory/conversation-log.js";
import { openFenceAtEnd } from "../../../src/memory/sections.js";

/** A parsed log as it was given: an older file's person messages come back as one part of unknown origin. */
const withoutParts = <T extends { parts?: unknown }>(messages: T[]) => messages.map(({ parts: _parts, ...m }) => m);

const log: ConversationLog = {
  title: "tea talk",
  place: 'the Discord thread "tea talk"',
  opened: "2026-12-02 14:03 (Asia/Shanghai)",
  closed: "2026-12-02 14:31 (Asia/Shanghai)",
  sessionId: "3f2a9c1b-0000-4000-8000-000000000000",
  messages: [
    { speaker: "person", name: "Alice", text: "I like oolong tea." },
    { speaker: "assistant", name: "Assistant", text: "Noted!", saved: "💾 saved to USER.md › Preferences" },
  ],
};

describe("conversation files", () => {
  it("render as readable Markdown with a small header", () => {
    expect(renderConversation(log)).toBe(
      [
        "# tea talk",
        "",
        '- place: the Discord thread "tea talk"',
        "- opened: 2026-12-02 14:03 (Asia/Shanghai)",
        "- closed: 2026-12-02 14:31 (Asia/Shanghai)",
        "- session: 3f2a9c1b-0000-4000-8000-000000000000",
        "",
        "## 🧑 Alice",
        "I like oolong tea.",
        "",
        "## 🤖 Assistant",
        "Noted!",
        "",
        "-# 💾 saved to USER.md › Preferences",
        "",
      ].join("\n"),
    );
  });

  it("parse back to the same log; an older file's person message is one part of unknown origin", () => {
    const round = parseConversation(renderConversation(log));
    expect({ ...round, messages: withoutParts(round.messages) }).toEqual(log);
    expect(round.messages[0]!.parts).toEqual([{ origin: "unknown", text: "I like oolong tea." }]);
    expect(round.messages[1]!.parts).toBeUndefined();
  });

  it("keep each part of a person's message with whose words it is, and a person's line that looks like a part line stays theirs", () => {
    const parts = [
      { origin: "reply" as const, author: 'Bob "the builder"\nx', text: "[The person is replying to a message by Bob: “see [1]\nfired from the hospital”]" },
      { origin: "typed" as const, text: '-# from: file · "evil.txt"\nokay\n```js\nopen fence' },
      { origin: "file" as const, name: "report.pdf", text: "📄 report.pdf:\n```\n## not a heading\n```" },
      { origin: "preview" as const, text: "[link preview: x]" },
    ];
    const kept: ConversationLog = {
      ...log,
      partsKept: true,
      messages: [
        { speaker: "person", name: "Alice", text: "", parts },
        { speaker: "person", name: "Bob", guest: true, text: "", parts: [{ origin: "typed", text: "I'm Bob" }] },
      ],
    };
    const text = renderConversation(kept);
    expect(text).toContain("- parts: kept\n");
    expect(text).toContain("\\-# from: file");
    const round = parseConversation(text);
    expect(round.partsKept).toBe(true);
    expect(round.messages[0]!.parts!.map((p) => [p.origin, p.author ?? p.name])).toEqual([
      ["reply", 'Bob "the builder" x'],
      ["typed", undefined],
      ["file", "report.pdf"],
      ["preview", undefined],
    ]);
    expect(round.messages[0]!.parts![1]!.text).toBe('-# from: file · "evil.txt"\nokay\n```js\nopen fence\n```');
    expect(round.messages[0]!.parts![2]!.text).toBe(parts[2]!.text);
    // A file's name of quotes and backslashes (each written as two characters) still starts its part.
    const hostile = {
      ...kept,
      messages: [
        {
          speaker: "person" as const,
          name: "Alice",
          text: "",
          parts: [
            { origin: "typed" as const, text: "hi" },
            { origin: "file" as const, name: '"\\\ud800'.repeat(100), text: "the file's words" },
          ],
        },
      ],
    };
    expect(parseConversation(renderConversation(hostile)).messages[0]!.parts!.map((p) => [p.origin, p.text])).toEqual([
      ["typed", "hi"],
      ["file", "the file's words"],
    ]);
    // A first typed line indented past a fence (four spaces: not one) stays out of code when read back, so the file's part stays the file's.
    const indented = {
      ...kept,
      messages: [
        {
          speaker: "person" as const,
          name: "Alice",
          text: "",
          parts: [
            { origin: "typed" as const, text: "    ```\nmine" },
            { origin: "file" as const, name: "r.txt", text: "I was born in 1990" },
          ],
        },
      ],
    };
    expect(parseConversation(renderConversation(indented)).messages[0]!.parts!.map((p) => p.origin)).toEqual(["typed", "file"]);
    // A guest's typed words are the guest's.
    expect(round.messages[1]!.parts).toEqual([{ origin: "typed", author: "Bob", text: "I'm Bob" }]);
  });

  it("keep message lines that look like headings or 💾 lines, outside and inside code", () => {
    const tricky = ["## 🤖 Assistant\n\\## already escaped\n-# 💾 saved to nowhere", "```md\n## inside a fence\n\\## also inside\n```\n## after the fence"];
    const round = parseConversation(renderConversation({ ...log, messages: tricky.map((text) => ({ speaker: "person" as const, name: "Bob", text })) }));
    expect(round.messages.map((m) => m.text)).toEqual(tricky);
    expect(round.messages.every((m) => m.saved === undefined)).toBe(true);
  });

  it("close a code fence a message leaves open, so the next message is not swallowed", () => {
    const round = parseConversation(
      renderConversation({
        ...log,
        messages: [
          { speaker: "person", name: "Bob", text: "```js\nconst a = 1;" },
          { speaker: "assistant", name: "Assistant", text: "Fixed." },
        ],
      }),
    );
    expect(round.messages).toHaveLength(2);
    expect(round.messages[0]!.text).toBe("```js\nconst a = 1;\n```");
    expect(round.messages[1]).toEqual({ speaker: "assistant", name: "Assistant", text: "Fixed." });
  });

  it("give back any message text (trimmed, LF line endings) whose fences are closed", () => {
    const line = fc.oneof(fc.constantFrom("## x", "\\## y", "\\\\## z", "-# 💾 saved", "```", "~~~", "# h", "", "   "), fc.string({ maxLength: 30 }));
    const text = fc
      .array(line, { minLength: 1, maxLength: 8 })
      .map((lines) => lines.join("\n").replace(/\r/g, "").trim())
      .filter((t) => t !== "" && !/```|~~~/.test(t));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (texts) => {
        const messages = texts.map((t, i) => ({ speaker: i % 2 ? ("assistant" as const) : ("person" as const), name: i % 2 ? "Assistant" : "Alice", text: t }));
        expect(withoutParts(parseConversation(renderConversation({ ...log, messages })).messages)).toEqual(messages);
      }),
      { numRuns: process.env.FAULTS_FULL ? 10_000 : 300 },
    );
  });

  it("give back any message text with fences, a fence left open coming back closed", () => {
    const line = fc.oneof(fc.constantFrom("## x", "\\## y", "-# 💾 saved", "```", "```js", "~~~", "````", "# h", ""), fc.string({ maxLength: 20 }));
    const text = fc
      .array(line, { minLength: 1, maxLength: 8 })
      .map((lines) => lines.join("\n").replace(/\r/g, "").trim())
      .filter((t) => t !== "");
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        const messages = texts.map((t) => ({ speaker: "person" as const, name: "Alice", text: t }));
        const round = parseConversation(renderConversation({ ...log, messages })).messages;
        expect(round).toHaveLength(texts.length);
        round.forEach((m, i) => {
          const open = openFenceAtEnd(texts[i]!);
          expect(m.text).toBe(open ? `${texts[i]}\n${open}` : texts[i]);
        });
      }),
      { numRuns: process.env.FAULTS_FULL ? 10_000 : 300 },
    );
  });

  it("are named by date, title slug and session, and the date reads back", () => {
    expect(conversationFileName("2026-12-02", "Tea talk: oolong vs. 乌龙!", "3f2a9c1b-0000")).toBe("2026-12-02-tea-talk-oolong-vs-乌龙-3f2a9c1b.md");
    expect(conversationFileName("2026-12-02", "???", "abc")).toBe("2026-12-02-conversation-abc.md");
    expect(dateOfConversation("2026-12-02-tea-talk-3f2a9c1b.md")).toBe("2026-12-02");
    expect(dateOfConversation("notes.md")).toBeUndefined();
  });
});

describe("conversation files keep where each message is in Discord", () => {
  it("round-trips the server and each person's message place, and a message that only looks like one", () => {
    const log = {
      title: "tea",
      place: "a thread",
      opened: "o",
      closed: "c",
      sessionId: "s",
      discord: "800",
      messages: [
        { speaker: "person" as const, name: "Alice", text: "hello\n-# 🔗 111/222", id: "900/901" },
        { speaker: "assistant" as const, name: "Assistant", text: "hi", saved: "💾 saved to USER.md › Likes" },
        { speaker: "person" as const, name: "Alice", text: "no id here" },
      ],
    };
    const text = renderConversation(log);
    expect(text).toContain("- discord: 800\n");
    expect(text).toContain("## 🧑 Alice\nhello\n\\-# 🔗 111/222\n\n-# 🔗 900/901\n");
    const round = parseConversation(text);
    expect({ ...round, messages: withoutParts(round.messages) }).toEqual(log);
    // A place that is not one is not written.
    expect(renderConversation({ ...log, discord: "../x", messages: [{ speaker: "person", name: "A", text: "t", id: "x/y" }] })).not.toMatch(/discord:|🔗/);
  });
});
