import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { modelWriter, PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { undoable, undoChanges, undoWithLater } from "../../../src/memory/undo.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const MODEL = modelWriter("session-1", "tea talk");
const ME = { kind: "person" } as const;

async function store() {
  return MemoryStore.forUser(await makeTempHome(), "42", { defaultTimeZone: "UTC" });
}

const entryOf = async (result: Promise<{ ok: boolean; value?: { entryId?: string } }>) => {
  const done = await result;
  if (!done.ok || !done.value?.entryId) throw new Error("write failed");
  return done.value.entryId;
};

describe("history", () => {
  it("keeps who changed which section, before and after, newest first", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    await s.user.replace("Likes", "tea", "oolong", PERSON);
    const [second, first] = await s.history();
    expect(first).toMatchObject({ by: { kind: "model", session: "session-1", title: "tea talk" }, op: "add" });
    expect(first!.changes).toEqual([{ file: "USER.md", section: "Likes", position: 0, before: null, after: "## Likes\n- tea\n" }]);
    expect(second).toMatchObject({ by: { kind: "person" }, op: "replace" });
    expect(second!.changes[0]).toMatchObject({ before: "## Likes\n- tea\n", after: "## Likes\n- oolong\n" });
  });

  it("keeps nothing for a write that changes nothing or is refused", async () => {
    const s = await store();
    await s.user.add("Likes", "- tea", MODEL);
    await s.user.add("Likes", "- tea", MODEL);
    // A realistic key (a run of one letter is a placeholder, not a key), built from pieces.
    await s.user.add("Keys", ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5"].join(""), MODEL);
    expect(await s.history()).toHaveLength(1);
    expect(await readFile(s.journal.path, "utf8")).not.toContain("sk-");
  });
});

describe("undoChanges", () => {
  it("puts a section back, and an undo can itself be undone", async () => {
    const s = await store();
    await s.user.add("Family", "- sister Clara", PERSON);
    const id = await entryOf(s.user.add("Likes", "- tea", MODEL));
    const undone = await undoChanges(s, [id], ME);
    expect(undone).toMatchObject({ ok: true, entry: { op: "undo", undoes: [id] } });
    expect(await s.user.read()).toBe("## Family\n- sister Clara\n");
    if (!undone.ok) throw new Error("undo failed");
    expect(await undoChanges(s, [undone.entry.id], ME)).toMatchObject({ ok: true });
    expect(await s.user.read()).toBe("## Family\n- sister Clara\n\n## Likes\n- tea\n");
    // Redone, the change is in effect again: it can be undone again.
    expect(await undoChanges(s, [id], ME)).toMatchObject({ ok: true });
    expect(await s.user.read()).toBe("## Family\n- sister Clara\n");
  });

  it("brings a removed section back where it was", async () => {
    const s = await store();
    await s.user.write("## A\na\n\n## B\nb\n\n## C\nc\n", PERSON);
    const id = await entryOf(s.user.remove("B", MODEL));
    expect(await s.user.read()).toBe("## A\na\n\n## C\nc\n");
    await undoChanges(s, [id], ME);
    expect(await s.user.read()).toBe("## A\na\n\n## B\nb\n\n## C\nc\n");
  });

  it("leaves the file alone and names the later change when the section changed since, then undoes both on request", async () => {
    const s = await store();
    const first = await entryOf(s.user.add("Likes", "- tea", MODEL));
    const second = await entryOf(s.user.replace("Likes", "tea", "oolong", PERSON));
    const refused = await undoChanges(s, [first], ME);
    expect(refused).toMatchObject({ ok: false, reason: "changed-since", id: first });
    if (refused.ok || refused.reason !== "changed-since") throw new Error("expected a refusal");
    expect(refused.later.map((e) => e.id)).toEqual([second]);
    expect(await s.user.read()).toBe("## Likes\n- oolong\n");
    expect(await undoChanges(s, [first, ...refused.later.map((e) => e.id)], ME)).toMatchObject({ ok: true });
    expect(await s.user.read()).toBe("");
  });

  it("undoes a chain: each later change in the way, however long, then the chosen one", async () => {
    const s = await store();
    await s.user.write("## S\ns0\n\n## T\nt0\n", PERSON);
    const e1 = await entryOf(s.user.replace("S", "s0", "s1", MODEL));
    await s.user.write("## S\ns2\n\n## T\nt2\n", PERSON);
    await s.user.replace("T", "t2", "t3", PERSON);
    const first = await undoChanges(s, [e1], ME);
    expect(first).toMatchObject({ ok: false, reason: "changed-since" });
    expect(await undoWithLater(s, e1, ME)).toMatchObject({ ok: true });
    expect(await s.user.read()).toBe("## S\ns0\n\n## T\nt0\n");
  });

  it("undoes changes made in the same millisecond newest first, by the journal's order (two writes of one turn)", async () => {
    // Every entry at one time: Date stands still (at the real time, which the lock compares with its file).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      for (let round = 0; round < 8; round++) {
        const s = await store();
        const first = await entryOf(s.user.add("Likes", "- tea", MODEL));
        const second = await entryOf(s.user.replace("Likes", "tea", "oolong", MODEL));
        const [newest, oldest] = await s.history();
        expect([newest!.id, oldest!.id, newest!.at]).toEqual([second, first, oldest!.at]);
        expect(await undoChanges(s, [first, second], ME)).toMatchObject({ ok: true });
        expect(await s.user.read()).toBe("");
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts a redone change as in effect again", async () => {
    const s = await store();
    const id = await entryOf(s.user.add("Likes", "- tea", MODEL));
    const undo = await undoChanges(s, [id], ME);
    if (!undo.ok) throw new Error("undo failed");
    await undoChanges(s, [undo.entry.id], ME);
    expect(undoable([...(await s.history())].reverse()).map((e) => e.id)).toContain(id);
  });

  it("refuses when the section was edited by hand, naming no change", async () => {
    const s = await store();
    const id = await entryOf(s.user.add("Likes", "- tea", MODEL));
    await writeFile(join(s.dir, "USER.md"), "## Likes\n- tea, edited in an editor\n");
    expect(await undoChanges(s, [id], ME)).toMatchObject({ ok: false, reason: "changed-since", later: [] });
    expect(await s.user.read()).toBe("## Likes\n- tea, edited in an editor\n");
  });

  it("takes back a whole-file edit and a move to the archive", async () => {
    const s = await store();
    await s.memory.write("## A\na\n\n## B\nb\n", PERSON);
    const edit = await entryOf(s.memory.write("## A\nA!\n\n## C\nc\n", PERSON));
    await undoChanges(s, [edit], ME);
    expect(await s.memory.read()).toBe("## A\na\n\n## B\nb\n");
    await s.daily("2026-11-20").write("## 09:00 · early\nA\n", PERSON);
    await s.archiveOldDailies(new Date("2026-12-02T12:00:00Z"));
    const [move] = await s.history();
    expect(move).toMatchObject({ op: "archive", by: { kind: "system" } });
    await undoChanges(s, [move!.id], ME);
    expect(await s.daily("2026-11-20").read()).toBe("## 09:00 · early\nA\n");
  });

  it("says so for an unknown change", async () => {
    const s = await store();
    expect(await undoChanges(s, ["nope"], ME)).toEqual({ ok: false, reason: "not-found", id: "nope" });
  });
});

describe("the journal's retention", () => {
  it("keeps the newest changes within the count and the age, compacting as it goes", async () => {
    const home = await makeTempHome();
    const s = MemoryStore.forUser(home, "43", { defaultTimeZone: "UTC", journalRetention: { entries: 5, days: 180 } });
    for (let i = 0; i < 60; i++) await s.memory.add("Log", `- ${i}`, MODEL);
    const kept = await s.history();
    // Compacted at the 50th write to the newest 5, then 10 more.
    expect(kept).toHaveLength(15);
    expect(kept[0]!.changes[0]!.after).toContain("- 59");
    const old = MemoryStore.forUser(home, "44", { defaultTimeZone: "UTC", journalRetention: { entries: 1000, days: 1 } });
    await old.memory.add("Log", "- ancient", MODEL);
    await old.journal.compact({ entries: 1000, days: 1 }, new Date(Date.now() + 3 * 86_400_000));
    expect(await old.history()).toEqual([]);
  });
});

describe("undo, line by line, refuses rather than guess", () => {
  async function twoChanges(start: string, first: string, second: string) {
    const s = await store();
    await s.user.write(start, PERSON);
    const x = await s.user.write(first, PERSON);
    const later = await s.user.write(second, PERSON);
    if (!x.ok || !later.ok) throw new Error("not written");
    return { s, x: x.value.entryId!, later: later.value.entryId! };
  }

  it("does not take back a later change's identical lines elsewhere in the section when its own place changed", async () => {
    const { s, x, later } = await twoChanges("## S\n- a\n- x\n- b\n- c\n", "## S\n- a\n- y\n- b\n- c\n", "## S\n- a!\n- y\n- b\n- c\n- a\n- y\n- b\n");
    expect(await undoChanges(s, [x], ME)).toMatchObject({ ok: false, reason: "changed-since", later: [{ id: later }] });
    expect(await s.user.read()).toBe("## S\n- a!\n- y\n- b\n- c\n- a\n- y\n- b\n");
  });

  it("refuses when taking a change back would turn a line into a heading (a fence it added, with a heading written inside since)", async () => {
    const { s, x } = await twoChanges("## S\na\nb\nc\nd\n", "## S\n```\na\nb\nc\nd\n```\n", "## S\n```\na\nb\n## y\nc\nd\n```\n");
    expect(await undoChanges(s, [x], ME)).toMatchObject({ ok: false, reason: "changed-since" });
    expect(await s.user.read()).toBe("## S\n```\na\nb\n## y\nc\nd\n```\n");
  });

  it("takes back its own lines and keeps a later change's, at either end of the section", async () => {
    const { s, x } = await twoChanges("## S\n- a\n- b\n- c\n- d\n- e\n", "## S\n- a\n- b\n- c\n- d\n- e\n- f\n", "## S\n- A\n- b\n- c\n- d\n- e\n- f\n");
    expect(await undoChanges(s, [x], ME)).toMatchObject({ ok: true });
    expect(await s.user.read()).toBe("## S\n- A\n- b\n- c\n- d\n- e\n");
  });
});
