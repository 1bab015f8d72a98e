import { blockedNotice, checkContent, escapeTags, withoutByteOrderMark } from "./safety.js";
import type { MemorySnapshot } from "./memory-store.js";
import { CAPS, FILE_TABLE, WHOLE_FILE_KINDS } from "./file-kinds.js";
import { maskSecrets } from "./secrets.js";
import { parseSections } from "./sections.js";
import { countChars } from "../lib/text.js";
import { estimateTokens } from "../lib/tokens.js";
import { publicEntriesOf, withoutPrivateSections } from "./visibility.js";
import type { EntryHere } from "./public-entries.js";
import { SERVER_NOTES_CAP, SERVER_NOTES_LABEL } from "./server-notes.js";

export interface PromptOptions {
  /** Told when a file had to be cut or a section blocked (the files stay untouched). */
  warn?: (message: string) => void;
  /**
   * A conversation others can read: the sections the person marked private stay out, and of the
   * daily logs only the entries of conversations held in public places of the same server
   * (`entryHere`, public-entries.ts) are shown.
   */
  publicPlace?: { privateSections: readonly string[] | undefined; entryHere: EntryHere };
  /** The most the prompt may take of the model's context, in estimated tokens (context-budget.ts). */
  maxTokens?: number;
}

/** The daily logs' block. */
const DAYS = FILE_TABLE.daily.tag;
/** What goes when the prompt is too long, first to last (after the oldest logs): the server's notes, then the table's dropOrder. */
const DROP_ORDER = [
  "server-notes",
  ...WHOLE_FILE_KINDS.filter((kind) => FILE_TABLE[kind].dropOrder !== undefined)
    .sort((a, b) => FILE_TABLE[a].dropOrder! - FILE_TABLE[b].dropOrder!)
    .map((kind) => FILE_TABLE[kind].tag),
];

interface Block {
  tag: string;
  label: string;
  text: string;
  cap: number;
}

/**
 * The frozen system prompt: memory blocks first, base instructions last.
 * Deterministic: the same snapshot and base always give the same bytes. Whatever the files
 * hold, each block opens and closes exactly once: every "<" inside is escaped (escapeTags),
 * and a part with an invisible character is replaced by a notice. SOUL.md is held to the
 * same rules: a person's persona needs neither.
 */
export function buildSystemPrompt(snapshot: MemorySnapshot, base: string, options: PromptOptions = {}): string {
  const warn = options.warn ?? (() => {});
  const shown = (text: string) => (options.publicPlace ? withoutPrivateSections(text, options.publicPlace.privateSections).text : text);
  const blocks: Block[] = [
    // In the table's order; a kind whose sections can be private loses them in a public place.
    ...WHOLE_FILE_KINDS.map((kind) => {
      const text = withoutByteOrderMark(snapshot[kind]);
      return { tag: FILE_TABLE[kind].tag, label: FILE_TABLE[kind].label, text: FILE_TABLE[kind].privateSections ? shown(text) : text, cap: CAPS[kind] };
    }),
    // Only in a conversation held in that server: the opener sets it from the place's server.
    ...(snapshot.serverNotes
      ? [{ tag: "server-notes", label: SERVER_NOTES_LABEL, text: withoutByteOrderMark(snapshot.serverNotes), cap: SERVER_NOTES_CAP }]
      : []),
  ];
  const rendered = blocks.flatMap((block) => {
    const body = renderFile(block, warn);
    if (body === "") return [];
    return [{ tag: block.tag, text: `<${block.tag} chars="${countChars(block.text)}/${block.cap}">\n${body}\n</${block.tag}>` }];
  });
  const publicPlace = options.publicPlace;
  const days = snapshot.dailies.flatMap(({ date, text }) => {
    const log = publicPlace ? publicEntriesOf(withoutByteOrderMark(text), (heading) => publicPlace.entryHere(date, heading)).text : withoutByteOrderMark(text);
    // Logs written before summaries were masked (or edited by hand) may hold a secret: it never reaches the model.
    const body = renderFile({ tag: "", label: `daily/${date}.md`, text: maskSecrets(log), cap: CAPS.daily }, warn);
    return body === "" ? [] : [`### ${date}\n${body}`];
  });
  const assemble = () =>
    [...rendered.map((block) => block.text), ...(days.length > 0 ? [`<${DAYS}>\n${days.join("\n\n")}\n</${DAYS}>`] : []), base.trim()].join("\n\n");
  let prompt = assemble();
  const maxTokens = options.maxTokens;
  if (maxTokens === undefined || estimateTokens(prompt) <= maxTokens) return prompt;
  // Too long for the model's context (OPENAI_CONTEXT_TOKENS): the oldest log goes first, then the
  // server's notes, the agent's notes and the profile. The persona and the instructions stay.
  const left: string[] = [];
  while (estimateTokens(prompt) > maxTokens) {
    if (days.length > 0) {
      days.shift();
      left.push("a daily log");
    } else {
      const at = DROP_ORDER.map((tag) => rendered.findIndex((block) => block.tag === tag)).find((i) => i >= 0);
      if (at === undefined) break;
      left.push(rendered[at]!.tag);
      rendered.splice(at, 1);
    }
    prompt = assemble();
  }
  warn(
    left.length > 0
      ? `the system prompt was longer than OPENAI_CONTEXT_TOKENS allows (about ${maxTokens} tokens for it): left out ${left.join(", ")}`
      : `the persona and the instructions alone take about ${estimateTokens(prompt)} tokens, more than OPENAI_CONTEXT_TOKENS allows for the system prompt (about ${maxTokens})`,
  );
  return prompt;
}

function renderFile(block: Block, warn: (message: string) => void): string {
  const doc = parseSections(block.text.replace(/\r\n/g, "\n"));
  const parts = [doc.preamble, ...doc.sections.map((section) => section.heading + section.body)];
  // By number: these warnings reach the operator's log, which never holds what people wrote.
  const names = ["the preamble", ...doc.sections.map((_, i) => `section ${i + 1}`)];
  const render = (i: number) => checked(parts[i]!, names[i]!, i > 0, block, warn);
  const total = countChars(parts.join(""));
  if (total <= block.cap)
    return escapeTags(
      parts
        .map((_, i) => render(i))
        .join("")
        .trim(),
    );
  // Hand-edited files may be over their cap: show whole parts up to it and mark the cut. Parts
  // past the cap are neither checked nor rendered, so a huge file costs one count of its text.
  let shown = "";
  let shownChars = 0;
  let rawChars = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = render(i);
    const chars = countChars(part);
    if (shownChars + chars > block.cap) {
      // Nothing but blank text before a part too long on its own: show its first lines.
      if (shown.trim() === "") {
        const cut = cutAtLine(part, block.cap - shownChars);
        shown += cut;
        rawChars += countChars(cut);
      }
      break;
    }
    shown += part;
    shownChars += chars;
    rawChars += countChars(parts[i]!);
  }
  const hidden = total - rawChars;
  warn(`${block.label} is over its cap (${total}/${block.cap} chars); ${hidden} chars left out of the prompt`);
  return escapeTags(`${shown.trim()}\n[… ${hidden} chars not shown]`);
}

/** A part as the prompt shows it: itself, or a notice when it holds an invisible character. */
function checked(part: string, where: string, isSection: boolean, block: Block, warn: (message: string) => void): string {
  const verdict = checkContent(part, "record");
  if (verdict.ok) return part;
  warn(`${block.label}: ${where} left out of the prompt: it ${verdict.reason}`);
  // The heading goes too: the name can hide the same characters.
  return `${isSection ? "## [blocked section]\n" : ""}${blockedNotice(verdict)}\n`;
}

function cutAtLine(text: string, cap: number): string {
  let end = 0;
  let chars = 0;
  for (const char of text) {
    if (chars === cap) break;
    end += char.length;
    chars += 1;
  }
  const head = text.slice(0, end);
  const lastBreak = head.lastIndexOf("\n");
  return lastBreak > 0 ? head.slice(0, lastBreak + 1) : head;
}
