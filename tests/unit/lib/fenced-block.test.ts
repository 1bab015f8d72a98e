import { describe, expect, it } from "vitest";
import { fencedBlock } from "../../../src/lib/text.js";
import { formatBytes } from "../../../src/discord/attachments/sizes.js";

describe("fencedBlock", () => {
  it("fences content with three backticks and the language", () => {
    expect(fencedBlock("a = 1\n", "python")).toBe("```python\na = 1\n```");
    expect(fencedBlock("no newline at the end", "")).toBe("```\nno newline at the end\n```");
    expect(fencedBlock("", "log")).toBe("```log\n```");
  });

  it("uses a fence longer than any backtick run inside, so the content cannot close it", () => {
    expect(fencedBlock("```js\nx\n```\n", "markdown")).toBe("````markdown\n```js\nx\n```\n````");
    expect(fencedBlock("a ````` b", "")).toBe("``````\na ````` b\n``````");
  });
});

describe("formatBytes", () => {
  it("writes sizes the same way in every language: B, KB, MB, GB in steps of 1024", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(900)).toBe("900 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(100 * 1024)).toBe("100 KB");
    expect(formatBytes(340 * 1024 + 300)).toBe("340 KB");
    expect(formatBytes(1023 * 1024 + 1000)).toBe("1 MB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatBytes(2.25 * 1024 * 1024)).toBe("2.3 MB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3 GB");
  });
});
