import { describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { entriesOfServer, forgetPublicEntriesOf, notePublicEntry } from "../../../src/memory/public-entries.js";
import { makeTempHome } from "../../helpers/temp-home.js";
import { isPrivateSection, isPublicEntry, privateSectionList, publicEntriesOf, sectionKey, withoutPrivateSections } from "../../../src/memory/visibility.js";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";
import fc from "fast-check";
import { PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";

const USER = "Alice, designer.\n\n## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n\n## 家庭\n- 两个孩子\n";

describe("private sections", () => {
  it("are named loosely: case, width and inner spaces do not matter", () => {
    expect(sectionKey("  Family   Matters ")).toBe("family matters");
    expect(sectionKey("ＨＥＡＬＴＨ")).toBe("health");
    expect(isPrivateSection("Health", ["health"])).toBe(true);
    expect(isPrivateSection("Likes", ["health"])).toBe(false);
  });

  it("leave a memory file with the rest of it byte for byte, and are counted", () => {
    const { text, held } = withoutPrivateSections(USER, ["health", "家庭"]);
    expect(text).toBe("Alice, designer.\n\n## Likes\n- oolong\n\n");
    expect(held).toBe(2);
    expect(withoutPrivateSections(USER, undefined)).toEqual({ text: USER, held: 0 });
  });

  it("take linear time over a megabyte of headings", () => {
    expectLinear(
      (size) => repeatTo("## Health\n", size),
      (text) => withoutPrivateSections(text, ["health"]),
    );
    expectLinear(
      (size) => repeatTo("## a 🌐\n", size),
      (text) => publicEntriesOf(text, () => true),
    );
  });
});

describe("a daily log in a public place", () => {
  it("keeps only the entries of conversations held in public places: not the DM's, not a condensed day's, not the preamble", () => {
    const log =
      "# 2026-12-03\nhand-written note\n## 09:00 · direct messages\nAlice told me her code word.\n## 10:00 · picnic 🌐\nWe planned a picnic.\n## Condensed\nA mix of both.\n";
    expect(publicEntriesOf(log, () => true)).toEqual({ text: "## 10:00 · picnic 🌐\nWe planned a picnic.\n", held: 2 });
  });

  it("keeps a public entry only in its own server's public places, as public-entries.json notes it", async () => {
    const dir = await makeTempHome();
    await notePublicEntry(dir, "2026-12-03", "10:00 · picnic 🌐", "111");
    await notePublicEntry(dir, "2026-12-03", "11:00 · raid 🌐 (2)", "222");
    const log = "## 10:00 · picnic 🌐\nWe planned a picnic.\n## 11:00 · raid 🌐 (2)\nThe raid is Friday.\n## 12:00 · hand-marked 🌐\nnot noted\n";
    const inServer = (guild: string | undefined) => publicEntriesOf(log, (heading) => entriesOfServer(dir, guild)("2026-12-03", heading));
    expect(inServer("111")).toEqual({ text: "## 10:00 · picnic 🌐\nWe planned a picnic.\n", held: 2 });
    expect(inServer("222").text).toBe("## 11:00 · raid 🌐 (2)\nThe raid is Friday.\n");
    expect(inServer(undefined).held).toBe(3);
    // Another day's log with the same heading is another entry.
    expect(entriesOfServer(dir, "111")("2026-12-04", "10:00 · picnic 🌐")).toBe(false);
    // The file holds no words of a heading, and a broken one shows nothing.
    expect(await readFile(join(dir, "public-entries.json"), "utf8")).not.toMatch(/picnic|raid/);
    await writeFile(join(dir, "public-entries.json"), "{broken");
    expect(inServer("111").held).toBe(3);
  });

  it("forgets entries two weeks older than the newest", async () => {
    const dir = await makeTempHome();
    await notePublicEntry(dir, "2026-11-01", "10:00 · old 🌐", "111");
    await notePublicEntry(dir, "2026-12-03", "10:00 · new 🌐", "111");
    expect(entriesOfServer(dir, "111")("2026-11-01", "10:00 · old 🌐")).toBe(false);
    expect(entriesOfServer(dir, "111")("2026-12-03", "10:00 · new 🌐")).toBe(true);
  });
});

describe("marks and lists", () => {
  it("a second public entry of the same title (… 🌐 (2)) is public too; a mark inside the title is not", () => {
    expect(isPublicEntry("10:00 · picnic 🌐")).toBe(true);
    expect(isPublicEntry("10:00 · picnic 🌐 (2)")).toBe(true);
    expect(isPublicEntry("10:00 · 🌐 picnic")).toBe(false);
    expect(isPublicEntry("10:00 · picnic (2)")).toBe(false);
  });

  it("a private list read from a file keeps names only, each once, at most 50", () => {
    expect(privateSectionList(["Health", "health ", 3, null, "x".repeat(18 * 200 + 1), "家庭"])).toEqual(["health", "家庭"]);
    expect(privateSectionList(Array.from({ length: 80 }, (_, i) => `s${i}`))).toHaveLength(50);
    expect(privateSectionList("health")).toBeUndefined();
  });
});

describe("public-entries.json", () => {
  it("gives a heading used again to the newest server only, keeps at most 500 notes, and forgets a day", async () => {
    const dir = await makeTempHome();
    await notePublicEntry(dir, "2026-12-03", "10:00 · picnic 🌐", "111");
    await notePublicEntry(dir, "2026-12-03", "10:00 · picnic 🌐", "222");
    expect(entriesOfServer(dir, "111")("2026-12-03", "10:00 · picnic 🌐")).toBe(false);
    expect(entriesOfServer(dir, "222")("2026-12-03", "10:00 · picnic 🌐")).toBe(true);
    for (let i = 0; i < 520; i++) await notePublicEntry(dir, "2026-12-04", `t${i} 🌐`, "333");
    expect(JSON.parse(await readFile(join(dir, "public-entries.json"), "utf8"))).toHaveLength(500);
    expect(entriesOfServer(dir, "333")("2026-12-04", "t519 🌐")).toBe(true);
    expect(entriesOfServer(dir, "333")("2026-12-04", "t0 🌐")).toBe(false);
    await forgetPublicEntriesOf(dir, "2026-12-04");
    expect(entriesOfServer(dir, "333")("2026-12-04", "t519 🌐")).toBe(false);
  });
});

describe("a section marked private stays private however its name grows once normalised", () => {
  it("marks a name NFKC makes longer than 200 characters, and a hand-written heading of 500, and both read back private", async () => {
    const home = await makeTempHome();
    const memory = MemoryStore.forUser(home, "7", { defaultTimeZone: "UTC" });
    // 19 characters as typed (a name /memory private accepts), 223 once normalised: "ﷺ" becomes 18.
    const grown = `Health ${"ﷺ".repeat(12)}`;
    const long = `Plans ${"x".repeat(494)}`;
    await memory.user.write(`## ${grown}\n- epilepsy\n## ${long}\n- moving\n## Likes\n- tea\n`, PERSON);
    expect(await memory.markPrivate(grown, true)).toBe("changed");
    expect(await memory.markPrivate(long, true)).toBe("changed");
    const marked = memory.readSettings().privateSections;
    expect(marked).toHaveLength(2);
    expect(isPrivateSection(grown, marked)).toBe(true);
    expect(isPrivateSection(long, marked)).toBe(true);
    expect(withoutPrivateSections(await memory.user.read(), marked).text).toBe("## Likes\n- tea\n");
    expect(await memory.markPrivate(grown, true)).toBe("unchanged");
  });

  it("reads a mark an older version stored at full length as the same mark", () => {
    const stored = `health ${"ﷺ".repeat(12).normalize("NFKC")}`;
    expect(stored.length).toBeGreaterThan(200);
    expect(isPrivateSection(`Health ${"ﷺ".repeat(12)}`, privateSectionList([stored]))).toBe(true);
  });

  it("keeps two long names alike past the cut as two marks", async () => {
    const memory = MemoryStore.forUser(await makeTempHome(), "8", { defaultTimeZone: "UTC" });
    const health = `${"ﷺ".repeat(12)} Health`;
    const plans = `${"ﷺ".repeat(12)} Plans`;
    expect(sectionKey(health)).not.toBe(sectionKey(plans));
    await memory.user.write(`## ${health}\n- epilepsy\n## ${plans}\n- moving\n`, PERSON);
    await memory.markPrivate(health, true);
    await memory.markPrivate(plans, true);
    await memory.markPrivate(plans, false);
    expect(withoutPrivateSections(await memory.user.read(), memory.readSettings().privateSections).text).toBe(`## ${plans}\n- moving\n`);
  });

  it("keys a name the same way however often it is keyed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400, size: "max" }), (name) => {
        const key = sectionKey(name);
        expect(key.length).toBeLessThanOrEqual(200);
        expect(sectionKey(key)).toBe(key);
        expect(privateSectionList([key])).toEqual(key === "" ? [] : [key]);
      }),
      { numRuns: 500 },
    );
  });
});
