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
  return text.replace(/\r\n/g, "\n").replace(/[ \t]+$/gm, "").trim();
}
