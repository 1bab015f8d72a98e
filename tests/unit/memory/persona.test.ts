import { describe, expect, it } from "vitest";
import { applyPersona, parsePersona, renderPersona } from "../../../src/memory/persona.js";

const mochi = { name: "Mochi", personality: "A cheerful cat.", style: "Short sentences." };

describe("persona", () => {
  it("renders and reads back the three fields", () => {
    expect(parsePersona(renderPersona(mochi, "en-US"), "en-US")).toEqual(mochi);
  });

  it("changes only the three fields and keeps every other section of SOUL.md", () => {
    const soul = "## Name\nAgentKit\n\n## Personality\nKind.\n\n## Catchphrases\n- Meow!\n\n## Speaking style\nPlain.\n\n## Boundaries\nNo medical advice.\n";
    expect(applyPersona(soul, mochi, "en-US")).toBe(
      "## Name\nMochi\n\n## Personality\nA cheerful cat.\n\n## Catchphrases\n- Meow!\n\n## Speaking style\nShort sentences.\n\n## Boundaries\nNo medical advice.\n",
    );
  });

  it("writes fresh sections in the person's language when SOUL.md is empty", () => {
    expect(applyPersona("", mochi, "zh-CN")).toBe("## 名字\nMochi\n\n## 性格\nA cheerful cat.\n\n## 说话风格\nShort sentences.\n");
  });

  it("treats a free-text persona as the personality: prefilled, then moved into its section", () => {
    const soul = "You are Kiko, the support fox.\n";
    expect(parsePersona(soul, "en-US").personality).toBe("You are Kiko, the support fox.");
    const saved = applyPersona(soul, { ...mochi, personality: "You are Kiko, the support fox." }, "en-US");
    expect(saved).toBe("## Name\nMochi\n\n## Personality\nYou are Kiko, the support fox.\n\n## Speaking style\nShort sentences.\n");
  });

  it("closes a code fence a field leaves open, so the sections after it stay sections", () => {
    const soul = "## Name\nA\n\n## Personality\nB\n\n## Speaking style\nC\n\n## Rules\nBe kind.\n";
    const saved = applyPersona(soul, { ...mochi, personality: "I like code:\n```js" }, "en-US");
    expect(saved).toContain("## Personality\nI like code:\n```js\n```\n");
    expect(parsePersona(saved, "en-US").style).toBe("Short sentences.");
    expect(saved).toContain("## Rules\nBe kind.\n");
  });

  it("keeps a free-text preamble that is too long for the form", () => {
    const soul = `${"long persona text ".repeat(80)}\n`;
    expect(applyPersona(soul, mochi, "en-US").startsWith(soul)).toBe(true);
  });
});
