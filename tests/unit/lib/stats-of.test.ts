import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWN, statsOf } from "../../../src/lib/stats-of.js";
import { makeTempHome } from "../../helpers/temp-home.js";

/** An asker whose in-place answers take `ms` each, counting where each path was asked. */
function asker(ms: number) {
  const asked = { now: 0, later: 0 };
  return {
    asked,
    now: (path: string) => {
      asked.now++;
      const until = performance.now() + ms;
      while (performance.now() < until);
      return path.length;
    },
    later: async (path: string) => {
      asked.later++;
      return path.length;
    },
  };
}

describe("the stats of many files", () => {
  it("are asked in place while the disk answers quickly, and on the thread pool from the third slow answer in a row", async () => {
    const paths = Array.from({ length: 50 }, (_, i) => `/file-${i}`);
    const quick = asker(0);
    expect(await statsOf(paths, quick)).toEqual(paths.map((p) => p.length));
    expect(quick.asked).toEqual({ now: 50, later: 0 });
    const slow = asker(0.2);
    expect(await statsOf(paths, slow)).toEqual(paths.map((p) => p.length));
    expect(slow.asked).toEqual({ now: 3, later: 47 });
  });

  it("count a link as itself and a missing file as nothing", async () => {
    const dir = await makeTempHome();
    await writeFile(join(dir, "a"), "x".repeat(1000));
    await symlink(join(dir, "a"), join(dir, "link"));
    const [file, link, missing] = await statsOf([join(dir, "a"), join(dir, "link"), join(dir, "gone")], OWN);
    expect(file?.size).toBe(1000);
    expect(link?.isSymbolicLink()).toBe(true);
    expect(missing).toBeUndefined();
  });
});
