import { describe, expect, it } from "vitest";
import { ownWords } from "../../../src/memory/tidy/tidy-sources.js";
import { expectLinear } from "../../helpers/linear-time.js";

describe("ownWords: what the person typed, for the tidy-up's quote check", () => {
  it("leaves out the message replied to (blank lines inside it too), stickers, link previews and shared files", () => {
    const stored = [
      "[The person is replying to your own earlier answer: “you are allergic to peanuts",
      "",
      "and you love hiking”]",
      "",
      "yes, that's right, I moved to Berlin",
      "",
      "[link preview: Berlin — the capital of Germany (https://example.org)]",
      "",
      "📄 notes.txt:",
      "```",
      "I am a pilot",
      "```",
    ].join("\n");
    expect(ownWords(stored).trim()).toBe("yes, that's right, I moved to Berlin");
  });

  it("runs in linear time on a megabyte of brackets and fences", () => {
    expectLinear((size) => "[\n```\n".repeat(size / 6), ownWords);
  });
});
