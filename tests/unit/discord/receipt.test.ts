import { describe, expect, it } from "vitest";
import { receiptMessage } from "../../../src/discord/views/receipt.js";
import { countChars } from "../../../src/lib/text.js";
import { sayIn } from "../../../src/lib/locale.js";
import type { JournalEntry } from "../../../src/memory/journal.js";

const change = (i: number): JournalEntry => ({
  id: `e${i}`,
  at: "2026-12-04T10:00:00Z",
  by: { kind: "model", session: "s", title: "t" },
  op: "add",
  changes: [{ file: "USER.md", section: `Section ${i}`, position: 0, before: null, after: `## Section ${i}\n- ${"long words ".repeat(30)}\n` }],
});
const suggestion = (i: number) => ({
  suggestion: { id: `s${i}`, createdAt: "2026-12-04T10:00:00Z", userId: "7", sessionId: "s", section: "Events", content: `- event ${i} ${"x".repeat(250)}` },
  state: "waiting" as const,
});

describe("the receipt of a conversation", () => {
  it("keeps the suggestions for the server's notes in the message however many changes come before them", () => {
    const message = receiptMessage(
      "7",
      Array.from({ length: 25 }, (_, i) => change(i)),
      sayIn("en-US"),
      undefined,
      [suggestion(1), suggestion(2)],
    );
    const content = String(message.content);
    expect(countChars(content)).toBeLessThanOrEqual(2000);
    expect(content).toContain("What I suggested for this server's notes");
    expect(content).toContain("waiting: SERVER.md › Events: + “- event 1");
    // The changes are cut where they meet them, and say so.
    expect(content).toMatch(/…\n-# 💡/);
    expect(message.components).toHaveLength(5);
  });

  it("is only the suggestions when the model changed nothing of the person's memory", () => {
    const content = String(receiptMessage("7", [], sayIn("zh-CN"), undefined, [suggestion(1)]).content);
    expect(content.startsWith("-# 💡 这次对话中我为本服务器笔记提出的建议")).toBe(true);
    expect(content).not.toContain("💾");
  });
});
