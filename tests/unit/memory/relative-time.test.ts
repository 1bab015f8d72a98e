import { describe, expect, it } from "vitest";
import { relativeTimeIn } from "../../../src/memory/relative-time.js";
import { expectLinear } from "../../helpers/linear-time.js";

describe("relativeTimeIn: relative times in text that is read on later days", () => {
  it.each([
    ["- dentist tomorrow at 3", "tomorrow"],
    ["- moving to Berlin next month", "next month"],
    ["- started a new job last week", "last week"],
    ["- exam next Friday", "next Friday"],
    ["- back from Japan in two weeks", "in two weeks"],
    ["- adopted a cat 3 days ago", "3 days ago"],
    ["- see you this weekend", "this weekend"],
    ["- 明天去看牙医", "明天"],
    ["- 下周搬家", "下周"],
    ["- 上个月换了工作", "上个月"],
    ["- 三天后考试", "三天后"],
    ["- 下星期三开会", "下星期"],
  ])("finds %j", (text, word) => {
    expect(relativeTimeIn(text)).toBe(word);
  });

  it.each([
    "- dentist on 2026-12-04 at 3",
    "- moving to Berlin next month (January 2026)",
    "- exam next Friday, Dec 11",
    "- exam on 11 December",
    "- 12月10日下周三开会",
    "- 2027年明年去日本",
    "- prefers oolong tea",
    "- works the night shift on weekdays",
    "- 喜欢乌龙茶",
    "- has been learning Japanese for two years",
  ])("lets %j through (a date is named, or nothing is relative)", (text) => {
    expect(relativeTimeIn(text)).toBeUndefined();
  });

  it("takes linear time on a megabyte of near-misses", () => {
    expectLinear((size) => "in 12 day next weeke 下个 ".repeat(Math.ceil(size / 22)).slice(0, size), relativeTimeIn);
    expectLinear((size) => "Dec 1".padEnd(size, " 1"), relativeTimeIn);
    expectLinear((size) => "12/".repeat(Math.ceil(size / 3)).slice(0, size), relativeTimeIn);
  });
});
