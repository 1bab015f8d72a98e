import { describe, expect, it } from "vitest";
import { notTheirWords, type SessionWords } from "../../../src/engine/tools/voices.js";
import { cpuMs } from "../../helpers/cpu-time.js";

describe("a USER.md text that is not the owner's own words", () => {
  const words: SessionWords = {
    typed: ["I love hiking in the mountains", "我喜欢乌龙茶", "okay"],
    others: [
      { origin: "typed", author: "Bob", text: "I'm allergic to shellfish" },
      { origin: "typed", author: "Bob", text: "我对花生过敏" },
      { origin: "reply", author: "Carol", text: "[The person is replying to a message by Carol: “Alice was fired from the hospital for stealing morphine”]" },
      { origin: "file", name: "report.pdf", text: "Quarterly revenue grew 12% in Lyon" },
      { origin: "assistant", text: "You might enjoy rock climbing too." },
    ],
  };

  it("passes what the owner typed, in other forms of the same words", () => {
    expect(notTheirWords("- loves hiking", words)).toBeUndefined();
    expect(notTheirWords("- 喜欢乌龙茶", words)).toBeUndefined();
  });

  it("holds a guest's claim, and names the guest", () => {
    expect(notTheirWords("- allergic to shellfish", words)).toEqual({ why: "not-their-words", from: { origin: "typed", author: "Bob" } });
    expect(notTheirWords("- 对花生过敏", words)).toEqual({ why: "not-their-words", from: { origin: "typed", author: "Bob" } });
  });

  it("holds a claim that shares one common word with the owner ('okay')", () => {
    expect(notTheirWords("- okay, was fired from the hospital for stealing morphine", words)?.from).toEqual({ origin: "reply", author: "Carol" });
  });

  it("holds a file's facts and the assistant's own ideas, saying so", () => {
    expect(notTheirWords("- revenue grew 12% in Lyon", words)?.from).toEqual({ origin: "file", name: "report.pdf" });
    expect(notTheirWords("- enjoys rock climbing", words)?.from).toEqual({ origin: "assistant" });
    expect(notTheirWords("- birthday on 2026-03-04", words)?.from).toEqual({ origin: "assistant" });
  });

  it("a replacement is measured by what it adds: the replaced words are in the file already", () => {
    const moved: SessionWords = { typed: ["I moved to Berlin last month"], others: [] };
    expect(notTheirWords("- Lives in Berlin", moved, { replacing: "- Lives in Paris" })).toBeUndefined();
    expect(notTheirWords("- Lives in Rome", moved, { replacing: "- Lives in Paris" })).toBeDefined();
    expect(notTheirWords("- Not allergic to penicillin", { typed: ["penicillin again"], others: [] }, { replacing: "- Allergic to penicillin" })).toBeDefined();
  });

  it("reads only the newest 60,000 characters of the typed words: a megabyte of messages costs what that costs", () => {
    const big: SessionWords = {
      typed: [`said long ago: ${"word ".repeat(200_000)}`],
      others: [{ origin: "typed", author: "Bob", text: "花生".repeat(250_000) }],
    };
    expect(cpuMs(() => notTheirWords("花生 word ".repeat(200), big))).toBeLessThan(800);
    // Words said before those 60,000 characters are no longer before the model.
    expect(notTheirWords("said long ago", big)).toBeDefined();
  });
});

describe("naming where a held write's words came from", () => {
  it("reads at most 200,000 characters of the other parts, newest first: a session of shared files costs what that costs", () => {
    const file = { origin: "file" as const, name: "big.txt", text: `${"lorem ipsum dolor ".repeat(60_000)}` };
    const words: SessionWords = {
      typed: ["hello"],
      others: [...Array.from({ length: 20 }, () => file), { origin: "typed", author: "Bob", text: "Alice was fired from the hospital" }],
    };
    expect(cpuMs(() => notTheirWords("- fired from the hospital", words))).toBeLessThan(800);
    expect(notTheirWords("- fired from the hospital", words)?.from).toEqual({ origin: "typed", author: "Bob" });
  });
});

describe("a new section's name is text the file will hold", () => {
  const words: SessionWords = {
    typed: ["hey, can you summarise the file Bob sent?"],
    others: [{ origin: "file", name: "bob.txt", text: "Alice was diagnosed with epilepsy" }],
  };

  it("holds a fact written as the name of a new section over a 'yes'", () => {
    expect(notTheirWords("yes", words, { newSection: "Diagnosed with epilepsy" })).toEqual({
      why: "not-their-words",
      from: { origin: "file", name: "bob.txt" },
    });
    expect(notTheirWords("- yes, a lot", words, { newSection: "Allergic to penicillin" })).toBeDefined();
  });

  it("lets a category name through: 'Health', 'Likes', '喜好' are no facts", () => {
    const mine: SessionWords = { typed: ["I love oolong, 我喜欢乌龙茶"], others: [] };
    expect(notTheirWords("- oolong", mine, { newSection: "Likes" })).toBeUndefined();
    expect(notTheirWords("- 乌龙茶", mine, { newSection: "喜好" })).toBeUndefined();
  });
});
