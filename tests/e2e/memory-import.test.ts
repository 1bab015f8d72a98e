import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PERSON } from "../../src/memory/memory-file.js";
import { componentsOf, slashOption as s, type SlashCommandOption } from "../fakes/fake-discord/index.js";
import { startBot, type BotHarness } from "../helpers/bot-harness.js";

async function memory(h: BotHarness, userId: string, sub: string, options: SlashCommandOption[] = []) {
  const call = h.discord.runSlashCommand({ userId, channelId: h.discord.textChannel.id, name: "memory", options: [s.subcommand(sub, options)] });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content));
}

describe("/memory import", () => {
  it("takes back what /memory export gave: shows what would change, then writes it on Import", async () => {
    const h = await startBot();
    const alice = h.engine.memoryOf(h.discord.alice.id);
    await alice.user.add("Likes", "- oolong", PERSON);
    await alice.daily("2026-12-01").write("## 10:00 · tea\nTalked about tea.\n", PERSON);
    const exported = await memory(h, h.discord.alice.id, "export");
    const bundle = exported.attachments.find((a) => a.filename === "agentkit-memory.json")!;

    await h.engine.memoryOf(h.discord.bob.id).user.write("## Old\n- Bob's old notes\n", PERSON);
    const preview = await memory(h, h.discord.bob.id, "import", [s.attachment("file", { filename: "agentkit-memory.json", data: bundle.text })]);
    expect(preview.ephemeral).toBe(true);
    expect(preview.content).toBe(
      [
        "**Import agentkit-memory.json**: 2 file(s) would be written.",
        "• daily/2026-12-01.md — new, 1 section(s), 33/1000 chars",
        "• USER.md — replaces the current one, 1 section(s), 18/1400 chars",
        "-# Memory files and logs are replaced as a whole; /memory undo takes the import back.",
      ].join("\n"),
    );
    expect(h.discord.cdnRequests.some((r) => r.status === 200)).toBe(true);
    expect(await readFile(join(h.home, "users", h.discord.bob.id, "USER.md"), "utf8")).toBe("## Old\n- Bob's old notes\n");
    const [importButton] = componentsOf(preview);
    expect(importButton?.label).toBe("Import");
    const click = h.discord.clickButton({ userId: h.discord.bob.id, messageId: preview.messageId!, customId: importButton!.customId! });
    await h.discord.waitFor(() => h.discord.interactionResponses(click.id)[0]);
    await h.discord.waitFor(() => h.discord.message(preview.messageId!)?.content.startsWith("Imported"));
    expect(await readFile(join(h.home, "users", h.discord.bob.id, "USER.md"), "utf8")).toBe("## Likes\n- oolong\n");
    expect(await readFile(join(h.home, "users", h.discord.bob.id, "daily", "2026-12-01.md"), "utf8")).toBe("## 10:00 · tea\nTalked about tea.\n");
  });

  it("imports one USER.md, and gives a clear line for what it cannot import, changing nothing", async () => {
    const h = await startBot();
    const one = await memory(h, h.discord.alice.id, "import", [s.attachment("file", { filename: "USER.md", data: "## Work\n- designer\n" })]);
    expect(one.content).toMatch(/^\*\*Import USER\.md\*\*: 1 file\(s\) would be written\.\n• USER\.md — new/);
    const zip = await memory(h, h.discord.alice.id, "import", [s.attachment("file", { filename: "backup.txt", data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00]) })]);
    expect(zip.content).toBe("backup.txt is not UTF-8 text; nothing was changed.");
    const other = await memory(h, h.discord.alice.id, "import", [s.attachment("file", { filename: "notes.txt", data: "hello" })]);
    expect(other.content).toMatch(/^notes\.txt is not something I can import: send the agentkit-memory\.json .* Nothing was changed\.$/);
    const big = await memory(h, h.discord.alice.id, "import", [s.attachment("file", { filename: "agentkit-memory.json", data: Buffer.alloc(9 * 1024 * 1024, 0x20) })]);
    expect(big.content).toBe("agentkit-memory.json is too large to import (9 MB; at most 8 MB). Nothing was changed.");
    await expect(readFile(join(h.home, "users", h.discord.alice.id, "USER.md"), "utf8")).rejects.toThrow();
  });
});
