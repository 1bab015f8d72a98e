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

/** The sections a write changes, in the order of the file after it (removed ones last). */
export function diffSections(file: string, before: string | null, after: string | null): SectionChange[] {
  const old = new Map(partsOf(before).map((p) => [p.key, p]));
  const changes: SectionChange[] = [];
  const now = partsOf(after);
  for (const part of now) {
    const previous = old.get(part.key);
    old.delete(part.key);
    if (previous?.text === part.text) continue;
    const nth = part.nth > 0 ? { nth: part.nth } : {};
    changes.push({ file, section: part.name, ...nth, position: previous?.position ?? part.position, before: previous?.text ?? null, after: part.text });
  }
  for (const gone of old.values()) {
    changes.push({ file, section: gone.name, ...(gone.nth > 0 ? { nth: gone.nth } : {}), position: gone.position, before: gone.text, after: null });
  }
  return changes;
}

/** The current text of a change's section in a file's text (null when absent). */
export function sectionText(text: string | null, change: Pick<SectionChange, "section" | "nth">): string | null {
  return partsOf(text).find((p) => p.key === keyOf(change.section, change.nth ?? 0))?.text ?? null;
}

/**
 * Puts a section back to `wanted` (null removes it) in a file's text; a section that does not
 * exist is inserted at its old position. The rest of the file is kept byte for byte.
 */
export function setSection(text: string | null, change: Pick<SectionChange, "section" | "position" | "nth">, wanted: string | null): string {
  const { section: name, position } = change;
  const doc: SectionDocument = parseSections(text ?? "");
  if (name === "") return serializeSections({ preamble: wanted ?? "", sections: doc.sections });
  const index = doc.sections.map((s, i) => [s.name, i] as const).filter(([n]) => n === name)[change.nth ?? 0]?.[1] ?? -1;
  const sections = [...doc.sections];
  if (wanted === null) {
    if (index >= 0) sections.splice(index, 1);
    return serializeSections({ preamble: doc.preamble, sections });
  }
  const parsed = parseSections(wanted).sections[0];
  const section: Section = parsed ?? { name, heading: `## ${name}\n`, body: wanted };
  if (index >= 0) {
    sections[index] = section;
  } else {
    const at = Math.max(0, Math.min(position, sections.length));
    // The section before it must end with a line break, or the heading would join its last line.
    const previous = sections[at - 1];
    if (previous && !previous.body.endsWith("\n")) sections[at - 1] = { ...previous, body: `${previous.body}\n` };
    if (at === 0 && doc.preamble !== "" && !doc.preamble.endsWith("\n")) doc.preamble += "\n";
    sections.splice(at, 0, section);
  }
  return serializeSections({ preamble: doc.preamble, sections });
}
