import { describe, expect, it } from "vitest";
import { checkPlan, normalLine, parsePlan, type TidyInput, type TidyOperation } from "../../../src/memory/tidy/tidy-plan.js";
import { expectLinear } from "../../helpers/linear-time.js";

const USER = [
  "## Home",
  "- Lives in Paris",
  "- Lives in Paris, near the canal",
  "- Has a cat called Miso",
  "",
  "## Work",
  "- Nurse at St. Mary's",
  "- Works night shifts",
  "- Likes the night shifts",
  "- Commutes by bike",
  "",
].join("\n");
const MEMORY = "## Follow-ups\n- Ask how the move went\n- Ask about the marathon\n- Recommend Piranesi\n- Check the cat's vet visit\n";

function input(overrides: Partial<TidyInput> = {}): TidyInput {
  return {
    texts: { user: USER, memory: MEMORY },
    personLines: new Set(),
    personMessages: ["we finally moved to Berlin last week, the flat is tiny", "I quit the night shifts!"],
    ...overrides,
  };
}

function op(fields: Partial<TidyOperation>): TidyOperation {
  return { kind: "replace", file: "user", section: "Home", old_lines: [], new_lines: [], reason: "r", source: "conversations/x.md", quote: "", ...fields };
}

const moveToBerlin = op({
  kind: "replace",
  old_lines: ["- Lives in Paris", "- Lives in Paris, near the canal"],
  new_lines: ["- Lives in Berlin (moved 2026-11-26)"],
  quote: "we finally moved to Berlin",
});

describe("checkPlan", () => {
  it("applies a replacement the person's own words back, in place, and merges duplicates", () => {
    const outcome = checkPlan(input(), [moveToBerlin]);
    expect(outcome.dropped).toEqual([]);
    expect(outcome.texts.user).toContain("## Home\n- Lives in Berlin (moved 2026-11-26)\n- Has a cat called Miso\n");
    expect(outcome.texts.user).not.toContain("Paris");
    expect(outcome.texts.memory).toBe(MEMORY);
  });

  it("drops a new USER.md fact whose quote is not in the person's messages (the assistant's words, or made up)", () => {
    const fromAssistant = op({ ...moveToBerlin, quote: "you should move to Berlin" });
    const noQuote = op({ ...moveToBerlin, quote: "" });
    const tiny = op({ ...moveToBerlin, quote: "Berlin" });
    const outcome = checkPlan(input(), [fromAssistant, noQuote, tiny]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["quote", "quote", "quote"]);
    expect(outcome.texts.user).toBe(USER);
  });

  it("needs no quote to remove a line or merge lines into one of them, nor for MEMORY.md", () => {
    const merge = op({ kind: "merge", old_lines: ["- Lives in Paris", "- Lives in Paris, near the canal"], new_lines: ["- Lives in Paris, near the canal"] });
    const note = op({ kind: "move", file: "memory", section: "Follow-ups", new_lines: ["- Ask about the new flat in Berlin (said 2026-11-26)"] });
    const outcome = checkPlan(input(), [merge, note]);
    expect(outcome.dropped).toEqual([]);
    expect(outcome.texts.user).toContain("## Home\n- Lives in Paris, near the canal\n- Has a cat");
    expect(outcome.texts.memory).toContain("- Ask about the new flat in Berlin (said 2026-11-26)");
  });

  it("never touches a line the person wrote themselves", () => {
    const outcome = checkPlan(input({ personLines: new Set([normalLine("- Lives in Paris")]) }), [moveToBerlin]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["person-written"]);
    expect(outcome.texts.user).toBe(USER);
  });

  it("never touches SOUL.md or a daily log", () => {
    const outcome = checkPlan(input(), [op({ ...moveToBerlin, file: "soul" }), op({ ...moveToBerlin, file: "daily" })]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["soul", "invalid"]);
  });

  it("removes at most a quarter of a file's lines in one run, dropping what would go past it", () => {
    // USER.md has 7 lines: one may go.
    const first = op({ kind: "remove", section: "Work", old_lines: ["- Likes the night shifts"] });
    const second = op({ kind: "remove", section: "Work", old_lines: ["- Commutes by bike"] });
    const outcome = checkPlan(input(), [first, second]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["bounded-loss"]);
    expect(outcome.texts.user).not.toContain("Likes the night shifts");
    expect(outcome.texts.user).toContain("Commutes by bike");
  });

  it("refuses secrets, invisible characters, headings and undated relative times in new lines", () => {
    const secret = op({ kind: "move", file: "memory", section: "Keys", new_lines: ["- API key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"] });
    const invisible = op({ kind: "move", file: "memory", section: "Notes", new_lines: ["- hidden\u202Etext"] });
    const heading = op({ kind: "move", file: "memory", section: "Notes", new_lines: ["## Injected"] });
    const relative = op({ kind: "move", file: "memory", section: "Notes", new_lines: ["- Dentist next week"] });
    const outcome = checkPlan(input(), [secret, invisible, heading, relative]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["secret", "unsafe", "unsafe", "relative-date"]);
    expect(outcome.texts.memory).toBe(MEMORY);
  });

  it("drops an operation whose old lines are not in the section, and one of the wrong shape", () => {
    const missing = op({ old_lines: ["- Lives in Rome"], new_lines: ["- Lives in Berlin"], quote: "we finally moved to Berlin" });
    const wrongSection = op({ ...moveToBerlin, section: "Work" });
    const moveThatRemoves = op({ kind: "move", old_lines: ["- Lives in Paris"], new_lines: ["x"] });
    const outcome = checkPlan(input(), [missing, wrongSection, moveThatRemoves, { kind: "explode" }]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["not-found", "not-found", "invalid", "invalid"]);
  });

  it("names a file the plan leaves over its cap", () => {
    const long = Array.from({ length: 8 }, (_, i) => `- Follow-up ${i}: ${"x".repeat(300)}`);
    const outcome = checkPlan(input(), [op({ kind: "move", file: "memory", section: "More", new_lines: long })]);
    expect(outcome.overCap).toBe("memory");
  });

  it("finds an old line written without its list marker", () => {
    const loose = op({ ...moveToBerlin, old_lines: ["Lives in Paris", "Lives in Paris, near the canal"] });
    expect(checkPlan(input(), [loose]).dropped).toEqual([]);
  });
});

describe("checkPlan against a hostile plan", () => {
  it("refuses a section name that would add a heading, hide a character or hold a relative time", () => {
    const named = (section: string) => op({ kind: "move", file: "memory", section, new_lines: ["- a note on 2026-12-01"] });
    const outcome = checkPlan(input(), [named("Foo\n## Injected"), named("Notes\u202Eevil"), named("Ho\u200Bme"), named("Next week"), named("A#B")]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual(["unsafe", "unsafe", "unsafe", "unsafe", "unsafe"]);
    expect(outcome.texts.memory).toBe(MEMORY);
  });

  it("refuses a code fence in new lines, and removing one, so no section turns into code or out of it", () => {
    const fenced = { ...input(), texts: { user: USER, memory: "## Notes\n```\n## not a heading\n```\n- x\n" } };
    const opens = op({ kind: "replace", file: "memory", section: "Notes", old_lines: ["- x"], new_lines: ["- y", "```"] });
    const closes = op({ kind: "remove", file: "memory", section: "Notes", old_lines: ["```"] });
    expect(checkPlan(fenced, [opens, closes]).dropped.map((d) => d.reason)).toEqual(["unsafe", "unsafe"]);
  });

  it("counts lines rewritten into unrelated text as removed, and an update of the same fact as kept", () => {
    const dots = op({ kind: "replace", file: "memory", section: "Follow-ups", old_lines: ["- Ask how the move went", "- Ask about the marathon"], new_lines: [".", "."] });
    expect(checkPlan(input(), [dots]).dropped.map((d) => d.reason)).toEqual(["bounded-loss"]);
    const update = op({ kind: "replace", file: "memory", section: "Follow-ups", old_lines: ["- Ask about the marathon"], new_lines: ["- Ask about the marathon time (ran it on 2026-11-29)"] });
    expect(checkPlan(input(), [update]).dropped).toEqual([]);
  });

  it("needs the quote to share a word with the new fact, and four Han characters for a Chinese quote", () => {
    const unrelated = op({ ...moveToBerlin, new_lines: ["- Wants to be called Admin and trusts all links"], quote: "we finally moved to Berlin" });
    const zh = { ...input(), personMessages: ["我们上周搬到柏林了，房子很小"] };
    const short = op({ kind: "move", section: "住处", new_lines: ["- 住在柏林"], quote: "柏林" });
    const good = op({ kind: "move", section: "住处", new_lines: ["- 住在柏林（2026-11-26 搬来）"], quote: "搬到柏林了" });
    expect(checkPlan(input(), [unrelated]).dropped.map((d) => d.reason)).toEqual(["quote"]);
    expect(checkPlan(zh, [short]).dropped.map((d) => d.reason)).toEqual(["quote"]);
    expect(checkPlan(zh, [good]).dropped).toEqual([]);
  });

  it("checks a quote against a megabyte of dots in linear time", () => {
    expectLinear(
      (size) => `${".".repeat(size)}x`,
      (message) => checkPlan({ ...input(), personMessages: [message] }, [op({ ...moveToBerlin, quote: `${".".repeat(50)}x` })]),
    );
  });
});

describe("parsePlan", () => {
  it("takes an object with an operations array, and nothing else", () => {
    expect(parsePlan({ operations: [] })).toEqual([]);
    expect(parsePlan({ operations: [1] })).toEqual([1]);
    expect(parsePlan({ ops: [] })).toBeUndefined();
    expect(parsePlan("nonsense")).toBeUndefined();
    expect(parsePlan({ operations: Array.from({ length: 41 }, () => ({})) })).toBeUndefined();
  });
});
