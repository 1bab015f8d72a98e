import { describe, expect, it } from "vitest";
import { comesOnlyFromGuests } from "../../../src/engine/tools/voices.js";
import { cpuMs } from "../../helpers/linear-time.js";

describe("a USER.md text that comes only from an invited member", () => {
  const voices = { owner: ["I love hiking in the mountains", "我喜欢乌龙茶"], guests: ["I'm allergic to shellfish", "我对花生过敏"] };

  it("is told apart by the words that tell: the guest's alone, not the owner's", () => {
    expect(comesOnlyFromGuests("- allergic to shellfish", voices)).toBe(true);
    expect(comesOnlyFromGuests("- 对花生过敏", voices)).toBe(true);
    expect(comesOnlyFromGuests("- loves hiking", voices)).toBe(false);
    expect(comesOnlyFromGuests("- 喜欢乌龙茶", voices)).toBe(false);
    // Words both said: it may be the owner's too.
    expect(comesOnlyFromGuests("- shellfish and hiking", voices)).toBe(false);
    // Nobody said it in the thread (the model's own words): not refused here.
    expect(comesOnlyFromGuests("- birthday on 2026-03-04", voices)).toBe(false);
  });

  it("reads only the newest 60,000 characters of each voice: a megabyte of messages costs what that costs", () => {
    const big = { owner: [`said long ago: ${"word ".repeat(200_000)}`], guests: ["花生".repeat(250_000)] };
    expect(cpuMs(() => comesOnlyFromGuests("花生 word ".repeat(200), big))).toBeLessThan(800);
    // Words said before those 60,000 characters are no longer before the model.
    expect(comesOnlyFromGuests("long ago", { owner: big.owner, guests: ["long ago"] })).toBe(true);
  });
});
