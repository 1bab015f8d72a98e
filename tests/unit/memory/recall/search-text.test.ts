import { describe, expect, it } from "vitest";
import { indexText, matchExpression, queryTerms } from "../../../../src/memory/recall/search-text.js";
import { cpuMs } from "../../../helpers/cpu-time.js";

describe("indexText", () => {
  it("keeps words of spaced scripts and gives Han runs their characters and pairs", () => {
    expect(indexText("我最喜欢乌龙茶! I'm running")).toBe("我 最 喜 欢 乌 龙 茶 我最 最喜 喜欢 欢乌 乌龙 龙茶 i'm running");
  });

  it("folds width and case (NFKC), so full-width letters match plain ones", () => {
    expect(indexText("ＯＯＬＯＮＧ Tea")).toBe("oolong tea");
  });

  it("splits Thai into dictionary words", () => {
    expect(indexText("ฉันชอบกินข้าว").split(" ")).toEqual(["ฉัน", "ชอบ", "กิน", "ข้าว"]);
  });
});

describe("queryTerms", () => {
  it("drops the words that only say how a question is asked", () => {
    expect(queryTerms("What was the name of the book I mentioned in October?")).toEqual(["book", "october"]);
  });

  it("gives a Chinese question's pairs and characters, as the index has them", () => {
    expect(queryTerms("乌龙")).toEqual(["乌龙", "乌", "龙"]);
    expect(queryTerms("日文课")).toEqual(["日文", "文课", "日", "文", "课"]);
    expect(queryTerms("我的狗，叫什么")).toEqual(["我的", "的狗", "我", "的", "狗", "叫什", "什么", "叫", "什", "么"]);
  });

  it("splits contractions as the index's tokenizer does", () => {
    expect(queryTerms("Mei's favourite café")).toEqual(["mei", "favourite", "café"]);
  });

  it("falls back to every word when all of them are stop words", () => {
    expect(queryTerms("what did I say?")).toEqual(["what", "did", "i", "say"]);
  });

  it("gives nothing for text without words", () => {
    expect(queryTerms('"*() AND OR NOT -^:')).toEqual(["and", "or", "not"]);
    expect(queryTerms("?!…")).toEqual([]);
  });
});

describe("matchExpression", () => {
  it("quotes every term so FTS5 operators typed by anyone are plain words", () => {
    expect(matchExpression(["and", "(", 'a"b', "*"])).toBe('"and" OR "(" OR "a""b" OR "*"');
    expect(matchExpression([])).toBeUndefined();
  });
});

describe("indexText on long texts (an attached log, an imported conversation)", () => {
  it("takes linear time: 100 k characters of short lines in well under a second", () => {
    const text = "a\n".repeat(50_000);
    expect(cpuMs(() => indexText(text))).toBeLessThan(1000);
  });

  it("reads a text of words that are not ASCII in few calls of the segmenter: 300 k characters of Korean well under a second", () => {
    // The segmenter costs ~4 µs a call: one call per word took 1.5 s here, one per run of such words 0.2 s.
    const text = "안녕하세요 오늘 날씨가 정말 좋네요 ".repeat(15_000);
    expect(
      Math.min(
        cpuMs(() => indexText(text)),
        cpuMs(() => indexText(text)),
      ),
    ).toBeLessThan(1000);
  });

  it("gives the same words when it reads a long text in pieces: no word is cut, Han runs stay joined", () => {
    const words = `${"alpha beta ".repeat(200)}${"你".repeat(3000)} omega`;
    const tokens = indexText(words).split(" ");
    expect(tokens.filter((t) => t === "alpha")).toHaveLength(200);
    expect(tokens.filter((t) => t === "你你")).toHaveLength(2999);
    expect(tokens.at(-1)).toBe("omega");
    expect(tokens.every((t) => t === "alpha" || t === "beta" || t === "omega" || t === "你" || t === "你你")).toBe(true);
  });
});
