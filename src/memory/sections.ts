import { err, ok, type Result } from "../lib/result.js";
import { countChars, fenceAfterLine } from "../lib/text.js";

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

// A `###`…`######` heading (CommonMark: up to three spaces, then a space, a tab or the end); bounded, linear.
const SUBHEADING = /^ {0,3}#{3,6}(?:[ \t]|$)/;

/** Where the line that starts at `start` ends: after its \n, or at the end of the text (split on \n only). */
function endOfLine(text: string, start: number): number {
  const newline = text.indexOf("\n", start);
  return newline === -1 ? text.length : newline + 1;
}

const SPACE = 0x20;
const MARKS = new Set([0x23, 0x60, 0x7e]); // # ` ~

/**
 * Calls `visit` with the bounds of each line that starts, after up to three spaces, with `#`,
 * a backtick or `~`: only such a line can be a heading or a fence, so no other line is cut
 * out. A loop over line starts, no pattern: linear, and fast on many short lines. Stops when
 * `visit` returns false.
 */
function forEachMarkedLine(text: string, visit: (start: number, end: number) => boolean | void): void {
  for (let start = 0; start < text.length; ) {
    const end = endOfLine(text, start);
    let lead = start;
    while (lead - start < 3 && text.charCodeAt(lead) === SPACE) lead++;
    if (MARKS.has(text.charCodeAt(lead)) && visit(start, end) === false) return;
    start = end;
  }
}

/** A line without its line ending (\n or \r\n). */
function bareLine(line: string): string {
  if (!line.endsWith("\n")) return line;
  return line.endsWith("\r\n") ? line.slice(0, -2) : line.slice(0, -1);
}

/**
 * The name of a `## ` heading line, or undefined. By hand: the pattern it replaces,
 * /^## +(.*?)\s*$/, took quadratic time on a heading holding a long run of spaces.
 */
function headingName(line: string): string | undefined {
  if (!line.startsWith("## ")) return undefined;
  const name = line.slice(3).trim();
  return name === "" ? undefined : name;
}

/** Text without the line breaks (\n, \r\n) it ends with; a loop, as /(\r?\n)+$/ is quadratic on a long run. */
function withoutTrailingBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "\n") {
    end--;
    if (end > 0 && text[end - 1] === "\r") end--;
  }
  return text.slice(0, end);
}

/** A section's body cut before its first `###` (or deeper) heading outside code: its own text, then its subsections. */
function splitSubsections(body: string): { own: string; subsections: string } {
  const fences = new FenceTracker();
  let cut = body.length;
  forEachMarkedLine(body, (start, end) => {
    const line = body.slice(start, end);
    if (fences.feed(line) || !SUBHEADING.test(bareLine(line))) return true;
    cut = start;
    return false;
  });
  return { own: body.slice(0, cut), subsections: body.slice(cut) };
}

/** Follows ``` and ~~~ fences line by line (CommonMark's rules, simplified to what memory files use). */
export class FenceTracker {
  /** The marker of the open fence, or null outside code. */
  open: string | null = null;

  /** Feeds one line; returns true when the line is code or a fence line. */
  feed(line: string): boolean {
    const before = this.open;
    this.open = fenceAfterLine(bareLine(line), before);
    return before !== null || this.open !== null;
  }
}

/** The marker of a fence left open at the end of the text, if any. */
export function openFenceAtEnd(text: string): string | null {
  const tracker = new FenceTracker();
  forEachMarkedLine(text, (start, end) => void tracker.feed(text.slice(start, end)));
  return tracker.open;
}

export function parseSections(text: string): SectionDocument {
  const doc: SectionDocument = { preamble: "", sections: [] };
  const fences = new FenceTracker();
  let heading: { name: string; line: string } | undefined;
  let bodyStart = 0;
  const endPart = (at: number) => {
    const body = text.slice(bodyStart, at);
    if (heading) doc.sections.push({ name: heading.name, heading: heading.line, body });
    else doc.preamble = body;
  };
  // Every other line is body text, inside a fence or not, and leaves the fence as it is.
  forEachMarkedLine(text, (start, end) => {
    const line = text.slice(start, end);
    const name = fences.feed(line) ? undefined : headingName(bareLine(line));
    if (name === undefined) return;
    endPart(start);
    heading = { name, line };
    bodyStart = end;
  });
  endPart(text.length);
  return doc;
}

export function serializeSections(doc: SectionDocument): string {
  return doc.preamble + doc.sections.map((s) => s.heading + s.body).join("");
}

export interface SectionSize {
  name: string;
  chars: number;
}

/** Size of each section (heading included), for over-cap messages. */
export function sectionSizes(doc: SectionDocument): SectionSize[] {
  return doc.sections.map((s) => ({ name: s.name, chars: countChars(s.heading + s.body) }));
}

function lineEnding(doc: SectionDocument): string {
  return serializeSections(doc).includes("\r\n") ? "\r\n" : "\n";
}

/** Every line break as `eol`; split and join, which stay fast on a text of many short lines. */
function withEnding(text: string, eol: string): string {
  const lf = text.includes("\r\n") ? text.split("\r\n").join("\n") : text;
  return eol === "\n" ? lf : lf.split("\n").join(eol);
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
  if (index === undefined)
    return err(
      noSectionError(
        wanted,
        doc.sections.map((s) => s.name),
      ),
    );
  return ok(index);
}

/** A section the file does not have, with the names it has (so the model can pick one): memory-file.ts words it again without some. */
export function noSectionError(wanted: string, names: readonly string[]): string {
  return `there is no section "${wanted}" (sections: ${names.join(", ") || "none"})`;
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
  const trimmed = withEnding(content.trimEnd(), eol);
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
  // A `###` subsection a person added keeps its own text: the addition ends the section's own text,
  // and only that text can hold it already ("- allergic to nuts" under "### Former" is another fact).
  const { own, subsections } = splitSubsections(section.body);
  if (holdsLines(own, trimmed, eol)) return ok({ doc, changed: false });
  const kept = withoutTrailingBreaks(own);
  const isLast = found.value === doc.sections.length - 1;
  const gap = own.slice(kept.length);
  const trailer = subsections !== "" ? gap || eol : isLast ? eol : gap.length > 0 ? eol + eol : eol;
  const body = (kept === "" ? "" : kept + eol) + text + trailer + subsections;
  return ok({ doc: replaceAt(doc, found.value, { ...section, body }), changed: true });
}

/**
 * Whether a section's own text already holds `text` as whole lines, one after another: a line that
 * merely contains it ("a30" for "a3", "not allergic to nuts" for "allergic to nuts") is another fact.
 */
function holdsLines(body: string, text: string, eol: string): boolean {
  if (text === "") return true;
  const padded = `${eol}${body}${body.endsWith(eol) ? "" : eol}`;
  return padded.includes(`${eol}${text}${eol}`);
}

/** Replaces the one occurrence of oldText inside a section. */
export function replaceInSection(doc: SectionDocument, name: string, oldText: string, newText: string): Result<Edit> {
  const found = findOne(doc, name);
  if (!found.ok) return found;
  const section = doc.sections[found.value]!;
  const occurrences = section.body.split(oldText).length - 1;
  if (occurrences === 0) {
    return err(`old_text not found in section "${section.name}"; read the file and copy the text exactly`);
  }
  if (occurrences > 1) {
    return err(`old_text occurs ${occurrences} times in section "${section.name}"; include more surrounding text so it matches once`);
  }
  const body = section.body.replace(oldText, () => withEnding(newText, lineEnding(doc)));
  return ok({ doc: replaceAt(doc, found.value, { ...section, body }), changed: body !== section.body });
}

export function removeSection(doc: SectionDocument, name: string): Result<Edit> {
  const found = findOne(doc, name);
  if (!found.ok) return found;
  return ok({ doc: replaceAt(doc, found.value, null), changed: true });
}
