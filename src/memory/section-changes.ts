import type { SectionChange } from "./journal.js";
import { parseSections, serializeSections, type Section, type SectionDocument } from "./sections.js";

/**
 * Changes are kept per section: a file's text is its preamble ("") and its `## ` sections,
 * each with its heading. Two sections of one name (a hand edit) are told apart by order:
 * the second is "Name" with nth 1.
 */
interface Part {
  key: string;
  name: string;
  nth: number;
  text: string;
  position: number;
}

function partsOf(text: string | null): Part[] {
  if (text === null) return [];
  const doc = parseSections(text);
  const seen = new Map<string, number>();
  const parts: Part[] = doc.preamble === "" ? [] : [{ key: keyOf("", 0), name: "", nth: 0, text: doc.preamble, position: -1 }];
  doc.sections.forEach((section, position) => {
    const nth = seen.get(section.name) ?? 0;
    seen.set(section.name, nth + 1);
    parts.push({ key: keyOf(section.name, nth), name: section.name, nth, text: section.heading + section.body, position });
  });
  return parts;
}

const keyOf = (name: string, nth: number) => `${nth}\u0000${name}`;

/**
 * A section's own lines: its text without the blank lines after it. Those lines only separate it
 * from the next section (a new section below adds one), so they are never a change to it, and an
 * undo compares and restores sections by these lines. A loop, not /\n+$/ (which backtracks).
 */
export function sectionContent(text: string): string {
  let last = text.length - 1;
  while (last >= 0 && (text[last] === "\n" || text[last] === " " || text[last] === "\t" || text[last] === "\r")) last--;
  if (last < 0) return "";
  // Always ending its last line: "x" and "x\n" are the same lines, and a heading after it starts a line of its own.
  const lineEnd = text.indexOf("\n", last);
  return lineEnd === -1 ? `${text}\n` : text.slice(0, lineEnd + 1);
}

/** The sections a write changes, in the order of the file after it (removed ones last). */
export function diffSections(file: string, before: string | null, after: string | null): SectionChange[] {
  const old = new Map(partsOf(before).map((p) => [p.key, p]));
  const changes: SectionChange[] = [];
  const now = partsOf(after);
  for (const part of now) {
    const previous = old.get(part.key);
    old.delete(part.key);
    if (previous !== undefined && sectionContent(previous.text) === sectionContent(part.text)) continue;
    const nth = part.nth > 0 ? { nth: part.nth } : {};
    changes.push({ file, section: part.name, ...nth, position: previous?.position ?? part.position, before: previous?.text ?? null, after: part.text });
  }
  const was = partsOf(before).filter((p) => p.position >= 0);
  for (const gone of old.values()) {
    const follows = gone.position < 0 ? {} : { follows: was[gone.position - 1]?.name ?? "", precedes: was[gone.position + 1]?.name ?? "" };
    changes.push({ file, section: gone.name, ...(gone.nth > 0 ? { nth: gone.nth } : {}), position: gone.position, ...follows, before: gone.text, after: null });
  }
  return changes;
}

/** The current text of a change's section in a file's text (null when absent). */
export function sectionText(text: string | null, change: Pick<SectionChange, "section" | "nth">): string | null {
  return partsOf(text).find((p) => p.key === keyOf(change.section, change.nth ?? 0))?.text ?? null;
}

/**
 * Where a removed section goes back: after the section it followed, or before the one it preceded,
 * whichever is still here (other changes since may have moved the positions); first or last as it
 * was; else (a change journalled before neighbours were) its old position. When both neighbours
 * were removed too and are back in another order, its place among them is a guess: its lines are
 * what an undo restores exactly.
 */
function placeOf(sections: readonly Section[], change: Pick<SectionChange, "position" | "follows" | "precedes">): number {
  const index = (name: string | undefined) => (name ? sections.findIndex((s) => s.name === name) : -1);
  const after = index(change.follows);
  if (after >= 0) return after + 1;
  const before = index(change.precedes);
  if (before >= 0) return before;
  if (change.precedes === "") return sections.length;
  if (change.follows === "") return 0;
  return Math.max(0, Math.min(change.position, sections.length));
}

/** Two texts of a section (or its absence) hold the same lines, blank lines after it aside. */
export function sameSection(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : sectionContent(a) === sectionContent(b);
}

/** A section with `content`'s lines and `boundary`'s blank lines after them. */
function withBoundary(section: Section, boundary: string): Section {
  const text = sectionContent(`${section.heading}${section.body}`) + boundary;
  return { ...section, body: text.slice(section.heading.length) };
}

const boundaryOf = (section: Section) => `${section.heading}${section.body}`.slice(sectionContent(`${section.heading}${section.body}`).length);

/**
 * Puts a section's lines back to `wanted`'s (null removes it) in a file's text; a section that does
 * not exist is inserted at its old position. The blank lines between sections stay as the file has
 * them (a section put back in the middle gets one after it, a last one none), and the rest of the
 * file is kept byte for byte.
 */
export function setSection(
  text: string | null,
  change: Pick<SectionChange, "section" | "position" | "nth" | "follows" | "precedes">,
  wanted: string | null,
): string {
  const { section: name } = change;
  const doc: SectionDocument = parseSections(text ?? "");
  if (name === "") return serializeSections({ preamble: wanted ?? "", sections: doc.sections });
  const index = doc.sections.map((s, i) => [s.name, i] as const).filter(([n]) => n === name)[change.nth ?? 0]?.[1] ?? -1;
  const sections = [...doc.sections];
  if (wanted === null) {
    if (index >= 0) sections.splice(index, 1);
    // The last section loses the blank line that separated it from the one taken away.
    const last = sections.at(-1);
    if (index === sections.length && last) sections[sections.length - 1] = withBoundary(last, "");
    return serializeSections({ preamble: doc.preamble, sections });
  }
  const parsed = parseSections(wanted).sections[0];
  const section: Section = parsed ?? { name, heading: `## ${name}\n`, body: wanted };
  if (index >= 0) {
    sections[index] = withBoundary(section, boundaryOf(sections[index]!));
  } else {
    const at = placeOf(sections, change);
    // Blank lines between sections where the file has them (else none): the section before it gets
    // one, and the section goes back with its own, or none when it is now the last.
    // (A file of one section shows no habit: blank lines, as the tools write them.)
    const blankLines = sections.length < 2 || sections.slice(0, -1).some((s) => boundaryOf(s) !== "");
    const previous = sections[at - 1];
    if (previous && blankLines && boundaryOf(previous) === "") sections[at - 1] = withBoundary(previous, "\n");
    if (at === 0 && doc.preamble !== "" && !doc.preamble.endsWith("\n")) doc.preamble += "\n";
    const own = boundaryOf(section);
    sections.splice(at, 0, withBoundary(section, at === sections.length ? "" : own !== "" || !blankLines ? own : "\n"));
  }
  return serializeSections({ preamble: doc.preamble, sections });
}
