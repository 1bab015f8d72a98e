import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sayIn } from "../../../src/lib/locale.js";
import { applyImport, importRoom, planImport } from "../../../src/memory/import.js";
import { PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { holdInFlight, roomFor, storageUsage } from "../../../src/memory/storage-quota.js";
import { importRefusal } from "../../../src/present/import-preview.js";
import { storageFullTurnLine, storageLine } from "../../../src/present/storage-lines.js";
import { makeTempHome } from "../../helpers/temp-home.js";

async function store(quotaBytes?: number) {
  return MemoryStore.forUser(await makeTempHome(), "42", { defaultTimeZone: "UTC", ...(quotaBytes !== undefined ? { quotaBytes } : {}) });
}

/** A conversation file of about `chars` characters, in lines an import takes. */
const conversation = (chars: number) => `# tea\n\n## 🧑 Mei\n${"tea and cake ".repeat(Math.ceil(chars / 13)).replace(/(.{130})/g, "$1\n")}\n`;

describe("a person's storage", () => {
  it("counts every file of their folder, their recall index and its side files, and what exports hold in flight; a link as itself", async () => {
    const s = await store(1_000_000);
    await s.user.write("## Likes\n- tea\n", PERSON);
    await mkdir(s.conversationsDir, { recursive: true });
    await writeFile(join(s.conversationsDir, "2026-12-01-tea-aaaaaaaa.md"), "x".repeat(10_000));
    await mkdir(join(s.dir, "pending"), { recursive: true });
    await writeFile(join(s.dir, "pending", "import-0123456789ab.upload"), "y".repeat(5_000));
    await mkdir(join(s.home, "index"), { recursive: true });
    await writeFile(s.indexPath, "z".repeat(3_000));
    await writeFile(`${s.indexPath}-wal`, "w".repeat(700));
    // Another person's index is theirs.
    await writeFile(join(s.home, "index", "43.sqlite"), "o".repeat(50_000));
    const outside = join(s.home, "elsewhere.bin");
    await writeFile(outside, "e".repeat(80_000));
    await symlink(outside, join(s.dir, "link"));
    const files = (await readdir(s.dir, { recursive: true })).length;
    const { usedBytes, quotaBytes } = await storageUsage(s);
    const journal = (await readFile(s.journal.path)).length;
    const user = "## Likes\n- tea\n".length;
    const linkSize = outside.length;
    expect(files).toBeGreaterThan(4);
    expect(quotaBytes).toBe(1_000_000);
    expect(usedBytes).toBe(user + journal + 10_000 + 5_000 + 3_000 + 700 + linkSize);
    const release = holdInFlight(s, 2_000_000);
    expect((await storageUsage(s)).usedBytes).toBe(usedBytes + 2_000_000);
    expect(await roomFor(s, 1)).toMatchObject({ kind: "storage-full", quotaBytes: 1_000_000, addsBytes: 1 });
    release();
    release();
    expect((await storageUsage(s)).usedBytes).toBe(usedBytes);
    expect(await roomFor(s, 1)).toBeUndefined();
    expect(await roomFor(s, 1_000_000 - usedBytes + 1)).toMatchObject({ kind: "storage-full", usedBytes });
  });

  it("counts a folder of more files than it asks about at once the same way: every file, a link as itself", async () => {
    const s = await store(1_000_000);
    await mkdir(s.conversationsDir, { recursive: true });
    for (let i = 0; i < 150; i++) await writeFile(join(s.conversationsDir, `2026-12-01-tea-${String(i).padStart(8, "0")}.md`), "x".repeat(i + 1));
    const outside = join(s.home, "elsewhere.bin");
    await writeFile(outside, "e".repeat(80_000));
    await symlink(outside, join(s.dir, "link"));
    expect((await storageUsage(s)).usedBytes).toBe((150 * 151) / 2 + outside.length);
  });

  it("counts nothing for a new person's missing folder but their index, and never takes a folder that cannot be listed for an empty one", async () => {
    const s = await store(1_000_000);
    expect((await storageUsage(s)).usedBytes).toBe(0);
    await mkdir(join(s.home, "index"), { recursive: true });
    await writeFile(s.indexPath, "z".repeat(3_000));
    expect((await storageUsage(s)).usedBytes).toBe(3_000);
    // Something that is not a folder where the folder should be: the listing fails, and so does the measure.
    await mkdir(join(s.home, "users"), { recursive: true });
    await writeFile(s.dir, "not a folder");
    await expect(storageUsage(s)).rejects.toThrow(/ENOTDIR/);
  });

  it("refuses an import that would go past the quota, at the preview and again under the lock, changing nothing; one that fits or frees room goes", async () => {
    const s = await store(60_000);
    await mkdir(s.conversationsDir, { recursive: true });
    await writeFile(join(s.conversationsDir, "2026-12-01-old-aaaaaaaa.md"), conversation(30_000));
    const big = { "conversations/2026-12-02-big-bbbbbbbb.md": conversation(40_000), "USER.md": "## Likes\n- tea\n" };
    const plan = await planImport(s, big);
    const full = await importRoom(s, plan);
    expect(full).toMatchObject({ kind: "storage-full", quotaBytes: 60_000 });
    expect(full!.usedBytes).toBeGreaterThanOrEqual(30_000);
    expect(full!.addsBytes).toBeGreaterThanOrEqual(40_000);
    expect(await applyImport(s, big)).toEqual({ full: expect.objectContaining({ kind: "storage-full" }) });
    expect(await readdir(s.conversationsDir)).toEqual(["2026-12-01-old-aaaaaaaa.md"]);
    expect(await s.user.read()).toBe("");
    // Replacing the old conversation with a shorter copy frees room: it goes even with the folder near full.
    const smaller = { "conversations/2026-12-01-old-aaaaaaaa.md": conversation(100) };
    expect(await importRoom(s, await planImport(s, smaller))).toBeUndefined();
    expect(await applyImport(s, smaller)).toHaveProperty("plan");
    const fits = { "conversations/2026-12-02-big-bbbbbbbb.md": conversation(40_000) };
    expect(await applyImport(s, fits)).toHaveProperty("plan");
  });

  it("says how much is used, of how much, what the import would add and what to delete, in English and Chinese", async () => {
    const full = { kind: "storage-full" as const, usedBytes: 98_234_567, quotaBytes: 100_000_000, addsBytes: 9_100_000 };
    expect(importRefusal("agentkit-memory.json", full, sayIn("en-US"))).toBe(
      "agentkit-memory.json was not imported. Your memory here is full: it uses 98.3 MB of its 100 MB, and this would add 9.1 MB. Delete conversations you no longer need (the web page's Conversations, from /memory web) or forget words with /memory forget, then try again; the bot's operator can raise STORAGE_QUOTA_MB. Nothing was changed.",
    );
    expect(importRefusal("agentkit-memory.json", full, sayIn("zh-CN"))).toBe(
      "agentkit-memory.json 没有导入。你在这里的记忆空间已满：已用 98.3 MB，共 100 MB，这次会再增加 9.1 MB。请删除不再需要的对话（网页的“对话”，从 /memory web 打开），或用 /memory forget 遗忘某些词，然后重试；机器人的运营者可以调高 STORAGE_QUOTA_MB。没有做任何改动。",
    );
    expect(storageFullTurnLine(full, sayIn("zh-CN"), { files: true })).toBe(
      "💾 你在这里的记忆空间已满（已用 98.3 MB，共 100 MB）：我仍会回答，但这次对话不会逐字保存，你发送的文件我也不会读取。请删除不再需要的对话（网页的“对话”，从 /memory web 打开），或用 /memory forget 遗忘某些词，然后重试；机器人的运营者可以调高 STORAGE_QUOTA_MB。",
    );
    expect(storageFullTurnLine(full, sayIn("zh-CN"), { files: false })).not.toContain("文件我也不会读取");
    expect(storageLine({ usedBytes: 12_345, quotaBytes: 100_000_000 }, sayIn("en-US"))).toBe("13 KB of 100 MB");
    expect(storageLine({ usedBytes: 12_345_678, quotaBytes: 100_000_000 }, sayIn("zh-CN"))).toBe("已用 12.4 MB，共 100 MB");
  });
});
