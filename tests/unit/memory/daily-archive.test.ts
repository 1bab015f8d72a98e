import { describe, expect, it } from "vitest";
import { unarchived } from "../../../src/memory/daily-archive.js";
import { expectLinear } from "../../helpers/linear-time.js";

describe("what a day's archive lacks", () => {
  it("takes a preamble the archive already holds, but for line endings and trailing blanks, as held", () => {
    expect(unarchived("Notes of the day.\n## 09:00 · early\nA\n", "Notes of the day.  \t\r\n## 10:00 · late\nB\n")).toBe("## 10:00 · late\nB\n");
    expect(unarchived("Notes\tof the day.\n", "Notes of the day.\n")).toBe("Notes of the day.\n");
  });

  it("compares in linear time a preamble and an archive holding long runs of blanks before a word (1 MB)", () => {
    expectLinear(
      (n) => `${" \t".repeat(n / 2)}x\n`,
      (log) => expect(unarchived("", log)).toBe(log),
    );
    expectLinear(
      (n) => `${" ".repeat(n)}x`,
      (archive) => unarchived(archive, "Notes of the day.\n"),
    );
  });
});
