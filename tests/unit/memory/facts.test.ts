import { describe, expect, it } from "vitest";
import { carriedShare, carries, factsOf, mergeFacts } from "../../../src/memory/facts.js";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";

const carriesLine = (source: string, line: string) => carries(factsOf(source), factsOf(line));

describe("facts: whether a source carries a line", () => {
  it("carries a line made of the source's content words, whatever their form", () => {
    expect(carriesLine("I'm allergic to penicillin", "Allergic to penicillin")).toBe(true);
    expect(carriesLine("I like oolong tea", "Likes oolong tea")).toBe(true);
    expect(carriesLine("我最喜欢乌龙茶", "喜欢乌龙茶")).toBe(true);
  });

  it("does not carry a line that shares one word with it: the bakery quote", () => {
    expect(carriesLine("I really like my work at the bakery", "Really wants to quit the bakery and join the army")).toBe(false);
    expect(carriesLine("I'm allergic to penicillin", "Penicillin is fine for her")).toBe(false);
    expect(carriesLine("我在面包店工作", "想辞职去参军")).toBe(false);
    expect(carriesLine("我在面包店工作，很喜欢", "在面包店工作，想辞职去参军")).toBe(false);
  });

  it("does not ask a person's words for the date the model wrote their 'last week' as", () => {
    expect(carriesLine("we moved to Berlin last week", "Lives in Berlin (moved 2026-11-20)")).toBe(true);
    expect(carriesLine("we moved to Berlin last week", "Lives in Berlin (moved in 2019)")).toBe(false);
  });

  it("never carries another number or the opposite", () => {
    expect(carriesLine("born in 1990 in Lyon", "Born 1999 in Lyon")).toBe(false);
    expect(carriesLine("Allergic to penicillin", "Not allergic to penicillin")).toBe(false);
    expect(carriesLine("I don't eat meat", "Eats meat")).toBe(false);
    expect(carriesLine("我不喝咖啡", "喝咖啡")).toBe(false);
    expect(carriesLine("I don't eat meat", "Doesn't eat meat")).toBe(true);
  });

  it("weighs every content word alike: a share below two thirds is not carried", () => {
    expect(carriedShare(factsOf("tea and cats"), factsOf("tea cats dogs"))).toBeCloseTo(2 / 3);
    expect(carriesLine("tea and cats", "tea cats dogs")).toBe(true);
    expect(carriesLine("tea", "tea cats dogs")).toBe(false);
    expect(carriesLine("anything", "okay")).toBe(true);
  });

  it("a person's many messages carry a line together; a no counts only where it is said about the same thing", () => {
    const typed = mergeFacts(["I live in Lyon", "my dog is called Rex", "no, I never drink coffee"].map(factsOf));
    expect(carries(typed, factsOf("Lives in Lyon with Rex, a dog"))).toBe(true);
    expect(carries(typed, factsOf("Never drinks coffee"))).toBe(true);
    expect(carries(mergeFacts([factsOf("I drink coffee")]), factsOf("Never drinks coffee"))).toBe(false);
    // The attacks of the review: a "no" elsewhere, a "no" dropped, a "no" without its apostrophe.
    expect(carries(factsOf("I'm allergic to penicillin. I don't know"), factsOf("Not allergic to penicillin"))).toBe(false);
    expect(carries(factsOf("I'm not allergic to penicillin"), factsOf("Allergic to penicillin"))).toBe(false);
    expect(carries(factsOf("I dont eat meat"), factsOf("Eats meat"))).toBe(false);
    expect(carries(factsOf("I hardly drink"), factsOf("Drinks"))).toBe(false);
    expect(carries(factsOf("I'm allergic to penicillin but not to aspirin"), factsOf("Allergic to penicillin, not to aspirin"))).toBe(true);
  });

  it("reads number words as the numbers they are, and a date only where the source gave a time for it", () => {
    expect(carries(factsOf("I have two kids and a dog named Rex"), factsOf("Has 2 kids and a dog named Rex"))).toBe(true);
    expect(carries(factsOf("I have two kids and a dog named Rex"), factsOf("Has three kids and a dog named Rex"))).toBe(false);
    expect(carries(factsOf("我有两个孩子"), factsOf("有三个孩子"))).toBe(false);
    expect(carries(factsOf("I was born in 1990"), factsOf("Born 2026-01-01"))).toBe(false);
    expect(carries(factsOf("we moved to Berlin last week"), factsOf("Lives in Berlin (moved 2026-11-20)"))).toBe(true);
  });

  it("reads a megabyte of its worst input in linear time", () => {
    expectLinear((n) => repeatTo("a", n), factsOf);
    expectLinear((n) => repeatTo("don't ", n), factsOf);
    expectLinear((n) => repeatTo("不是的", n), factsOf);
    expectLinear((n) => repeatTo("1'", n), factsOf);
  });
});
