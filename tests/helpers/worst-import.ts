import { IMPORT_LIMITS } from "../../src/memory/import-bundle.js";

/**
 * Close to the upload limit, made of what costs the most to read and check: escapes in the
 * JSON, memory files at their caps, archived days full of sections (each one diffed and
 * journalled), conversations at the per-file limit with lines at the line limit, long runs of
 * blanks, card-like digits for the secret check, Chinese for the code-point counts.
 */
export function worstCaseBundle(): string {
  const files: Record<string, string> = {
    "SOUL.md": `## Persona\n${"calm and kind ".repeat(140)}\n`.slice(0, 1990),
    "USER.md": `## Likes\n${"- tea\n".repeat(230)}`.slice(0, 1390),
    "MEMORY.md": `## Notes\n${"中文笔记 ".repeat(430)}\n`,
    "settings.json": '{"timezone": "Asia/Shanghai"}',
  };
  const sections = (body: (i: number) => string) =>
    Array.from({ length: IMPORT_LIMITS.sections }, (_, i) => `## ${i} · entry${body(i)}`)
      .join("")
      .slice(0, 950_000);
  const manySections = sections((i) => `\n${"\tline\n".repeat(100)}${i}\n`);
  const longBlanks = sections(() => `${" ".repeat(300)}x\n${" ".repeat(300)}y\n${"\n".repeat(300)}`);
  files["daily/archive/2026-01-01.md"] = manySections;
  files["daily/archive/2026-01-02.md"] = manySections.replaceAll("line", "lime");
  files["daily/archive/2026-01-03.md"] = longBlanks;
  files["daily/archive/2026-01-04.md"] = longBlanks.replaceAll("x", "z");
  const longLine = `${"4111 1111 1111 1111 ".repeat(IMPORT_LIMITS.lineChars / 20 - 1)}\n`;
  const conversation = [
    "# worst\n\n## 🧑 Mei\n",
    `${" ".repeat(5000)}x\n`,
    longLine.repeat(20),
    "\n\n\n\n\n".repeat(20_000),
    "你好，世界\n".repeat(20_000),
  ].join("");
  const encoded = (label: string, text: string) => Buffer.byteLength(JSON.stringify(label)) + Buffer.byteLength(JSON.stringify(text)) + 2;
  let total = Object.entries(files).reduce((sum, [label, text]) => sum + encoded(label, text), 100);
  for (let i = 0; total < IMPORT_LIMITS.bytes - 100_000; i++) {
    const label = `conversations/2026-01-${String(i + 1).padStart(2, "0")}-worst-${i}aaaaaaa.md`;
    // The last one takes what room is left.
    const text =
      encoded(label, conversation) <= IMPORT_LIMITS.bytes - 100_000 - total ? conversation : conversation.slice(0, (IMPORT_LIMITS.bytes - 100_000 - total) / 2);
    files[label] = text;
    total += encoded(label, text);
  }
  return JSON.stringify({ format: "agentkit-memory", version: 1, exportedAt: "2026-12-02T10:00:00Z", files });
}
