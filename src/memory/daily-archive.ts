import { parseSections } from "./sections.js";

/**
 * The parts of a day's log (preamble, `## ` entries) that its archive lacks, ready to append.
 * A heading names one entry within a day (appendDailyEntry keeps them unique), so an entry whose
 * heading is archived is that entry again or the model's condensed rewrite: the original stays, once.
 */
export function unarchived(archive: string, log: string): string {
  const archived = new Set(parseSections(archive).sections.map((s) => s.name));
  const doc = parseSections(log);
  const preamble = comparable(doc.preamble);
  const parts = [
    ...(preamble === "" || comparable(archive).includes(preamble) ? [] : [doc.preamble]),
    ...doc.sections.filter((s) => !archived.has(s.name)).map((s) => s.heading + s.body),
  ].map((part) => (part.endsWith("\n") ? part : `${part}\n`));
  if (parts.length === 0) return "";
  return (archive === "" || archive.endsWith("\n") ? "" : "\n") + parts.join("");
}

/** Text as compared for the archive: line endings and trailing whitespace do not count. */
function comparable(text: string): string {
  return withoutTrailingBlanks(text.split("\r\n").join("\n")).trim();
}

const isLineEnd = (code: number) => code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
const isBlank = (code: number) => code === 0x20 || code === 0x09;

/**
 * Each line without the spaces and tabs it ends with. A loop: /[ \t]+$/gm took quadratic
 * time on a long run of blanks that a word follows.
 */
function withoutTrailingBlanks(text: string): string {
  const kept: string[] = [];
  let lineStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !isLineEnd(text.charCodeAt(i))) continue;
    let end = i;
    while (end > lineStart && isBlank(text.charCodeAt(end - 1))) end--;
    kept.push(text.slice(lineStart, end), text.slice(i, i + 1));
    lineStart = i + 1;
  }
  return kept.join("");
}
