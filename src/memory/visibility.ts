import { createHash } from "node:crypto";
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

/**
 * A private section's key is at most this long: a longer name is kept as its first characters
 * once normalised, " #" and a hash of the whole (two names alike that far stay two marks).
 * Marking and reading cut alike, so every mark written reads back, however much NFKC grew the
 * name (it makes 18 characters of "ﷺ").
 */
export const SECTION_KEY_CHARS = 200;
/** The hash's hex digits, after " #". */
const KEY_HASH_CHARS = 16;
/** A name read from a file longer than this is not read at all: no name typed or kept grows past it. */
const READ_NAME_CHARS = SECTION_KEY_CHARS * 18;

/** A section name as the private list keeps it: NFKC, lower case, inner spaces collapsed, at most SECTION_KEY_CHARS. */
export function sectionKey(name: string): string {
  const key = name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  if (key.length <= SECTION_KEY_CHARS) return key;
  const keep = SECTION_KEY_CHARS - KEY_HASH_CHARS - 2;
  // Not in the middle of a character of two UTF-16 units.
  const end = /[\uD800-\uDBFF]/.test(key[keep - 1]!) ? keep - 1 : keep;
  return `${key.slice(0, end).trimEnd()} #${createHash("sha256").update(key).digest("hex").slice(0, KEY_HASH_CHARS)}`;
}

/** The section keys of `texts` (USER.md, MEMORY.md), each file parsed once. */
export function sectionKeysOf(texts: readonly string[]): Set<string> {
  return new Set(texts.flatMap((text) => parseSections(text.replace(/\r\n/g, "\n")).sections.map((s) => sectionKey(s.name))));
}

/** A key's name part: a long name's key ends in " #" and a hash, which no words should be matched against. */
export function keyName(key: string): string {
  // Its length says nothing: the cut may end in a blank (trimmed) or before a pair of UTF-16 units.
  return HASHED.test(key) ? key.slice(0, -(KEY_HASH_CHARS + 2)) : key;
}
const HASHED = new RegExp(` #[0-9a-f]{${KEY_HASH_CHARS}}$`);

/** settings.json's `privateSections` as read from a file (settings, an import): names as keys, at most MAX_PRIVATE_SECTIONS. */
export function privateSectionList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value.filter((n): n is string => typeof n === "string" && n.length <= READ_NAME_CHARS).map(sectionKey);
  return [...new Set(names)].filter(Boolean).slice(0, MAX_PRIVATE_SECTIONS);
}

/** The names of the sections of `texts` (USER.md, MEMORY.md) marked private: a mark left by a section removed since is not one. */
export function privateSectionNames(texts: readonly string[], privateSections: readonly string[] | undefined): string[] {
  return [
    ...new Set(
      texts.flatMap((text) =>
        parseSections(text.replace(/\r\n/g, "\n"))
          .sections.filter((s) => isPrivateSection(s.name, privateSections))
          .map((s) => s.name),
      ),
    ),
  ];
}

/** Whether one of `texts` (USER.md, MEMORY.md) has a section of this name, as privacy matches names. */
export function hasSection(texts: readonly string[], name: string): boolean {
  return sectionKeysOf(texts).has(sectionKey(name));
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

/** A conversation others can read, and the server it is in: what was said in public elsewhere is not for it. */
export interface PublicPlace {
  guildId: string | undefined;
  /**
   * A private thread with members the owner invited: they read it, so it reads as a public place does,
   * but what is said there is private (it goes under no public entry and to no one else in the server).
   */
  privateThread?: true;
}

/**
 * A daily log as a public place may see it: only the entries of conversations held in public
 * places (their heading ends with PUBLIC_MARK) of this place's server (`here`, public-entries.ts).
 * The rest, the preamble and a condensed day included, may hold what was said in private or in
 * another server; `held` counts the sections left out.
 */
export function publicEntriesOf(text: string, here: (heading: string) => boolean): { text: string; held: number } {
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const sections = doc.sections.filter((s) => isPublicEntry(s.name) && here(s.name));
  return { text: serializeSections({ preamble: "", sections }), held: doc.sections.length - sections.length };
}

/** A public entry's heading ends with the mark, or with it and the number a second entry of the same title gets (`… 🌐 (2)`). */
const PUBLIC_HEADING = /🌐(?: \(\d{1,6}\))?$/u;

export function isPublicEntry(heading: string): boolean {
  return PUBLIC_HEADING.test(heading.trimEnd());
}
