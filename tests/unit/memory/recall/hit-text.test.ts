import { describe, expect, it } from "vitest";
import { toHit } from "../../../../src/memory/recall/ranking.js";
import type { UnitRow } from "../../../../src/memory/recall/person-index.js";
import { searchResultsForModel } from "../../../../src/engine/tools/search-results.js";

const row = (name: string, text: string): UnitRow =>
  ({
    id: 1,
    path: "conversations/2026-01-01-t-aaaaaaaa.md",
    ord: 0,
    source: "conversation",
    date: "2026-01-01",
    title: "tea",
    speaker: "person",
    name,
    text,
  }) as UnitRow;

describe("a conversation hit", () => {
  it("is not blocked for a display name with a variation selector or a zero-width joiner", () => {
    const hit = toHit(row("Mei ♥\ufe0e", "I like oolong"), 1);
    expect(hit.text).toBe("Mei ♥: I like oolong");
    expect(JSON.stringify(searchResultsForModel("oolong", [hit]))).toContain("Mei ♥: I like oolong");
  });

  it("is still blocked for invisible text in the message itself", () => {
    const hit = toHit(row("Mei", "I like \u202eoolong"), 1);
    expect(JSON.stringify(searchResultsForModel("oolong", [hit]))).toContain("[blocked:");
  });
});
