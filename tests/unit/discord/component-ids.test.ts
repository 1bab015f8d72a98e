import { describe, expect, it } from "vitest";
import { componentHandlers } from "../../../src/discord/handlers/index.js";
import { COMPONENT, componentId, parseComponentId } from "../../../src/discord/views/custom-id.js";

describe("the custom ids of buttons, menus and forms", () => {
  it("each prefix a view may use has a handler, and no handler waits for a prefix no view makes", () => {
    const prefixes = Object.values(COMPONENT);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect([...componentHandlers.keys()].sort()).toEqual([...prefixes].sort());
  });

  it("reads back what it made, and refuses to make an id Discord would refuse (over 100 characters)", () => {
    expect(parseComponentId(componentId(COMPONENT.undo, "111", "entry-1"))).toEqual({ prefix: "ru", owner: "111", args: ["entry-1"] });
    expect(() => componentId(COMPONENT.undo, "111", "x".repeat(100))).toThrow(/too long/);
  });
});
