import { describe, expect, it } from "vitest";
import { instructionIn } from "../../../src/memory/instructions.js";
import { RULE_SAMPLES } from "./instruction-rules.js";

/**
 * Each rule of the instruction check guarded so that weakening it fails a test (npm run
 * test:mutation, docs/design.md §7): for every list and pattern, a note it must hold as its kind
 * and, where a loosened rule would hold more, a note it must leave alone (instruction-rules.ts).
 */
describe.each(RULE_SAMPLES)("instructionIn, $rule: $what", ({ held, ordinary }) => {
  it.each(held)("holds %s in %j", (kind, text) => {
    expect(instructionIn(text)?.kind).toBe(kind);
  });

  if (ordinary.length > 0) {
    it.each(ordinary)("holds nothing in %j", (text) => {
      expect(instructionIn(text)).toBeUndefined();
    });
  }
});
