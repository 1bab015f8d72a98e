import type { Say } from "../../lib/locale.js";
import { printable } from "../../lib/printable.js";
import { checkSectionName, FILE_KINDS, FILE_TABLE, type FileKind, hasPrivateSections, hasSection, type RecallHit } from "../../memory/index.js";
import { rangeHeading, rangeLabel, readSearchRange } from "../../present/search-range.js";
import { historyText, unknownFile } from "../memory-text.js";
import { proposalCommand, undoCommand } from "./change-commands.js";
import type { ChatContext } from "./context.js";
import { settingsCommand } from "./settings-command.js";
import { cleared, commandHelp, unknownCommand } from "./words.js";
import { privacySetLine, privateLine, tooManyPrivateLine } from "../../present/privacy-lines.js";
import { badSectionNameLine } from "../../present/write-refusal.js";

/** What a line typed at the prompt is: a message for the model, or one of the chat's commands. */
export type Input =
  | { kind: "message"; text: string }
  | { kind: "command"; name: CommandName; args: string[]; rest: string }
  | { kind: "unknown"; command: string };

const COMMAND_NAMES = ["end", "clear", "memory", "search", "history", "undo", "save", "discard", "settings", "private", "help"] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** A slash word, like a command: /usr/bin or "/ 2" are words for the model. */
const SLASH_WORD = /^\/[A-Za-z][A-Za-z0-9_-]*$/;

export function readInput(text: string): Input {
  // "//" sends a message that starts with a slash.
  if (text.startsWith("//")) return { kind: "message", text: text.slice(1) };
  if (!text.startsWith("/") || text.includes("\n")) return { kind: "message", text };
  const head = text.split(/\s/, 1)[0]!;
  if (!SLASH_WORD.test(head)) return { kind: "message", text };
  const name = head.slice(1).toLowerCase();
  const rest = text.slice(head.length).trim();
  if (!(COMMAND_NAMES as readonly string[]).includes(name)) return { kind: "unknown", command: head };
  const args = rest === "" ? [] : rest.split(/\s+/);
  // Discord's spelling (/memory view user, /memory search tea) does what it does there.
  const sub = name === "memory" ? DISCORD_SUBCOMMANDS[args[0]?.toLowerCase() ?? ""] : undefined;
  if (sub) return { kind: "command", name: sub, args: args.slice(1), rest: rest.slice(args[0]!.length).trim() };
  return { kind: "command", name: name as CommandName, args, rest };
}

const DISCORD_SUBCOMMANDS: Record<string, CommandName> = {
  view: "memory",
  search: "search",
  history: "history",
  undo: "undo",
  settings: "settings",
  private: "private",
};

/** Runs one command; "end" when the conversation should end. */
export async function runCommand(ctx: ChatContext, name: CommandName, args: string[], rest: string): Promise<"end" | undefined> {
  switch (name) {
    case "end":
      return "end";
    case "help":
      ctx.print(commandHelp(ctx.say));
      return;
    case "clear":
      await ctx.engine.clear(ctx.sessionId);
      ctx.print(cleared(ctx.say));
      return;
    case "memory":
      await printMemory(ctx, args[0]);
      return;
    case "search":
      await printSearch(ctx, rest);
      return;
    case "history":
      ctx.print(await historyText(ctx.memory, { file: args[0] }, ctx.say));
      return;
    case "undo":
      await undoCommand(ctx, args);
      return;
    case "save":
    case "discard":
      await proposalCommand(ctx, name === "save", args);
      return;
    case "settings":
      await settingsCommand(ctx, args);
      return;
    case "private":
      await privateCommand(ctx, rest);
      return;
  }
}

/**
 * /private <section> [off]: a section of USER.md or MEMORY.md kept out of public places, or not
 * (Discord's /memory private). The section's name may hold spaces; a last word "off" makes it public.
 */
async function privateCommand(ctx: ChatContext, rest: string): Promise<void> {
  const { say, memory } = ctx;
  const words = rest.split(/\s+/).filter(Boolean);
  const last = words.at(-1)?.toLowerCase();
  const isPrivate = !(last === "off" || last === "false" || last === "public");
  const raw = (isPrivate || words.length === 1 ? words : words.slice(0, -1)).join(" ");
  if (raw === "")
    return ctx.print(
      say(
        "Usage: /private <section> to keep it out of public threads, /private <section> off to undo that.",
        "用法：/private <小节> 让它不出现在公开子区，/private <小节> off 取消。",
      ),
    );
  const section = checkSectionName(raw);
  if (!section.ok) return ctx.print(printable(badSectionNameLine(section.error, say)));
  const outcome = await memory.markPrivate(section.value, isPrivate);
  if (outcome === "too-many") return ctx.print(tooManyPrivateLine("/private … off", say));
  ctx.print(printable(privacySetLine(section.value, isPrivate, hasSection(await memory.privateSectionTexts(), section.value), say)));
}

export function printUnknown(ctx: ChatContext, command: string): void {
  ctx.print(unknownCommand(ctx.say, printable(command)));
}

async function printMemory(ctx: ChatContext, which: string | undefined): Promise<void> {
  if (which !== undefined && !(FILE_KINDS as readonly string[]).includes(which)) {
    ctx.print(unknownFile(which, ctx.say));
    return;
  }
  for (const kind of which ? [which as FileKind] : FILE_KINDS) {
    const file = ctx.memory.file(kind);
    const { used, cap } = await file.usage();
    const text = (await file.read()).trim();
    const head = ctx.say(`── ${file.label} (${used}/${cap} chars)`, `── ${file.label}（${used}/${cap} 字）`);
    const marked = hasPrivateSections(kind) ? privateLine(text, ctx.memory.readSettings().privateSections, ctx.say) : "";
    ctx.print(`${head}\n${text ? printable(text) : ctx.say("(empty)", "（空）")}\n${marked ? `${printable(marked)}\n` : ""}`);
  }
}

async function printSearch(ctx: ChatContext, rest: string): Promise<void> {
  const { say } = ctx;
  const words = searchWords(rest);
  if ("missing" in words) {
    ctx.print(
      printable(
        say(
          `${words.missing} needs a date: ${words.missing} 2026-10-03 or ${words.missing} 2026-10`,
          `${words.missing} 后面要写日期：${words.missing} 2026-10-03 或 ${words.missing} 2026-10`,
        ),
      ),
    );
    return;
  }
  const reading = readSearchRange(words.since, words.until, say);
  if (!reading.ok) {
    ctx.print(printable(reading.line));
    return;
  }
  const { query } = words;
  const label = rangeLabel(reading.range, say);
  if (query === "" && !label) {
    ctx.print(
      say(
        "Usage: /search <words> [--since YYYY-MM-DD] [--until YYYY-MM-DD], e.g. /search oolong tea",
        "用法：/search <词语> [--since YYYY-MM-DD] [--until YYYY-MM-DD]，例如 /search 乌龙茶",
      ),
    );
    return;
  }
  let hits: RecallHit[];
  try {
    hits = await ctx.memory.search(query, { limit: 5, ...reading.range });
  } catch (error) {
    ctx.warn(printable(say(`Search is unavailable right now: ${(error as Error).message}`, `搜索暂时不可用：${(error as Error).message}`)));
    return;
  }
  if (hits.length === 0) {
    const what =
      query === ""
        ? say(`Nothing ${label}.`, `${label}没有内容。`)
        : label
          ? say(`Nothing found for "${query}" ${label}.`, `${label}没有找到 “${query}”。`)
          : say(`Nothing found for "${query}".`, `没有找到 “${query}”。`);
    ctx.print(printable(`${what} ${say("(This conversation is searchable once it ends.)", "（本次对话结束后才能搜索到。）")}`));
    return;
  }
  if (label) ctx.print(printable(query === "" ? rangeHeading(reading.range, say)! : say(`Search: "${query}" · ${label}`, `搜索：“${query}” · ${label}`)));
  hits.forEach((hit, i) => ctx.print(hitText(hit, i + 1, say)));
}

/** `/search` words with --since/--until (or --since=…) taken out; the rest is the query. */
function searchWords(rest: string): { query: string; since?: string; until?: string } | { missing: string } {
  const tokens = rest.split(/\s+/).filter(Boolean);
  const query: string[] = [];
  const dates: { since?: string; until?: string } = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const flag = /^--(since|until)(?:=(.*))?$/.exec(token);
    if (!flag) {
      query.push(token);
      continue;
    }
    const value = flag[2] ?? tokens[++i];
    if (value === undefined || value === "") return { missing: `--${flag[1]}` };
    dates[flag[1] as "since" | "until"] = value;
  }
  return { query: query.join(" "), ...dates };
}

const SOURCES: Record<string, string> = { conversation: "对话", ...Object.fromEntries(FILE_KINDS.map((kind) => [kind, FILE_TABLE[kind].short.zh])) };

/** One search result: number, date, where it comes from, then its text indented. */
function hitText(hit: RecallHit, n: number, say: Say): string {
  const source = say(hit.source, SOURCES[hit.source] ?? hit.source);
  const where = hit.title ? `${source} › ${hit.title}` : source;
  return printable(`${n}. ${hit.date} · ${where}\n   ${hit.text.replace(/\n+/g, "\n   ")}\n`);
}
