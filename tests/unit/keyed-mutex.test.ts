import { describe, expect, it } from "vitest";
import { KeyedMutex } from "../../src/lib/keyed-mutex.js";

describe("KeyedMutex", () => {
  it("runs work of one key in turn, other keys alongside, and forgets idle keys", async () => {
    const locks = new KeyedMutex();
    const events: string[] = [];
    const step = (name: string, ms: number) => async () => {
      events.push(`${name} start`);
      await new Promise((r) => setTimeout(r, ms));
      events.push(`${name} end`);
    };
    await Promise.all([locks.run("a", step("a1", 20)), locks.run("a", step("a2", 1)), locks.run("b", step("b1", 5))]);
    expect(events.indexOf("a2 start")).toBeGreaterThan(events.indexOf("a1 end"));
    expect(events.indexOf("b1 end")).toBeLessThan(events.indexOf("a1 end"));
    expect((locks as unknown as { mutexes: Map<string, unknown> }).mutexes.size).toBe(0);
  });
});
