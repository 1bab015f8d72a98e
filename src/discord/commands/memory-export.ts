import { AttachmentBuilder } from "discord.js";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { BUNDLE_NAME, dateOfConversation, dateOfLog, exportBundle, type MemoryStore, WHOLE_FILE_LABELS } from "../../memory/index.js";

/** Stays under Discord's smallest upload limit (10 MiB); a longer history comes in parts. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Discord allows 10 attachments a message: the main files apart, all daily logs in one, all
 * archived conversations in one (or a few parts), each conversation after a comment naming its file.
 */
export async function exportFiles(memory: MemoryStore): Promise<AttachmentBuilder[]> {
  const files: AttachmentBuilder[] = [];
  for (const name of [...WHOLE_FILE_LABELS, "settings.json"]) {
    const text = await readFile(join(memory.dir, name), "utf8").catch(() => undefined);
    if (text !== undefined) files.push(new AttachmentBuilder(Buffer.from(text), { name }));
  }
  const logs: string[] = [];
  for (const folder of [memory.archiveDir, join(memory.dir, "daily")]) {
    const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => dateOfLog(n) !== undefined).sort();
    for (const name of names) logs.push(`# ${name.slice(0, 10)}\n\n${await readFile(join(folder, name), "utf8")}`);
  }
  if (logs.length > 0) files.push(new AttachmentBuilder(Buffer.from(logs.join("\n")), { name: "daily-logs.md" }));
  const names = (await readdir(memory.conversationsDir).catch(() => [] as string[])).filter((n) => dateOfConversation(n) !== undefined).sort();
  const parts: string[][] = [[]];
  let bytes = 0;
  for (const name of names) {
    const text = `<!-- conversations/${name} -->\n${await readFile(join(memory.conversationsDir, name), "utf8")}\n`;
    if (bytes > 0 && bytes + Buffer.byteLength(text) > PART_BYTES) {
      parts.push([]);
      bytes = 0;
    }
    parts.at(-1)!.push(text);
    bytes += Buffer.byteLength(text);
  }
  // One file that /memory import takes back whole, when it fits in an upload.
  const exported = await exportBundle(memory);
  const bundle = Buffer.from(JSON.stringify(exported));
  if (Object.keys(exported.files).length > 0 && bundle.byteLength <= PART_BYTES) files.unshift(new AttachmentBuilder(bundle, { name: BUNDLE_NAME }));
  if (names.length > 0) {
    parts.forEach((part, i) =>
      files.push(new AttachmentBuilder(Buffer.from(part.join("")), { name: parts.length === 1 ? "conversations.md" : `conversations-${i + 1}.md` })),
    );
  }
  return files;
}
