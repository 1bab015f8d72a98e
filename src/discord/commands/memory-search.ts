import { escapeMarkdown } from "discord.js";
import type { MemoryStore } from "../../memory/index.js";
import { countChars, cutChars } from "../../lib/text.js";
import { emptySearchLine, hitSource, rangeHeading, rangeLabel, readSearchRange } from "../../present/search-range.js";

const RESULTS = 5;
const TEXT_CHARS = 300;
const MESSAGE_CHARS = 2000;

type Say = (english: string, chinese: string) => string;

function quoted(text: string, chars: number): string {
  return `> ${cutChars(text, chars).trim().replace(/\n+/g, "\n> ")}`;
}

/**
 * The ephemeral answer to /memory search: the caller's best matches with their dates and origin;
 * with since/until only those days, and with no words the summaries of those days.
 */
export async function searchAnswer(
  memory: MemoryStore,
  query: string,
  say: Say,
  dates: { since: string | null; until: string | null } = { since: null, until: null },
): Promise<string> {
  const reading = readSearchRange(dates.since, dates.until, say);
  if (!reading.ok) return escapeMarkdown(reading.line);
  const label = rangeLabel(reading.range, say);
  if (query.trim() === "" && !label) return emptySearchLine(say, "since/until");
  const hits = await memory.search(query, { limit: RESULTS, ...reading.range });
  const shown = escapeMarkdown(query.trim());
  const count = say(`${hits.length} result${hits.length === 1 ? "" : "s"}`, `${hits.length} 条结果`);
  if (hits.length === 0) {
    if (shown === "") return say(`Nothing in your memory ${label}.`, `你的记忆中没有 ${label} 的内容。`);
    return label
      ? say(`Nothing found for “${shown}” ${label} in your memory.`, `在你的记忆中没有找到 ${label} 的“${shown}”。`)
      : say(`Nothing found for “${shown}” in your memory.`, `在你的记忆中没有找到“${shown}”。`);
  }
  const title = shown === "" ? rangeHeading(reading.range, say)! : say(`Search: “${shown}”`, `搜索：“${shown}”`);
  const header = [`**${title}**`, ...(shown !== "" && label ? [label] : []), count].join(" · ");
  // Long results are cut shorter until the whole answer fits in one Discord message.
  for (let chars = TEXT_CHARS; ; chars = Math.floor(chars * 0.7)) {
    const entries = hits.map((hit, i) => `${i + 1}. **${hit.date}** · ${hitSource(hit, say, escapeMarkdown(hit.title))}\n${quoted(hit.text, chars)}`);
    const answer = [header, ...entries].join("\n\n");
    if (countChars(answer) <= MESSAGE_CHARS || chars < 40) return [...answer].slice(0, MESSAGE_CHARS).join("");
  }
}
