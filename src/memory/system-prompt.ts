import { blockedNotice, checkContent, escapeTags, withoutByteOrderMark } from "./safety.js";
import { CAPS, type MemorySnapshot } from "./memory-store.js";
import { countChars, parseSections, type SectionDocument } from "./sections.js";

export interface PromptOptions {
  /** Told when a file had to be cut or a section blocked (the files stay untouched). */
  warn?: (message: string) => void;
}

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
  const blocks: Block[] = [
    { tag: "agent-identity", label: "SOUL.md", text: withoutByteOrderMark(snapshot.soul), cap: CAPS.soul },
    { tag: "user-profile", label: "USER.md", text: withoutByteOrderMark(snapshot.user), cap: CAPS.user },
    { tag: "agent-notes", label: "MEMORY.md", text: withoutByteOrderMark(snapshot.memory), cap: CAPS.memory },
  ];
  const parts = blocks.flatMap((block) => {
    const body = renderFile(block, warn);
    if (body === "") return [];
    return [`<${block.tag} chars="${countChars(block.text)}/${block.cap}">\n${body}\n</${block.tag}>`];
  });
  const days = snapshot.dailies.flatMap(({ date, text }) => {
    const body = renderFile({ tag: "", label: `daily/${date}.md`, text: withoutByteOrderMark(text), cap: CAPS.daily }, warn);
    return body === "" ? [] : [`### ${date}\n${body}`];
  });
  if (days.length > 0) parts.push(`<recent-activity>\n${days.join("\n\n")}\n</recent-activity>`);
  parts.push(base.trim());
  return parts.join("\n\n");
}

function renderFile(block: Block, warn: (message: string) => void): string {
  const doc = parseSections(block.text.replace(/\r\n/g, "\n"));
  const safe = blockUnsafeParts(doc, block, warn);
  return escapeTags(cutToCap(safe, block, warn).trim());
}

function blockUnsafeParts(doc: SectionDocument, block: Block, warn: (message: string) => void): string[] {
  const blocked = (verdict: { reason: string; character?: string }, where: string) => {
    warn(`${block.label}: ${where} left out of the prompt: it ${verdict.reason}`);
    return `${blockedNotice(verdict)}\n`;
  };
  const preamble = checkContent(doc.preamble, "record");
  const parts = [preamble.ok ? doc.preamble : blocked(preamble, "the preamble")];
  for (const section of doc.sections) {
    const verdict = checkContent(section.heading + section.body, "record");
    // The heading goes too: the name can hide the same characters.
    parts.push(verdict.ok ? section.heading + section.body : `## [blocked section]\n${blocked(verdict, `section "${section.name}"`)}`);
  }
  return parts;
}

/** Hand-edited files may be over their cap: show whole parts up to it and mark the cut. */
function cutToCap(parts: string[], block: Block, warn: (message: string) => void): string {
  const total = countChars(parts.join(""));
  if (total <= block.cap) return parts.join("");
  let shown = "";
  for (const part of parts) {
    if (countChars(shown + part) > block.cap) break;
    shown += part;
  }
  if (shown === "") shown = cutAtLine(parts.join(""), block.cap);
  const hidden = total - countChars(shown);
  warn(`${block.label} is over its cap (${total}/${block.cap} chars); ${hidden} chars left out of the prompt`);
  return `${shown.trimEnd()}\n[… ${hidden} chars not shown]`;
}

function cutAtLine(text: string, cap: number): string {
  const head = [...text].slice(0, cap).join("");
  const lastBreak = head.lastIndexOf("\n");
  return lastBreak > 0 ? head.slice(0, lastBreak + 1) : head;
}
