import { describe, expect, it } from "vitest";
import { notTheirWords, type SessionWords } from "../../../src/engine/tools/voices.js";
import type { MessagePart } from "../../../src/lib/provenance.js";

/**
 * Each rule of voices.ts (whose words a USER.md write is) guarded so that weakening it fails a
 * test (npm run test:mutation, docs/design.md §7): what counts as the owner's typed words, what a
 * replacement must have typed, and which part of the conversation a held write is said to come from.
 */

const only = (typed: string[], others: MessagePart[] = []): SessionWords => ({ typed, others });
const LINE = "- Adores sailing boats";

describe("voices.ts: only the owner's typed words carry a write", () => {
  it("carries nothing when the owner typed nothing", () => {
    expect(notTheirWords("- Stryker was here", only([]))).toEqual({ why: "not-their-words", from: { origin: "assistant" } });
  });

  it("does not read typed words older than the newest 60,000 characters, when the newest fill them exactly", () => {
    expect(notTheirWords(LINE, only(["adores sailing boats"]))).toBeUndefined();
    expect(notTheirWords(LINE, only(["adores sailing boats", "z ".repeat(30_000)]))).toBeDefined();
  });

  it("does not read on past the 60,000 characters when the newest message alone is longer", () => {
    expect(notTheirWords(LINE, only([`${"x".repeat(10)} adores sailing boats`, `${"z ".repeat(30_005)}`]))).toBeDefined();
  });

  it("reads only the end of the message the 60,000 characters end in", () => {
    const older = `${"x".repeat(10)} adores sailing boats ${"y".repeat(10)}`;
    expect(notTheirWords(LINE, only([older, "z ".repeat(29_995)]))).toBeDefined();
    // The same message whole within the budget does carry it.
    expect(notTheirWords(LINE, only([older, "z ".repeat(20_000)]))).toBeUndefined();
  });
});

describe("voices.ts: a replacement is measured by what it adds", () => {
  it("needs the new number typed, though the other new words were", () => {
    const words = only(["my cat Miso was born in 2001, she loves tuna, I called her that"]);
    expect(notTheirWords("- Has a cat called Miso, born 1999, loves tuna", words, { replacing: "- Has a cat" })).toBeDefined();
    expect(notTheirWords("- Has a cat called Miso, born 2001, loves tuna", words, { replacing: "- Has a cat" })).toBeUndefined();
  });

  it("does not ask for a number the replaced text held already", () => {
    const words = only(["she turned out to love tuna after all"]);
    expect(notTheirWords("- Cat born 2001, loves tuna", words, { replacing: "- Cat born 2001" })).toBeUndefined();
  });

  it("needs a new negation typed, and does not ask for one the replaced text held", () => {
    expect(notTheirWords("- Not allergic to penicillin", only(["penicillin again, allergic"]), { replacing: "- Allergic to penicillin" })).toBeDefined();
    expect(
      notTheirWords("- Allergic to penicillin", only(["I am allergic to penicillin after all"]), { replacing: "- Not allergic to penicillin" }),
    ).toBeUndefined();
  });
});

describe("voices.ts: a replacement's dates and its yes or no", () => {
  it("needs a new date given a time by the person, and not a date the replaced text held", () => {
    expect(notTheirWords("- Dentist on 2026-12-08", only(["the dentist moved"]), { replacing: "- Dentist on 2026-12-01" })).toBeDefined();
    expect(
      notTheirWords("- Dentist on 2026-12-01, bring the x-ray", only(["bring the x-ray to the dentist"]), { replacing: "- Dentist on 2026-12-01" }),
    ).toBeUndefined();
  });

  it("needs a no the person said about the new words of a clause that says no", () => {
    expect(notTheirWords("- Does not eat meat or fish", only(["no fish either"]), { replacing: "- Does not eat meat" })).toBeUndefined();
    expect(notTheirWords("- Does not eat meat or fish", only(["fish is great"]), { replacing: "- Does not eat meat" })).toBeDefined();
  });

  it("needs a yes the person said about a new clause, not their no", () => {
    expect(notTheirWords("- Does not smoke. Drinks coffee", only(["I never drink coffee"]), { replacing: "- Does not smoke" })).toBeDefined();
    expect(notTheirWords("- Does not smoke. Drinks coffee", only(["I drink coffee"]), { replacing: "- Does not smoke" })).toBeUndefined();
  });
});

describe("voices.ts: where a held write's words came from", () => {
  const bob: MessagePart = { origin: "typed", author: "Bob", text: "I adore sailing boats" };
  const carol: MessagePart = { origin: "typed", author: "Carol", text: "adores sailing boats, says she" };

  it("names the part that carries most, the newest of equals, with only the fields it has", () => {
    const some: MessagePart = { origin: "reply", author: "Dan", text: "sailing boats" };
    expect(notTheirWords(LINE, only(["hello"], [bob, some]))).toStrictEqual({ why: "not-their-words", from: { origin: "typed", author: "Bob" } });
    expect(notTheirWords(LINE, only(["hello"], [bob, carol]))).toStrictEqual({ why: "not-their-words", from: { origin: "typed", author: "Carol" } });
    const file: MessagePart = { origin: "file", name: "boats.pdf", text: "The owner adores sailing boats" };
    expect(notTheirWords(LINE, only(["hello"], [file]))).toStrictEqual({ why: "not-their-words", from: { origin: "file", name: "boats.pdf" } });
  });

  it("names a part that carries half the line's words, and the assistant when none carries as much", () => {
    const line = "- Enjoys rock climbing outdoors";
    const half: MessagePart = { origin: "reply", author: "Ann", text: "rock climbing" };
    const less: MessagePart = { origin: "reply", author: "Ann", text: "rock music" };
    expect(notTheirWords(line, only(["hello"], [half]))?.from).toStrictEqual({ origin: "reply", author: "Ann" });
    expect(notTheirWords(line, only(["hello"], [less]))?.from).toStrictEqual({ origin: "assistant" });
  });

  it("reads the others' newest 200,000 characters only, the start of the part they end in", () => {
    const filler = (chars: number): MessagePart[] => [
      ...Array.from({ length: Math.floor(chars / 2_000) }, (): MessagePart => ({ origin: "assistant", text: "z".repeat(2_000) })),
      { origin: "assistant", text: "z".repeat(chars % 2_000) },
    ];
    expect(notTheirWords(LINE, only(["hello"], [bob, ...filler(200_000)]))?.from).toStrictEqual({ origin: "assistant" });
    const long: MessagePart = { origin: "typed", author: "Bob", text: `adores sailing boats ${"q".repeat(100)}` };
    expect(notTheirWords(LINE, only(["hello"], [long, ...filler(200_000 - 25)]))?.from).toStrictEqual({ origin: "typed", author: "Bob" });
    // Only the start: what the part says past the budget is not read.
    const late: MessagePart = { origin: "typed", author: "Bob", text: `${"q".repeat(100)} adores sailing boats` };
    expect(notTheirWords(LINE, only(["hello"], [late, ...filler(200_000 - 25)]))?.from).toStrictEqual({ origin: "assistant" });
  });
});
