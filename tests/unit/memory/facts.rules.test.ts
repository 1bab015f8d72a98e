import { describe, expect, it } from "vitest";
import { carriedShare, carries, CARRIED_SHARE, factsOf, mergeFacts, sectionNameFacts } from "../../../src/memory/facts.js";

/**
 * Each rule of facts.ts that decides whether a source carries a line (whose words a USER.md fact
 * is, whether a tidy-up's quote holds its line, whether a rewrite kept a fact), guarded so that
 * weakening it fails a test (npm run test:mutation, docs/design.md §7).
 */

const words = (text: string) => [...factsOf(text).words].sort();
const carriesLine = (source: string, line: string) => carries(factsOf(source), factsOf(line));
/** A person's typed words over a conversation, as voices.ts reads them. */
const typed = (...texts: string[]) => mergeFacts(texts.map(factsOf));

describe("facts.ts: the share a source must carry (CARRIED_SHARE)", () => {
  it("is two thirds: 2 of 3 content words carry a line, 1 of 2 does not", () => {
    expect(CARRIED_SHARE).toBeCloseTo(2 / 3, 10);
    expect(carriedShare(factsOf("tea cats"), factsOf("tea cats dogs"))).toBeCloseTo(2 / 3, 10);
    expect(carriesLine("tea cats", "tea cats dogs")).toBe(true);
    expect(carriedShare(factsOf("tea"), factsOf("tea cats"))).toBe(0.5);
    expect(carriesLine("tea", "tea cats")).toBe(false);
    // Three of five is under two thirds.
    expect(carriesLine("tea cats dogs", "tea cats dogs lions tigers")).toBe(false);
  });

  it("counts each of the line's words once, whatever the source repeats", () => {
    expect(carriedShare(factsOf("tea tea tea tea"), factsOf("tea cats dogs"))).toBeCloseTo(1 / 3, 10);
  });

  it("gives a line with no content word a share of 1, and one with words none carried 0", () => {
    expect(carriedShare(factsOf("anything"), factsOf("okay, yes"))).toBe(1);
    expect(carriedShare(factsOf("bread"), factsOf("violin"))).toBe(0);
  });
});

describe("facts.ts: numbers", () => {
  it("carries no line with a number the source does not hold, however many words it shares", () => {
    expect(carriedShare(factsOf("born in Lyon in 1990, loves opera, hates jazz"), factsOf("born in Lyon in 1999, loves opera, hates jazz"))).toBe(0);
    expect(carriesLine("flat 12 on the canal street near the bakery", "flat 13 on the canal street near the bakery")).toBe(false);
  });

  it("reads a number without its leading zeros, so 007 is 7 and 000 is 0, and 1005 stays 1005 (not 15)", () => {
    expect([...factsOf("007 1005 000").numbers].sort()).toEqual(["0", "1005", "7"]);
    expect(carriesLine("room 1005", "room 15")).toBe(false);
    expect(carriesLine("agent 007", "agent 7")).toBe(true);
  });

  it("takes only a word of digits alone as a number: a1 and 12abc are words", () => {
    const facts = factsOf("a1 12abc 3");
    expect([...facts.numbers]).toEqual(["3"]);
    expect([...facts.words].sort()).toEqual(["12abc", "3", "a1"]);
  });

  it("does not take a written-out date as a fact, nor let it join the words around it", () => {
    expect(words("café2026-11-20été")).toEqual(["café", "été"]);
    expect(factsOf("moved 2026-11-20").numbers.size).toBe(0);
  });
});

describe("facts.ts: numbers written as words", () => {
  it.each([
    ["zero", "0"],
    ["one", "1"],
    ["two", "2"],
    ["seven", "7"],
    ["twelve", "12"],
    ["twenty", "20"],
    ["thirty", "30"],
    ["forty", "40"],
    ["fifty", "50"],
    ["sixty", "60"],
    ["seventy", "70"],
    ["eighty", "80"],
    ["ninety", "90"],
    ["hundred", "100"],
    ["thousand", "1000"],
    ["million", "1000000"],
    ["dozen", "12"],
    ["twice", "2"],
    ["once", "1"],
  ])("reads %j as the number %s", (word, digits) => {
    const facts = factsOf(`${word} cats`);
    expect([...facts.numbers]).toEqual([digits]);
    expect([...facts.words].sort()).toEqual([digits, "cat"].sort());
    expect(carriesLine(`${digits} cats`, `${word} cats`)).toBe(true);
  });

  it.each([
    ["零", "0"],
    ["一", "1"],
    ["二", "2"],
    ["五", "5"],
    ["九", "9"],
    ["十", "10"],
    ["两", "2"],
    ["百", "100"],
    ["千", "1000"],
    ["万", "10000"],
  ])("reads the Han numeral %s as the number %s", (char, digits) => {
    expect([...factsOf(`${char}只猫`).numbers]).toEqual([digits]);
    expect(carriesLine(`${digits}只猫`, `${char}只猫`)).toBe(true);
  });

  it("carries no line with another number, written either way", () => {
    expect(carriesLine("two cats", "three cats")).toBe(false);
    expect(carriesLine("两只猫", "三只猫")).toBe(false);
  });
});

describe("facts.ts: dates", () => {
  it("asks for the date of a line, and for none when the line has none", () => {
    expect(factsOf("moved to Berlin").dates.size).toBe(0);
    expect(carriedShare(factsOf("moved to Berlin on 2026-11-20"), factsOf("moved to Berlin"))).toBe(1);
    expect(carriedShare(factsOf("moved to Berlin"), factsOf("moved to Berlin on 2026-11-20"))).toBe(0);
    expect(carriedShare(factsOf("moved to Berlin last week"), factsOf("moved to Berlin on 2026-11-20"))).toBe(1);
  });

  it("merged typed words give a time when any of them says one, and only then", () => {
    expect(mergeFacts([factsOf("hello"), factsOf("see you next week")]).relative).toBe(true);
    expect(mergeFacts([factsOf("hi"), factsOf("hello")]).relative).toBe(false);
    expect(carries(mergeFacts([factsOf("hi"), factsOf("moved to Berlin")]), factsOf("Moved to Berlin on 2026-11-20"))).toBe(false);
  });
});

describe("facts.ts: a no counts where it is said", () => {
  it("lets a clause of the line that the source says nothing about count as a yes, and only a yes", () => {
    expect(carriedShare(factsOf("tea"), factsOf("tea. cats dogs"))).toBeCloseTo(1 / 3, 10);
    expect(carriedShare(factsOf("I like tea"), factsOf("tea. never smoked"))).toBe(0);
  });

  it("carries a bare no by a source that says no, and not by one that does not", () => {
    expect(carriedShare(factsOf("I do not smoke"), factsOf("No."))).toBe(1);
    expect(carriedShare(factsOf("I smoke"), factsOf("No."))).toBe(0);
  });

  it("reads no empty clause at a sentence's end", () => {
    expect(carries(factsOf("I never drink tea"), factsOf("Never drinks tea."))).toBe(true);
  });
});

describe("facts.ts: a new section's name", () => {
  it("states no fact with a category's name, in English or Chinese", () => {
    const names = [
      "About Basics Profile Preferences Family",
      "Home Hobbies Interests Travel Goals",
      "Notes Background Identity Relationships Skills",
      "Dates Birthday Values Education Finance City",
      "Country Occupation Appointments Reminders Media Shows",
      "喜好 健康 家人 爱好 生日",
    ];
    for (const name of names) expect([...sectionNameFacts(name).words], name).toEqual([]);
    expect([...sectionNameFacts("Diagnosed with epilepsy").words].sort()).toEqual(["diagnos", "epilepsi"]);
    expect(
      sectionNameFacts("Health: diagnosed with epilepsy")
        .clauses.flatMap((clause) => [...clause.words])
        .sort(),
    ).toEqual(["diagnos", "epilepsi"]);
  });
});

describe("facts.ts: negations", () => {
  it.each(["not", "no", "never", "nor", "none", "nothing", "nobody", "neither", "cannot", "without"])("counts %j as a negation, not as a word", (negation) => {
    const facts = factsOf(`${negation} penicillin`);
    expect(facts.negations).toBe(1);
    expect([...facts.words]).toEqual(["penicillin"]);
    expect(carriesLine("allergic to penicillin", `${negation} allergic to penicillin`)).toBe(false);
  });

  it("counts n't as a negation (straight or curly), and not the n't inside a word (the dos and don'ts)", () => {
    expect(factsOf("doesn't").negations).toBe(1);
    expect(factsOf("don\u2019t").negations).toBe(1);
    expect(factsOf("the dos and don'ts").negations).toBe(0);
    expect(carriesLine("I eat meat", "Doesn't eat meat")).toBe(false);
  });

  it.each([..."不没未别无非莫勿"])("counts the Han negation %s", (negation) => {
    expect(factsOf(`${negation}`).negations).toBe(1);
    expect(factsOf(`我${negation}喝咖啡`).negations).toBe(1);
  });

  it("never lets a source with no negation carry a negated line, nor one negation carry a line without", () => {
    expect(carriesLine("我喝咖啡", "我不喝咖啡")).toBe(false);
    expect(carriesLine("我不喝咖啡", "我喝咖啡")).toBe(false);
    expect(carriesLine("I do not smoke", "I smoke")).toBe(false);
  });

  it("reads a clause with a negation as a no, however many it holds: 'no, I never drink coffee' is one no", () => {
    expect(carriesLine("no, I never drink coffee", "Never drinks coffee")).toBe(true);
    expect(carriesLine("no, I never drink coffee", "Drinks coffee")).toBe(false);
  });

  it("merged typed words carry a negated line only when one of them says no about the same thing (in English or Chinese)", () => {
    expect(carries(typed("I eat meat", "I like Lyon"), factsOf("Doesn't eat meat"))).toBe(false);
    expect(carries(typed("我喝咖啡"), factsOf("不喝咖啡"))).toBe(false);
    expect(carries(typed("我喝咖啡", "没有"), factsOf("不喝咖啡"))).toBe(false);
    expect(carries(typed("我喝茶", "我不喝咖啡"), factsOf("不喝咖啡"))).toBe(true);
    expect(carries(typed("I never eat meat"), factsOf("Doesn't eat meat"))).toBe(true);
  });

  it("merged typed words carry a line without a negation whatever their negations", () => {
    expect(carries(typed("no", "I eat meat"), factsOf("Eats meat"))).toBe(true);
    expect(mergeFacts([factsOf("no"), factsOf("never not")]).negations).toBe(3);
  });
});

describe("facts.ts: how much of a text is read", () => {
  it("reads the first 100,000 characters of a text, no more", () => {
    expect(words(`${"a ".repeat(49_990)}penicillin`)).toEqual(["penicillin"]);
    expect(words(`${"a ".repeat(50_000)}penicillin`)).toEqual([]);
  });
});

describe("facts.ts: which words are facts", () => {
  it("leaves out the words that say how, not what, in every part of the list", () => {
    expect(words("a about could did his herself ourselves out those through yeah oh think guess don doesn ain")).toEqual([]);
    // So a line of one content word among them is not carried by a source that shares only those.
    expect(carriesLine("he could have it, he said", "he could have been a pilot")).toBe(false);
  });

  it("leaves out a word whose stem is one of those (thinking, guessed, getting)", () => {
    expect(words("thinking guessed getting kinds")).toEqual([]);
  });

  it("keeps two-letter words and drops single letters", () => {
    expect(words("TV and x")).toEqual(["tv"]);
    expect(carriesLine("likes tea", "likes TV")).toBe(false);
  });

  it("stems a word of up to 40 characters, and reads a longer one as it is", () => {
    const forty = `${"a".repeat(37)}ing`;
    const longer = `${"a".repeat(38)}ing`;
    expect(words(forty)).toEqual(["a".repeat(37)]);
    expect(words(longer)).toEqual([longer]);
  });

  it("reads a possessive as the name", () => {
    expect(words("Mei's cat")).toEqual(["cat", "mei"]);
  });

  it("reads Han text by character, leaving out the characters of grammar and of negation", () => {
    expect(words("猫")).toEqual(["猫"]);
    expect(words("的")).toEqual([]);
    expect(words("不")).toEqual([]);
    expect(words("猫狗")).toEqual(["狗", "猫"]);
    // Han numerals are numbers, as digits: 两 and 二 are both 2.
    expect(words("一二三")).toEqual(["1", "2", "3"]);
    expect(words("两")).toEqual(["2"]);
    expect(words("我的")).toEqual([]);
    expect(words("我的猫")).toEqual(["猫"]);
    expect(words("我不喝咖啡")).toEqual(["咖", "啡", "喝"]);
    expect(words("没有猫")).toEqual(["猫"]);
    expect(carriesLine("狗", "猫")).toBe(false);
  });

  it("does not carry a Chinese line by one shared character", () => {
    expect(carriesLine("我喜欢乌龙茶", "我喜欢咖啡")).toBe(false);
    expect(carriesLine("我在面包店工作", "我想去参军")).toBe(false);
  });
});
