import { AttachmentBuilder } from "discord.js";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { dateOfLog, type MemoryStore } from "../../memory/memory-store.js";

/** Discord allows 10 attachments a message: the main files apart, all daily logs in one. */
export async function exportFiles(memory: MemoryStore): Promise<AttachmentBuilder[]> {
  const files: AttachmentBuilder[] = [];
  for (const name of ["SOUL.md", "USER.md", "MEMORY.md", "settings.json"]) {
    const text = await readFile(join(memory.dir, name), "utf8").catch(() => undefined);
    if (text !== undefined) files.push(new AttachmentBuilder(Buffer.from(text), { name }));
  }
  const logs: string[] = [];
  for (const folder of [memory.archiveDir, join(memory.dir, "daily")]) {
    const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => dateOfLog(n) !== undefined).sort();
    for (const name of names) logs.push(`# ${name.slice(0, 10)}\n\n${await readFile(join(folder, name), "utf8")}`);
  }
  if (logs.length > 0) files.push(new AttachmentBuilder(Buffer.from(logs.join("\n")), { name: "daily-logs.md" }));
  return files;
}
