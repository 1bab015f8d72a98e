import { describe, expect, it } from "vitest";
import { checkPlan } from "../../../src/memory/tidy/tidy-plan.js";

const op = (fields: object) => ({ kind: "move", file: "user", section: "", old_lines: [], new_lines: [], reason: "", source: "", quote: "", ...fields });

describe("the tidy-up reads a new USER.md section's name as text the file will hold", () => {
  const input = {
    texts: { user: "", memory: "" },
    personLines: new Set<string>(),
    personMessages: ["I went for a run this morning", "I climb at the Boulderhaus gym every week"],
  };

  it("holds a fact written as the name of a new section over an ordinary quoted line", () => {
    const outcome = checkPlan(input, [op({ section: "Has epilepsy", new_lines: ["- went for a run this morning"], quote: "I went for a run this morning" })]);
    expect(outcome.applied).toEqual([]);
    expect(outcome.held.map((h) => h.held.why)).toEqual(["not-their-words"]);
    expect(outcome.texts.user).toBe("");
  });

  it("lets a category name through", () => {
    const outcome = checkPlan(input, [
      op({ section: "Exercise", new_lines: ["- climbs at the Boulderhaus gym"], quote: "I climb at the Boulderhaus gym every week" }),
    ]);
    expect(outcome.applied.map((o) => o.section)).toEqual(["Exercise"]);
  });
});
