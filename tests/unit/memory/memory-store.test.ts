import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { makeTempHome } from "../../helpers/temp-home.js";
import { contentHash, PERSON } from "../../../src/memory/memory-file.js";
import { undoChange } from "../../../src/memory/undo.js";
import { settleProposal } from "../../../src/memory/settle-proposal.js";

const at2330utc = new Date("2026-12-01T23:30:00Z");

describe("a missing SOUL.md: the default persona, written only at its first change", () => {
  it("reads as the built-in persona and writes nothing, in the snapshot and everywhere else", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { locale: "en-US" });
    const soul = await s.soul.read();
    expect(soul).toContain("## Name\nAgentKit");
    expect(soul).toMatch(/Professional, friendly, attentive to detail/);
    expect((await s.snapshot(at2330utc)).soul).toBe(soul);
    expect(await s.soul.usage()).toEqual({ used: [...soul].length, cap: 2000 });
    expect(await s.soul.readIfExists()).toBeUndefined();
    await expect(readdir(s.dir)).rejects.toThrow(/ENOENT/);
  });

  it("is in the person's chosen language, else in the store's", async () => {
    const home = await makeTempHome();
    expect(await MemoryStore.forUser(home, "7", { locale: "zh-CN" }).soul.read()).toMatch(/## 名字\nAgentKit[\s\S]*## 性格\n专业、友好、注重细节/);
    expect(await MemoryStore.forUser(home, "7").soul.read()).toContain("## Name\nAgentKit");
    await MemoryStore.forUser(home, "7").saveSettings({ locale: "zh-CN" });
    expect(await MemoryStore.forUser(home, "7", { locale: "en-US" }).soul.read()).toContain("## 名字\nAgentKit");
  });

  it("is the operator's $AGENTKIT_HOME/SOUL.md when present", async () => {
    const home = await makeTempHome();
    await writeFile(join(home, "SOUL.md"), "## Name\nOperator bot\n");
    const s = MemoryStore.forUser(home, "7", { locale: "zh-CN" });
    expect(await s.soul.read()).toBe("## Name\nOperator bot\n");
    expect((await s.snapshot(at2330utc)).soul).toBe("## Name\nOperator bot\n");
  });

  it("is written at the first change, as AgentKit's own line before the writer's; an undo goes back to it", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { locale: "en-US" });
    const model = { level: "tool" as const, by: { kind: "model" as const, session: "s1" } };
    const added = await s.soul.add("Speaking style", "Uses short sentences.", model);
    expect(added.ok).toBe(true);
    const written = await readFile(join(s.dir, "SOUL.md"), "utf8");
    expect(written).toMatch(/## Name\nAgentKit\n[\s\S]*## Speaking style\nConcise and clear.\nUses short sentences.\n/);
    const [change, persona] = await s.history();
    expect(persona).toMatchObject({ by: { kind: "system", reason: "default persona" }, op: "persona" });
    expect(change).toMatchObject({ by: { kind: "model" }, op: "add" });
    expect(change!.changes).toHaveLength(1);
    expect(change!.changes[0]).toMatchObject({ file: "SOUL.md", section: "Speaking style" });
    expect((await undoChange(s, change!.id, PERSON.by)).ok).toBe(true);
    expect(await s.soul.readIfExists()).toBe(await MemoryStore.forUser(s.home, "7", { locale: "en-US" }).defaultSoul());
  });

  it("a dry run or a refused change writes nothing", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7");
    const model = { level: "tool" as const, by: { kind: "model" as const, session: "s1" } };
    expect((await s.soul.add("Name", "Mochi", model, { dryRun: true })).ok).toBe(true);
    expect((await s.soul.replace("Name", "not there", "Mochi", model)).ok).toBe(false);
    expect(await s.soul.readIfExists()).toBeUndefined();
    expect(await s.history()).toEqual([]);
  });

  it("emptied, it stays the default: nothing is written or journalled", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7");
    const emptied = await s.soul.write("", PERSON, { ifUnchanged: contentHash(await s.soul.read()) });
    expect(emptied).toMatchObject({ ok: true, value: { changed: false } });
    expect(await s.soul.readIfExists()).toBeUndefined();
    expect(await s.history()).toEqual([]);
  });

  it("a proposal saved from another screen is made from the default of the session that proposed it", async () => {
    const home = await makeTempHome();
    const chinese = MemoryStore.forUser(home, "7", { locale: "zh-CN" });
    const proposal = await chinese.propose({
      session: "s1",
      title: "t",
      tool: "memory_replace",
      file: "soul",
      section: "说话风格",
      oldText: "简洁清晰，用中文回答。",
      newText: "多用短句。",
      locale: "zh-CN",
    });
    const settled = await settleProposal(MemoryStore.forUser(home, "7", { locale: "en-US" }), proposal.id, true);
    expect(settled.kind).toBe("saved");
    expect(await chinese.soul.readIfExists()).toMatch(/^## 名字\nAgentKit\n[\s\S]*## 说话风格\n多用短句。\n$/);
    const [change, persona] = await chinese.history();
    expect(Date.parse(change!.at)).toBeGreaterThan(Date.parse(persona!.at));
  });

  it("a person's whole-file edit made from the default replaces it", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7");
    const before = await s.soul.read();
    const saved = await s.soul.write("## Name\nMochi\n", PERSON, { ifUnchanged: contentHash(before) });
    expect(saved.ok).toBe(true);
    expect(await s.soul.read()).toBe("## Name\nMochi\n");
  });
});

describe("time zones and snapshots", () => {
  it("uses the person's zone: 23:30 UTC on 2026-12-01 is 2026-12-02 in Asia/Shanghai", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "UTC" });
    await s.saveSettings({ timezone: "Asia/Shanghai" });
    await s.daily("2026-11-30").write("## 10:00 · too old\nold\n", PERSON);
    await s.daily("2026-12-01").write("## 09:00 · yesterday\ny\n", PERSON);
    await s.daily("2026-12-02").write("## 07:00 · today\nt\n", PERSON);
    const snap = await s.snapshot(at2330utc);
    expect(snap.localDate).toBe("2026-12-02");
    expect(snap.localTime).toBe("07:30");
    expect(snap.timeZone).toBe("Asia/Shanghai");
    expect(snap.dailies.map((d) => d.date)).toEqual(["2026-12-01", "2026-12-02"]);
    const today = s.file("daily", at2330utc);
    expect(today.label).toBe("daily/2026-12-02.md");
  });

  it("falls back to AGENTKIT_TIMEZONE, where the same instant is still 2026-12-01", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "America/New_York" });
    const snap = await s.snapshot(at2330utc);
    expect(snap.localDate).toBe("2026-12-01");
    expect(snap.localTime).toBe("18:30");
  });

  it("refuses an unknown zone name with its kind and value (each front end words it) and writes nothing", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7");
    const result = await s.saveSettings({ timezone: "Mars/Olympus" });
    expect(result).toEqual({ ok: false, error: { problem: "timezone", value: "Mars/Olympus" } });
    expect(s.readSettings()).toEqual({});
  });

  it("warns and uses the default zone when settings.json was hand-edited to a bad zone", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "UTC" });
    await mkdir(s.dir, { recursive: true });
    await writeFile(join(s.dir, "settings.json"), '{"timezone":"Nowhere/Land"}');
    const snap = await s.snapshot(at2330utc);
    expect(snap.timeZone).toBe("UTC");
    expect(snap.warnings[0]).toMatch(/Nowhere\/Land/);
  });

  it("snapshots an empty person as empty files and the default persona", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "UTC" });
    const snap = await s.snapshot(at2330utc);
    expect([snap.soul, snap.user, snap.memory, snap.dailies]).toEqual([s.defaultSoul(), "", "", []]);
  });
});

describe("daily logs", () => {
  it("refuses a date that is not yyyy-MM-dd before building a path", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7");
    expect(() => s.daily("../../222/USER")).toThrow(/is not a date/);
    expect(s.daily("2026-12-02").label).toBe("daily/2026-12-02.md");
  });
});

describe("archiveOldDailies", () => {
  it("moves logs older than yesterday to daily/archive/ with their bytes, keeping recent ones", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "UTC" });
    const old = "## 10:00 · old\r\nbytes 😺\r\n";
    await s.daily("2026-11-28").write(old, PERSON);
    await s.daily("2026-11-30").write("## x\nx\n", PERSON);
    await s.daily("2026-12-01").write("## y\ny\n", PERSON);
    await s.daily("2026-12-02").write("## z\nz\n", PERSON);
    const moved = await s.archiveOldDailies(new Date("2026-12-02T12:00:00Z"));
    expect(moved).toEqual(["2026-11-28", "2026-11-30"]);
    expect((await readdir(join(s.dir, "daily"))).sort()).toEqual(["2026-12-01.md", "2026-12-02.md", "archive"]);
    expect(await readFile(join(s.archiveDir, "2026-11-28.md"), "utf8")).toBe(old);
  });

  it("appends to an archive that already exists for that day instead of replacing it", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "UTC" });
    await s.serialize(() => s.commit({ kind: "system", reason: "test" }, "archive", [s.archiveWrite("2026-11-20", "## early\nA\n")]));
    await s.daily("2026-11-20").write("## late\nB\n", PERSON);
    await s.archiveOldDailies(new Date("2026-12-02T12:00:00Z"));
    expect(await readFile(join(s.archiveDir, "2026-11-20.md"), "utf8")).toBe("## early\nA\n## late\nB\n");
  });

  it("moves into an existing archive only the entries it does not hold yet", async () => {
    const s = MemoryStore.forUser(await makeTempHome(), "7", { defaultTimeZone: "UTC" });
    await s.serialize(() =>
      s.commit({ kind: "system", reason: "test" }, "archive", [s.archiveWrite("2026-11-20", "Notes of the day.\r\n## 09:00 · early\r\nA  \r\n")]),
    );
    await s.daily("2026-11-20").write("Notes of the day.\n## 09:00 · early\nA\n\n## 10:00 · late\nB\n", PERSON);
    await s.archiveOldDailies(new Date("2026-12-02T12:00:00Z"));
    expect(await readFile(join(s.archiveDir, "2026-11-20.md"), "utf8")).toBe("Notes of the day.\r\n## 09:00 · early\r\nA  \r\n## 10:00 · late\nB\n");
    expect(await readdir(join(s.dir, "daily"))).toEqual(["archive"]);
  });
});
