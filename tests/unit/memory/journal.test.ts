import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { modelWriter, PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { undoChanges } from "../../../src/memory/undo.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const MODEL = modelWriter("s1", "tea");

/** A second process's view of the same files (its own "seen" cache is empty). */
async function store(home?: string) {
  return MemoryStore.forUser(home ?? (await makeTempHome()), "42", { defaultTimeZone: "UTC" });
}

describe("the journal after a crash", () => {
  it("cuts a line left half-written, so the next change is kept whole", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    await appendFile(s.journal.path, '{"id":"cut","at":"2026-12-02T10:00:00Z","by":{"kind":"pers');
    const other = await store(s.home);
    await other.user.add("Likes", "- cake", MODEL);
    const history = await other.history();
    expect(history.map((e) => e.changes[0]?.after)).toEqual(["## Likes\n- tea\n- cake\n", "## Likes\n- tea\n"]);
  });

  it("voids an entry whose change never reached the files, and finishes one that partly did", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    // As if killed after the journal line and before USER.md was written:
    const journal = await readFile(s.journal.path, "utf8");
    const ghost = JSON.stringify({ id: "ghost", at: new Date().toISOString(), by: { kind: "person" }, op: "add", changes: [{ file: "USER.md", section: "Likes", position: 0, before: "## Likes\n- tea\n", after: "## Likes\n- tea\n- milk\n" }] });
    await writeFile(s.journal.path, `${journal}${ghost}\n`);
    const other = await store(s.home);
    expect((await other.history()).map((e) => e.id)).not.toContain("ghost");
    expect(await other.user.read()).toBe("## Likes\n- tea\n");
  });

  it("never takes a finished change for an unfinished one: a hand edit back to the old text stays, and so does history", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    const id = (await s.history())[0]!.id;
    await writeFile(join(s.dir, "USER.md"), "");
    const other = await store(s.home);
    expect((await other.history()).map((e) => e.id)).toEqual([id]);
  });
});

describe("sections with the same name (a hand edit)", () => {
  it("are told apart: the second one's change is undone, the first left alone", async () => {
    const s = await store();
    await s.user.write("## Notes\nfirst\n\n## Notes\nsecond\n", PERSON);
    await s.user.write("## Notes\nfirst\n\n## Notes\nsecond, edited\n", PERSON);
    const [edit] = await s.history();
    expect(edit!.changes).toEqual([expect.objectContaining({ section: "Notes", nth: 1, after: "## Notes\nsecond, edited\n" })]);
    expect(await undoChanges(s, [edit!.id], { kind: "person" })).toMatchObject({ ok: true });
    expect(await s.user.read()).toBe("## Notes\nfirst\n\n## Notes\nsecond\n");
  });
});
