import type { Say } from "../lib/locale.js";
import { cutChars } from "../lib/text.js";
import type { SourceRef } from "../memory/changes.js";
import { FILE_TABLE } from "../memory/file-kinds.js";

const TITLE_CHARS = 40;

/** One source as a person reads it: “tea talk” (2026-10-03), USER.md › Drinks, the daily log of a date › its entry. */
export function sourceLabel(ref: SourceRef, say: Say): string {
  const title = cutChars(ref.title.replace(/\s+/g, " ").trim(), TITLE_CHARS);
  switch (ref.source) {
    case "conversation":
      return say(`“${title}” (${ref.date})`, `“${title}”（${ref.date}）`);
    case "daily":
      return say(`daily log ${ref.date} › ${title}`, `${ref.date} 的日志 › ${title}`);
    default: {
      const file = FILE_TABLE[ref.source].label;
      return title ? `${file} › ${title}` : file;
    }
  }
}

/** The footer of an answer that rests on memory_search: `🔎 from “tea talk” (2026-10-03) · USER.md › Drinks`. Labels come escaped for where they are shown. */
export function sourcesLine(labels: readonly string[], say: Say): string {
  return say(`🔎 from ${labels.join(" · ")}`, `🔎 来自 ${labels.join(" · ")}`);
}
