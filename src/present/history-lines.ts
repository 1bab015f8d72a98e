import type { JournalEntry, SectionChange } from "../memory/journal.js";
import { cutChars } from "../lib/text.js";
import { localDate, localTime } from "../lib/time.js";
import type { Say } from "../lib/locale.js";

const QUOTE_CHARS = 40;

const REASONS: Record<string, string> = {
  "summary of a conversation": "对话摘要",
  "condensed the day's log": "压缩当天日志",
  "moved old logs to the archive": "归档旧日志",
  "default persona": "默认人设",
  "tidy-up": "夜间整理",
};

const ENGLISH_REASONS: Record<string, string> = { "tidy-up": "the nightly tidy-up" };

export function who(entry: JournalEntry, say: Say): string {
  switch (entry.by.kind) {
    case "model":
      // A tidy-up's proposal the person saved is journalled as the model in the tidy-up's session.
      if (entry.by.session === "tidy-up") return say(ENGLISH_REASONS["tidy-up"]!, REASONS["tidy-up"]!);
      return entry.by.title ? say(`AgentKit in “${entry.by.title}”`, `助手（“${entry.by.title}”）`) : say("AgentKit", "助手");
    case "person":
      // A file several people write (a server's notes) names each of them; Discord shows the mention as their name.
      if (entry.by.userId) return `<@${entry.by.userId}>`;
      return entry.by.via === "web" ? say("you, on the web", "你（网页）") : say("you", "你");
    case "system":
      return say(ENGLISH_REASONS[entry.by.reason] ?? entry.by.reason, REASONS[entry.by.reason] ?? entry.by.reason);
  }
}

/** The lines of a section without its heading, bullets' "- " dropped. */
function lines(text: string | null): string[] {
  if (text === null) return [];
  return text
    .split("\n")
    .filter((line) => !/^## /.test(line))
    .map((line) => line.replace(/^\s*[-*]\s+/, "").trim())
    .filter(Boolean);
}

const quote = (text: string) => `“${cutChars(text, QUOTE_CHARS)}”`;

/** `USER.md › Preferences: + "prefers oolong"`, `− removed`, `~ "green tea" → "oolong"`. */
export function describeChange(change: SectionChange, say: Say): string {
  const where = change.section ? `${change.file} › ${change.section}` : change.file;
  const before = lines(change.before);
  const after = lines(change.after);
  if (change.before === null) return `${where}: + ${quote(after.join(" / "))}`;
  if (change.after === null) return `${where}: − ${say("removed", "删除")}${before.length ? ` ${quote(before.join(" / "))}` : ""}`;
  // Sets, not includes(): a section of many lines (an import) must not take lines × lines.
  const kept = new Set(after);
  const had = new Set(before);
  const gone = before.filter((line) => !kept.has(line));
  const added = after.filter((line) => !had.has(line));
  if (gone.length === 0 && added.length > 0) return `${where}: + ${quote(added.join(" / "))}`;
  if (added.length === 0 && gone.length > 0) return `${where}: − ${quote(gone.join(" / "))}`;
  return `${where}: ~ ${quote(gone.join(" / "))} → ${quote(added.join(" / "))}`;
}

/** The text without blank lines and line-end blanks. Line by line: /[ \t]+$/gm retries at every blank of a long inner run (quadratic). */
function blankless(text: string | null): string | null {
  if (text === null) return null;
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line !== "")
    .join("\n")
    .trim();
}

/** An entry's changes that say what happened: a section that only gained or lost a blank line (a neighbour was added) does not. */
export function meaningfulChanges(entry: JournalEntry): SectionChange[] {
  const meaningful = entry.changes.filter((c) => blankless(c.before) !== blankless(c.after));
  return meaningful.length > 0 ? meaningful : entry.changes;
}

/** What an entry did, in one line: its first change, and how many more. */
export function describeEntry(entry: JournalEntry, say: Say, hidden: (change: SectionChange) => boolean = () => false): string {
  const [first, ...rest] = meaningfulChanges(entry);
  if (!first) return entry.op;
  const undo = entry.op === "undo" ? say("↩ undo: ", "↩ 撤销：") : "";
  const more = rest.length > 0 ? say(` (+${rest.length} more)`, `（另有 ${rest.length} 处）`) : "";
  // A private section's words are not shown where others read (a receipt in a public thread).
  const change = hidden(first)
    ? `${first.section ? `${first.file} › ${first.section}` : first.file} 🔒 ${say("(private)", "（私密）")}`
    : describeChange(first, say);
  return `${undo}${change}${more}`;
}

/** `12-02 14:03 · you · USER.md › Likes: + “tea”`, in the person's zone. */
export function historyLine(entry: JournalEntry, zone: string, say: Say): string {
  const at = new Date(entry.at);
  return `${localDate(at, zone).slice(5)} ${localTime(at, zone)} · ${who(entry, say)} · ${describeEntry(entry, say)}`;
}
