import { describe, expect, it } from "vitest";

/**
 * Each module of the checks that decide what may be written loads: its word lists, tables and
 * patterns are built when it is imported. Imported here inside a test, so that a table or a
 * pattern that no longer builds fails a test (npm run test:mutation counts a test file that fails
 * to import as no failure at all, docs/design.md §7).
 */
describe("the checks' modules load", () => {
  it.each([
    ["safety.ts", () => import("../../../src/memory/safety.js"), "checkContent"],
    ["memory-file.ts", () => import("../../../src/memory/memory-file.js"), "MemoryFile"],
    ["tidy-plan.ts", () => import("../../../src/memory/tidy/tidy-plan.js"), "checkPlan"],
    ["instructions.ts", () => import("../../../src/memory/instructions.js"), "instructionIn"],
    ["facts.ts", () => import("../../../src/memory/facts.js"), "factsOf"],
    ["voices.ts", () => import("../../../src/engine/tools/voices.js"), "notTheirWords"],
  ] as const)("%s", async (_name, load, name) => {
    const module: Record<string, unknown> = await load();
    expect(typeof module[name]).toBe("function");
  });
});
