import { describe, expect, it } from "vitest";
import { mentions } from "../../../src/memory/forget.js";
import { expectLinear } from "../../helpers/linear-time.js";

describe("what forget counts as a mention of the words", () => {
  it("finds them whatever the case, width, spacing, hidden characters or escapes", () => {
    const kestrel = mentions("Kestrel Lane");
    for (const text of ["my flat on Kestrel Lane", "KESTREL  LANE", "Kes\u00adtrel Lane", "Kestrel\u200b Lane", "ｋｅｓｔｒｅｌ　ｌａｎｅ", "kestrel\tlane"]) {
      expect(kestrel(text), text).toBe(true);
    }
    expect(kestrel("Kestrel Street")).toBe(false);
    expect(mentions("Straße")("STRASSE 5")).toBe(true);
    expect(mentions("istanbul")("İSTANBUL trip")).toBe(true);
    // Tool arguments as a model server may write them (Python's json.dumps, Go's encoder).
    expect(mentions("乌龙茶")('{"content":"- \\u4e4c\\u9f99\\u8336 at Tom \\u0026 Jerry\'s"}')).toBe(true);
    expect(mentions("Tom & Jerry")('{"content":"- \\u4e4c\\u9f99\\u8336 at Tom \\u0026 Jerry\'s"}')).toBe(true);
  });

  it("takes linear time on a megabyte of escapes, blanks and hidden characters", () => {
    const hit = mentions("kestrel lane");
    expectLinear((size) => "\\u00ad \u00ad\t".repeat(size / 9), hit);
    expectLinear((size) => "ß".repeat(size), hit);
  });
});
