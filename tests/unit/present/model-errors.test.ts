import { describe, expect, it } from "vitest";
import { english, type Say } from "../../../src/lib/locale.js";
import { ModelError } from "../../../src/model/model-error.js";
import type { ModelErrorKind } from "../../../src/lib/telemetry.js";
import { modelErrorLine } from "../../../src/present/model-errors.js";

const chinese: Say = (_en, zh) => zh;
const error = (kind: ModelErrorKind, baseURL = "http://localhost:11434", status?: number) =>
  new ModelError(kind, { baseURL, ...(status !== undefined ? { status } : {}) });

describe("what a person is told when the model fails", () => {
  it("points a base URL without /v1 at OPENAI_BASE_URL and /v1, with the address it should have, in English and Chinese", () => {
    const en = modelErrorLine(error("wrong-base-url", "http://localhost:11434/", 404), english);
    expect(en).toContain("OPENAI_BASE_URL");
    expect(en).toContain("http://localhost:11434/v1");
    expect(en).toContain("404");
    const zh = modelErrorLine(error("wrong-base-url", "http://localhost:11434", 404), chinese);
    expect(zh).toContain("OPENAI_BASE_URL");
    expect(zh).toContain("http://localhost:11434/v1");
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
  });

  it("has one line per kind in each language, naming the setting to check where there is one", () => {
    const kinds: [ModelErrorKind, RegExp][] = [
      ["unreachable", /OPENAI_BASE_URL/],
      ["auth", /OPENAI_API_KEY/],
      ["refused", /OPENAI_MODEL/],
      ["rate-limit", /./],
      ["server", /503/],
      ["timeout", /./],
      ["bad-response", /./],
    ];
    for (const [kind, names] of kinds) {
      for (const say of [english, chinese]) {
        const line = modelErrorLine(error(kind, "http://localhost:11434/v1", 503), say);
        expect(line, kind).toMatch(names);
        expect(line.split("\n"), kind).toHaveLength(1);
        expect(line, kind).not.toMatch(/undefined|\[object/);
      }
      expect(modelErrorLine(error(kind), chinese), kind).not.toBe(modelErrorLine(error(kind), english));
    }
  });
});
