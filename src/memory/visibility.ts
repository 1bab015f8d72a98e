import { parseSections, serializeSections } from "./sections.js";

/**
 * Who can read a conversation: only the person and the bot (a DM, the terminal), the people
 * added to a private thread, or anyone in the server (a public thread or channel).
 */
export type Visibility = "direct" | "private" | "public";
export const VISIBILITIES: readonly Visibility[] = ["direct", "private", "public"];

/** The end of a daily log entry's heading when its conversation was in a public place: only those reach a public place's prompt. */
export const PUBLIC_MARK = "🌐";

/** How many sections a person may mark private. */
export const MAX_PRIVATE_SECTIONS = 50;

/** A section name as the private list keeps it: NFKC, lower case, inner spaces collapsed. */
export function sectionKey(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

export function isPrivateSection(name: string, privateSections: readonly string[] | undefined): boolean {
  return (privateSections ?? []).includes(sectionKey(name));
}

/** A memory file without the sections marked private; `held` counts those left out. */
export function withoutPrivateSections(text: string, privateSections: readonly string[] | undefined): { text: string; held: number } {
  if (!privateSections?.length) return { text, held: 0 };
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const sections = doc.sections.filter((s) => !isPrivateSection(s.name, privateSections));
  return { text: serializeSections({ preamble: doc.preamble, sections }), held: doc.sections.length - sections.length };
}

/**
 * A daily log as a public place may see it: only the entries of conversations held in public
 * places (their heading ends with PUBLIC_MARK). The rest, the preamble and a condensed day
 * included, may hold what was said in private; `held` counts the sections left out.
 */
export function publicEntriesOf(text: string): { text: string; held: number } {
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const sections = doc.sections.filter((s) => isPublicEntry(s.name));
  return { text: serializeSections({ preamble: "", sections }), held: doc.sections.length - sections.length };
}

export function isPublicEntry(heading: string): boolean {
  return heading.trimEnd().endsWith(PUBLIC_MARK);
}
