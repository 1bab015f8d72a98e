import { err, ok, type Result } from "../result.js";

/**
 * A memory file is an optional preamble followed by `## Section` blocks.
 * Parts keep their raw text (line endings included), so serialising an
 * unedited document gives back the same bytes.
 */
export interface Section {
  name: string;
  /** The heading line exactly as written, with its line ending. */
  heading: string;
  /** Everything up to the next heading, exactly as written. */
  body: string;
}

export interface SectionDocument {
  preamble: string;
  sections: Section[];
}

export interface Edit {
  doc: SectionDocument;
  /** False when the edit was a no-op (text already present). */
  changed: boolean;
}

/** Unicode code points, so Chinese text and emoji count one each. */
export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The text cut to at most `max` code points, a cut marked with `…` (within the max). */
export function cutChars(text: string, max: number): string {
  if (countChars(text) <= max) return text;
  return `${[...text].slice(0, Math.max(0, max - 1)).join("")}…`;
}

// The `s` flag lets the name hold U+2028/U+2029 as written; lines are split on \n only.
const HEADING = /^## +(.*?)\s*$/s;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/s;

function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Follows ``` and ~~~ fences line by line (CommonMark's rules, simplified to what memory files use). */
export class FenceTracker {
  /** The marker of the open fence, or null outside code. */
  open: string | null = null;

  /** Feeds one line; returns true when the line is code or a fence line. */
  feed(line: string): boolean {
    const bare = line.replace(/\r?\n$/, "");
    const match = FENCE.exec(bare);
    const marker = match?.[1];
    if (this.open === null) {
      // A backtick fence's info string may not contain a backtick.
      if (marker && !(marker[0] === "`" && match[2]?.includes("`"))) {
        this.open = marker;
        return true;
      }
      return false;
    }
    if (marker && marker[0] === this.open[0] && marker.length >= this.open.length && (match[2] ?? "").trim() === "") {
      this.open = null;
    }
    return true;
  }
}

/** The marker of a fence left open at the end of the text, if any. */
export function openFenceAtEnd(text: string): string | null {
  const tracker = new FenceTracker();
  for (const line of splitLines(text)) tracker.feed(line);
  return tracker.open;
}

export function parseSections(text: string): SectionDocument {
  const doc: SectionDocument = { preamble: "", sections: [] };
  const fences = new FenceTracker();
  for (const line of splitLines(text)) {
    if (!fences.feed(line)) {
      const name = HEADING.exec(line.replace(/\r?\n$/, ""))?.[1]?.trim();
      if (name) {
        doc.sections.push({ name, heading: line, body: "" });
        continue;
      }
    }
    const current = doc.sections.at(-1);
    if (current) current.body += line;
    else doc.preamble += line;
  }
  return doc;
}

export function serializeSections(doc: SectionDocument): string {
  return doc.preamble + doc.sections.map((s) => s.heading + s.body).join("");
}

/** Size of each section (heading included), for over-cap messages. */
export function sectionSizes(doc: SectionDocument): { name: string; chars: number }[] {
  return doc.sections.map((s) => ({ name: s.name, chars: countChars(s.heading + s.body) }));
}

function lineEnding(doc: SectionDocument): string {
  return serializeSections(doc).includes("\r\n") ? "\r\n" : "\n";
}

function withEnding(text: string, eol: string): string {
  return text.replace(/\r?\n/g, eol);
}

function findOne(doc: SectionDocument, name: string): Result<number> {
  const wanted = name.trim();
  const indexes = doc.sections.flatMap((s, i) => (s.name === wanted ? [i] : []));
  if (indexes.length > 1) {
    return err(
      `section "${wanted}" appears ${indexes.length} times in this file; it cannot be edited until the duplicates are merged or renamed by hand (/memory edit)`,
    );
  }
  const index = indexes[0];
  if (index === undefined) {
    const names = doc.sections.map((s) => s.name).join(", ") || "none";
    return err(`there is no section "${wanted}" (sections: ${names})`);
  }
  return ok(index);
}

function replaceAt(doc: SectionDocument, index: number, section: Section | null): SectionDocument {
  const sections = [...doc.sections];
  if (section) sections[index] = section;
  else sections.splice(index, 1);
  return { preamble: doc.preamble, sections };
}

/** Appends content to a section, creating the section at the end when missing. */
export function addToSection(doc: SectionDocument, name: string, content: string): Result<Edit> {
  const eol = lineEnding(doc);
  const trimmed = withEnding(content.replace(/\s+$/, ""), eol);
  // Content that opens a code fence and leaves it open would turn every later heading into code.
  const unclosed = openFenceAtEnd(trimmed);
  const text = unclosed ? `${trimmed}${eol}${unclosed}` : trimmed;
  const wanted = name.trim();
  if (!doc.sections.some((s) => s.name === wanted)) {
    const before = serializeSections(doc);
    // A file that ends inside an open fence (a hand edit) gets it closed, or the new heading would be code.
    const fence = openFenceAtEnd(before);
    const closing = fence ? `${before.endsWith("\n") ? "" : eol}${fence}${eol}` : "";
    const joined = before + closing;
    const separator = joined === "" ? "" : joined.endsWith(eol + eol) ? "" : joined.endsWith("\n") ? eol : eol + eol;
    const last = doc.sections.at(-1);
    const grown = last
      ? replaceAt(doc, doc.sections.length - 1, { ...last, body: last.body + closing + separator })
      : { preamble: doc.preamble + closing + separator, sections: [] };
    const section: Section = { name: wanted, heading: `## ${wanted}${eol}`, body: text + eol };
    return ok({ doc: { ...grown, sections: [...grown.sections, section] }, changed: true });
  }
  const found = findOne(doc, wanted);
  if (!found.ok) return found;
  const existing = doc.sections[found.value]!;
  // A heading that ends the file without a line break gets one, or the content would join the heading.
  const section = existing.heading.endsWith("\n") ? existing : { ...existing, heading: existing.heading + eol };
  if (section.body.includes(trimmed)) return ok({ doc, changed: false });
  const kept = section.body.replace(/(\r?\n)+$/, "");
  const isLast = found.value === doc.sections.length - 1;
  const trailer = isLast ? eol : section.body.slice(kept.length).length > 0 ? eol + eol : eol;
  const body = (kept === "" ? "" : kept + eol) + text + trailer;
  return ok({ doc: replaceAt(doc, found.value, { ...section, body }), changed: true });
}

/** Replaces the one occurrence of oldText inside a section. */
export function replaceInSection(
  doc: SectionDocument,
  name: string,
  oldText: string,
  newText: string,
): Result<Edit> {
  const found = findOne(doc, name);
  if (!found.ok) return found;
  const section = doc.sections[found.value]!;
  const occurrences = section.body.split(oldText).length - 1;
  if (occurrences === 0) {
    return err(`old_text not found in section "${section.name}"; read the file and copy the text exactly`);
  }
  if (occurrences > 1) {
    return err(
      `old_text occurs ${occurrences} times in section "${section.name}"; include more surrounding text so it matches once`,
    );
  }
  const body = section.body.replace(oldText, () => withEnding(newText, lineEnding(doc)));
  return ok({ doc: replaceAt(doc, found.value, { ...section, body }), changed: body !== section.body });
}

export function removeSection(doc: SectionDocument, name: string): Result<Edit> {
  const found = findOne(doc, name);
  if (!found.ok) return found;
  return ok({ doc: replaceAt(doc, found.value, null), changed: true });
}
