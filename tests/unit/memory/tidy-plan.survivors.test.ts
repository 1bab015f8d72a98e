import { describe, expect, it } from "vitest";
import { checkPlan, type TidyInput, type TidyOperation } from "../../../src/memory/tidy/tidy-plan.js";

/**
 * The mutation run's survivors of the tidy-up's checks (npm run test:mutation tidy, docs/design.md
 * §7) that were not equivalent: each test is named for the rule it pins. The other survivors are
 * listed as equivalent in design.md.
 */

const MEMORY = "## Follow-ups\n- Ask how the move went\n- Ask about the marathon\n";

function input(): TidyInput {
  return { texts: { user: "## Home\n- Lives in Paris\n", memory: MEMORY }, personLines: new Set(), personMessages: [] };
}

function move(section: string): TidyOperation {
  return { kind: "move", file: "memory", section, old_lines: [], new_lines: ["- a note"], reason: "r", source: "conversations/x.md", quote: "" };
}

describe("tidy-plan survivors: safe section names", () => {
  // safeName refuses only line breaks, '#', what checkContent refuses and relative times: ordinary
  // punctuation passes (also pins the `name !== ""` literal, which Stryker turns into "Stryker was here!").
  it("accepts a one-line section name with ordinary punctuation", () => {
    const names = ["Stryker was here!", "Books: to read?", 'Mei\'s "big" plans (2027)'];
    const outcome = checkPlan(input(), names.map(move));
    expect(outcome.dropped).toEqual([]);
    expect(outcome.applied.map((o) => o.section)).toEqual(names);
    for (const name of names) expect(outcome.texts.memory).toContain(`## ${name}\n- a note`);
  });
});
