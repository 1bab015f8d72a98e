import { blockedNotice, checkContent, type SafetyLevel } from "./safety.js";
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
  level: SafetyLevel;
}

/**
 * The frozen system prompt: memory blocks first, base instructions last.
 * Deterministic: the same snapshot and base always give the same bytes.
 */
export function buildSystemPrompt(snapshot: MemorySnapshot, base: string, options: PromptOptions = {}): string {
  const warn = options.warn ?? (() => {});
  const blocks: Block[] = [
    // SOUL.md is the person's chosen persona: only control characters and our own tags block it.
    { tag: "agent-identity", label: "SOUL.md", text: snapshot.soul, cap: CAPS.soul, level: "persona" },
    { tag: "user-profile", label: "USER.md", text: snapshot.user, cap: CAPS.user, level: "tool" },
    { tag: "agent-notes", label: "MEMORY.md", text: snapshot.memory, cap: CAPS.memory, level: "tool" },
  ];
  const parts = blocks.flatMap((block) => {
    const body = renderFile(block, warn);
    if (body === "") return [];
    return [`<${block.tag} chars="${countChars(block.text)}/${block.cap}">\n${body}\n</${block.tag}>`];
  });
  const days = snapshot.dailies.flatMap(({ date, text }) => {
    const body = renderFile({ tag: "", label: `daily/${date}.md`, text, cap: CAPS.daily, level: "tool" }, warn);
    return body === "" ? [] : [`### ${date}\n${body}`];
  });
  if (days.length > 0) parts.push(`<recent-activity>\n${days.join("\n\n")}\n</recent-activity>`);
  parts.push(base.trim());
  return parts.join("\n\n");
}

function renderFile(block: Block, warn: (message: string) => void): string {
  const doc = parseSections(block.text.replace(/\r\n/g, "\n"));
  const safe = blockUnsafeParts(doc, block, warn);
  return cutToCap(safe, block, warn).trim();
}

function blockUnsafeParts(doc: SectionDocument, block: Block, warn: (message: string) => void): string[] {
  const blocked = (reason: string, where: string) => {
    warn(`${block.label}: ${where} left out of the prompt: it ${reason}`);
    return `${blockedNotice(reason)}\n`;
  };
  const preamble = checkContent(doc.preamble, block.level);
  const parts = [preamble.ok ? doc.preamble : blocked(preamble.reason, "the preamble")];
  for (const section of doc.sections) {
    const verdict = checkContent(section.heading + section.body, block.level);
    // The heading goes too: a name can carry the same injection or a closing tag.
    parts.push(verdict.ok ? section.heading + section.body : `## [blocked section]\n${blocked(verdict.reason, `section "${section.name}"`)}`);
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
