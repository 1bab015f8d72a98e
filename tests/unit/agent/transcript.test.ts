import { describe, expect, it } from "vitest";
import { transcriptOf } from "../../../src/engine/transcript.js";

const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8I"].join("");

describe("transcriptOf: the tail of a conversation for a summary", () => {
  it("masks only the end of a message of megabytes, and still masks a secret anywhere in what it keeps", () => {
    // A shared file of 3 MB whose last 24,000 characters reach the transcript; a key 300 characters before its end.
    const file = `${"x ".repeat(1_500_000)}${key}${" y".repeat(150)}`;
    const text = transcriptOf(
      [
        { role: "user", content: file },
        { role: "assistant", content: "Noted." },
      ],
      { displayName: "Mei" },
    );
    expect(text.length).toBeLessThanOrEqual(24_001);
    expect(text).toContain("[secret: OpenAI key]");
    expect(text).not.toContain(key);
    expect(text.endsWith("Assistant: Noted.")).toBe(true);
  });

  it("keeps a secret whole that starts before the part it masks and ends inside the kept text", () => {
    // The key ends 23,970 characters before the end: it begins just outside the last 24,000, and the margin still masks it.
    const tail = " z".repeat(11_985);
    const text = transcriptOf([{ role: "user", content: `${"a ".repeat(100_000)}${key}${tail}` }], { displayName: "Mei" });
    expect(text).not.toContain(key.slice(-15));
  });
});
