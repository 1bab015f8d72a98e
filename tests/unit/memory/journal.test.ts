import { appendFile, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { modelWriter, PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { Journal } from "../../../src/memory/journal.js";
import { undoable, undoChanges } from "../../../src/memory/undo.js";
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
    const ghost = JSON.stringify({
      id: "ghost",
      at: new Date().toISOString(),
      by: { kind: "person" },
      op: "add",
      changes: [{ file: "USER.md", section: "Likes", position: 0, before: "## Likes\n- tea\n", after: "## Likes\n- tea\n- milk\n" }],
    });
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

/** Every line of the journal file that is an entry (parses, has an id and changes). */
async function entryLines(path: string): Promise<string[]> {
  const lines = (await readFile(path, "latin1")).split("\n");
  return lines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { id?: string; changes?: unknown };
      return parsed.id && parsed.changes ? [parsed.id] : [];
    } catch {
      return [];
    }
  });
}

/** Two changes, then `damage` appended to the journal as a crash or a failing disk would leave it; then a third change from another process. */
async function afterDamage(damage: Buffer | string) {
  const s = await store();
  await s.user.add("Likes", "- tea", MODEL);
  await s.user.add("Likes", "- cake", MODEL);
  await appendFile(s.journal.path, damage);
  const other = await store(s.home);
  const added = await other.user.add("Likes", "- plums", MODEL);
  if (!added.ok) throw new Error(added.error);
  return { s, other, id: added.value.entryId! };
}

describe("a journal with a torn or garbage tail (a crash, a disk error)", () => {
  const cases: [string, Buffer | string][] = [
    ["a tail without its line break", '{"id":"torn","at":"2026-12-02T10:00:00Z","changes":[{"file":"USER.md","sec'],
    [
      "binary junk: invalid UTF-8, NUL bytes and line breaks, then a torn line",
      Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0xc3, 0x28, 0x0a, 0xe2, 0x82]), Buffer.alloc(4096, 0xff), Buffer.from([0x0a, 0xf0, 0x9f, 0x98])]),
    ],
    ["a line of zeros, as a file system extended by a crash leaves it", Buffer.alloc(65_536, 0)],
    ["a huge line without a line break (8 MB)", `{"id":"huge","changes":[${'"x",'.repeat(2_000_000)}`],
  ];

  it.each(cases)("loses nothing but %s: the next change starts on its own line, and history and undo see it", async (_, damage) => {
    const { s, other, id } = await afterDamage(damage);
    expect((await entryLines(s.journal.path)).at(-1)).toBe(id);
    const history = await other.history();
    expect(history.map((e) => e.changes[0]?.after)).toEqual(["## Likes\n- tea\n- cake\n- plums\n", "## Likes\n- tea\n- cake\n", "## Likes\n- tea\n"]);
    expect(undoable(history.slice().reverse()).map((e) => e.id)).toContain(id);
    expect(await undoChanges(other, [id], { kind: "person" })).toMatchObject({ ok: true });
    expect(await other.user.read()).toBe("## Likes\n- tea\n- cake\n");
    expect((await other.history()).map((e) => e.op)).toEqual(["undo", "add", "add", "add"]);
  });

  it("keeps a last entry that lost only its line break, as it is whole, and settles it against the files", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    const [entry] = (await readFile(s.journal.path, "utf8")).split("\n");
    await writeFile(s.journal.path, entry!);
    const other = await store(s.home);
    await other.user.add("Likes", "- cake", MODEL);
    expect((await other.history()).map((e) => e.changes[0]?.after)).toEqual(["## Likes\n- tea\n- cake\n", "## Likes\n- tea\n"]);
  });

  it("skips garbage in the middle, lines that parse but are not entries included, and still undoes around it", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    const almost = [
      '{"id":"bad1","at":"2026-12-02T10:00:00Z","changes":[null]}',
      '{"id":"bad2","at":"2026-12-02T10:00:00Z","by":{"kind":"person"},"op":"add","changes":[{"file":"USER.md","section":7,"position":0,"before":null,"after":1}]}',
      '{"done":42}',
      "[]",
      "\u0000\u0000 not json at all",
    ];
    await appendFile(s.journal.path, `${almost.join("\n")}\n`);
    const other = await store(s.home);
    await other.user.add("Likes", "- cake", MODEL);
    const history = await other.history();
    expect(history.map((e) => e.id)).not.toContain("bad1");
    expect(history.map((e) => e.id)).not.toContain("bad2");
    expect(history).toHaveLength(2);
    expect(
      await undoChanges(
        other,
        history.map((e) => e.id),
        { kind: "person" },
      ),
    ).toMatchObject({ ok: true });
    expect(await other.user.read()).toBe("");
  });

  it("starts an appended entry on its own line even when nothing repaired the tail first", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    await appendFile(s.journal.path, "garbage without a line break");
    const journal = new Journal(s.journal.path);
    const entry = { id: "later", at: new Date().toISOString(), by: { kind: "person" as const }, op: "edit", changes: [] };
    await journal.append(entry);
    expect((await journal.entries()).map((e) => e.id)).toContain("later");
  });

  it("reads a journal holding a line far over any entry's size (64 MB of junk) without failing, skipping that line", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    await appendFile(s.journal.path, `${"{".repeat(64 * 1024 * 1024)}\n`);
    const other = await store(s.home);
    await other.user.add("Likes", "- cake", MODEL);
    expect((await other.history()).map((e) => e.changes[0]?.after)).toEqual(["## Likes\n- tea\n- cake\n", "## Likes\n- tea\n"]);
    expect((await stat(s.journal.path)).size).toBeGreaterThan(64 * 1024 * 1024);
  });
});

describe("the journal's marks", () => {
  it("never make the person's folder again: a done mark after a delete-all fails and leaves nothing", async () => {
    const home = await makeTempHome();
    const folder = join(home, "users", "123");
    const journal = new Journal(join(folder, "journal.jsonl"));
    // The entry may make the folder (it is appended after the lock was checked).
    await journal.append({ id: "e1", at: new Date(0).toISOString(), by: { kind: "system", reason: "test" }, op: "add", changes: [] });
    await rm(folder, { recursive: true, force: true });
    await expect(journal.markDone("e1")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(stat(folder)).rejects.toMatchObject({ code: "ENOENT" });
  });
});
