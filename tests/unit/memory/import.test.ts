import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyImport, exportBundle, planImport, readImport } from "../../../src/memory/import.js";
import { PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { undoChanges } from "../../../src/memory/undo.js";
import { makeTempHome } from "../../helpers/temp-home.js";

async function two() {
  const home = await makeTempHome();
  return { home, from: MemoryStore.forUser(home, "1", { defaultTimeZone: "UTC" }), to: MemoryStore.forUser(home, "2", { defaultTimeZone: "UTC" }) };
}

describe("export and import", () => {
  it("moves a person's whole memory: files, logs, archive, conversations and settings; one undo takes it back", async () => {
    const { from, to } = await two();
    await from.user.add("Likes", "- oolong", PERSON);
    await from.soul.write("## Name\nMochi\n", PERSON);
    await from.daily("2026-12-01").write("## 10:00 · tea\nTalked tea.\n", PERSON);
    await from.saveSettings({ timezone: "Asia/Shanghai", askBeforeSaving: "profile" });
    await from.writeConversation("2026-12-01-tea-aaaaaaaa.md", { title: "tea", place: "", opened: "", closed: "", sessionId: "a", messages: [{ speaker: "person", name: "Mei", text: "oolong please" }] });
    const bundle = await exportBundle(from);
    expect(Object.keys(bundle.files).sort()).toEqual(["SOUL.md", "USER.md", "conversations/2026-12-01-tea-aaaaaaaa.md", "daily/2026-12-01.md", "settings.json"]);

    await to.user.write("## Old\n- replaced by the import\n", PERSON);
    const files = readImport("agentkit-memory.json", JSON.stringify(bundle));
    if (!files.ok) throw new Error(files.error);
    const plan = planImport(to, files.value);
    expect(Object.fromEntries(plan.files.map((f) => [f.label, f.status]))).toEqual({
      "SOUL.md": "new",
      "USER.md": "changed",
      "conversations/2026-12-01-tea-aaaaaaaa.md": "new",
      "daily/2026-12-01.md": "new",
    });
    const entry = await applyImport(to, plan);
    expect(await to.user.read()).toBe("## Likes\n- oolong\n");
    expect(await readFile(join(to.conversationsDir, "2026-12-01-tea-aaaaaaaa.md"), "utf8")).toContain("oolong please");
    expect(to.readSettings()).toEqual({ timezone: "Asia/Shanghai", askBeforeSaving: "profile" });
    expect(entry?.op).toBe("import");
    expect(await undoChanges(to, [entry!.id], { kind: "person" })).toMatchObject({ ok: true });
    expect(await to.user.read()).toBe("## Old\n- replaced by the import\n");
    expect(await to.soul.read()).toBe("");
  });

  it("takes a single memory file by its name, and refuses anything else with a clear line", async () => {
    const { to } = await two();
    expect(readImport("user.md", "## Likes\n- tea\n")).toEqual({ ok: true, value: { "USER.md": "## Likes\n- tea\n" } });
    expect(readImport("notes.txt", "x")).toEqual({ ok: false, error: "unknown-format" });
    expect(readImport("agentkit-memory.json", "{not json")).toMatchObject({ ok: false });
    void to;
  });

  it("refuses files over their cap, with control characters, or that are not memory files; warns about secrets", async () => {
    const { to } = await two();
    const plan = planImport(to, {
      "USER.md": `## Bio\n${"x".repeat(1500)}\n`,
      "MEMORY.md": "## Notes\nhello\u202eworld\n",
      "SOUL.md": "## Name\nMochi\npassword: hunter22!\n",
      "../../etc/passwd.md": "x",
      "conversations/../../x.md": "x",
      [`conversations/2026-01-01-${"a".repeat(300)}-b.md`]: "x",
    });
    const byLabel = Object.fromEntries(plan.files.map((f) => [f.label, f]));
    expect(byLabel["USER.md"]).toMatchObject({ status: "refused", problem: { kind: "over-cap" }, chars: 1508 });
    expect(byLabel["MEMORY.md"]?.problem).toMatchObject({ kind: "unsafe", detail: expect.stringMatching(/control character/) });
    expect(byLabel["SOUL.md"]).toMatchObject({ status: "new", secret: { kind: "a password" } });
    expect(byLabel["../../etc/passwd.md"]?.problem).toEqual({ kind: "not-memory" });
    expect(byLabel["conversations/../../x.md"]?.problem).toEqual({ kind: "not-memory" });
    expect(byLabel[`conversations/2026-01-01-${"a".repeat(300)}-b.md`]?.problem).toEqual({ kind: "not-memory" });
    expect(Object.keys(plan.writes)).toEqual(["SOUL.md"]);
  });
});
