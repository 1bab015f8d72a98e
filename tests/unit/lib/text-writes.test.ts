import fc from "fast-check";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeText } from "../../../src/lib/text-writes.js";
import { startLoopProbe } from "../../helpers/loop-probe.js";
import { makeTempHome } from "../../helpers/temp-home.js";

async function written(text: string, flags = "w"): Promise<string> {
  const path = join(await makeTempHome(), "out.txt");
  const handle = await open(path, flags);
  try {
    await writeText(handle, text);
  } finally {
    await handle.close();
  }
  return readFile(path, "utf8");
}

describe("writeText", () => {
  it("writes exactly the text, a character outside the BMP included wherever the pieces are cut", async () => {
    const piece = 1 << 18;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: -3, max: 3 }),
        fc.constantFrom("😀", "é", "中", "a"),
        async (pieces, shift, character) => {
          const before = "x".repeat(Math.max(0, piece * pieces + shift));
          const text = `${before}${character}${"y".repeat(10)}${character}`;
          expect(await written(text)).toBe(text);
        },
      ),
      { numRuns: 40 },
    );
    expect(await written("")).toBe("");
  });

  it("appends after what a file in append mode holds", async () => {
    const path = join(await makeTempHome(), "log.txt");
    for (const line of ["one\n", `${"二".repeat(600_000)}\n`]) {
      const handle = await open(path, "a");
      await writeText(handle, line);
      await handle.close();
    }
    expect(await readFile(path, "utf8")).toBe(`one\n${"二".repeat(600_000)}\n`);
  });

  it("leaves the event loop to others while it writes 24 million characters that are slow to encode", async () => {
    // Two-byte text and escapes, as the journal line of the largest import is: encoding it in one call held the loop 60-230 ms.
    const text = Array.from({ length: 800 }, (_, i) => `${'中\\n\\"'.repeat(7_500)}${i}`).join("");
    expect(text.length).toBeGreaterThan(24_000_000);
    const probe = startLoopProbe();
    const back = await written(text);
    const { worstWallMs, worstCpuMs } = probe.stop();
    expect(back.length).toBe(text.length);
    // 60 ms: a collection of a heap holding this 48 MB string can hold the loop 30-40 ms on a loaded
    // machine (one Node 24 CI run read 40 ms), where encoding it in one call held it 60-230 ms.
    expect(worstCpuMs, `a timer waited ${Math.round(worstWallMs)} ms at worst`).toBeLessThan(60);
  });
});
