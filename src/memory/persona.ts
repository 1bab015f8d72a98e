import { openFenceAtEnd, parseSections, serializeSections, type Section, type SectionDocument } from "./sections.js";
import { countChars } from "../lib/text.js";
import { isChineseLocale } from "../lib/locale.js";

const FIELDS = ["name", "personality", "style"] as const;
/** The longest personality the /onboard form holds. */
export const PERSONALITY_LIMIT = 1000;

export interface Persona {
  name: string;
  personality: string;
  style: string;
}

/** Section names of SOUL.md, in the person's language. */
function personaHeadings(locale: string | undefined): Record<keyof Persona, string> {
  return isChineseLocale(locale)
    ? { name: "名字", personality: "性格", style: "说话风格" }
    : { name: "Name", personality: "Personality", style: "Speaking style" };
}

export function defaultPersona(locale: string | undefined): Persona {
  return isChineseLocale(locale)
    ? { name: "AgentKit", personality: "专业、友好、注重细节。", style: "简洁清晰，用中文回答。" }
    : { name: "AgentKit", personality: "Professional, friendly, attentive to detail.", style: "Concise and clear." };
}

export function renderPersona(persona: Persona, locale: string | undefined): string {
  const headings = personaHeadings(locale);
  return (["name", "personality", "style"] as const).map((key) => `## ${headings[key]}\n${persona[key].trim()}\n`).join("\n");
}

function findField(doc: SectionDocument, key: keyof Persona): Section | undefined {
  const names = [personaHeadings("en")[key], personaHeadings("zh")[key]];
  return doc.sections.find((s) => names.includes(s.name));
}

/** A SOUL.md written as free text (an operator's persona, say) is its personality. */
function preambleIsPersonality(doc: SectionDocument): boolean {
  const text = doc.preamble.trim();
  return text !== "" && countChars(text) <= PERSONALITY_LIMIT && FIELDS.every((key) => !findField(doc, key));
}

/** Reads the persona fields back from SOUL.md (either language), falling back to the defaults. */
export function parsePersona(soul: string, locale: string | undefined): Persona {
  const fallback = defaultPersona(locale);
  const doc = parseSections(soul);
  const find = (key: keyof Persona): string => findField(doc, key)?.body.trim() || fallback[key];
  const personality = preambleIsPersonality(doc) ? doc.preamble.trim() : find("personality");
  return { name: find("name"), personality, style: find("style") };
}

/**
 * SOUL.md with the three persona sections set to new values; every other section (and any
 * text the form did not show) stays as it was.
 */
export function applyPersona(soul: string, persona: Persona, locale: string | undefined): string {
  const doc = parseSections(soul);
  const headings = personaHeadings(locale);
  const eol = soul.includes("\r\n") ? "\r\n" : "\n";
  const result: SectionDocument = { preamble: preambleIsPersonality(doc) ? "" : doc.preamble, sections: [...doc.sections] };
  for (const key of FIELDS) {
    const text = persona[key].trim().replace(/\r?\n/g, eol);
    // A fence left open would swallow the sections after it.
    const fence = openFenceAtEnd(text);
    const value = fence ? `${text}${eol}${fence}` : text;
    const existing = findField(result, key);
    if (existing) {
      const trailing = /(\r?\n)*$/.exec(existing.body)?.[0] ?? "";
      const index = result.sections.indexOf(existing);
      const heading = existing.heading.endsWith("\n") ? existing.heading : existing.heading + eol;
      result.sections[index] = { ...existing, heading, body: value + (trailing.length > eol.length ? trailing : eol) };
    } else {
      const last = result.sections.at(-1);
      if (last) result.sections[result.sections.length - 1] = { ...last, body: last.body.replace(/(\r?\n)*$/, eol + eol) };
      else if (result.preamble.trim() !== "") result.preamble = result.preamble.replace(/(\r?\n)*$/, eol + eol);
      result.sections.push({ name: headings[key], heading: `## ${headings[key]}${eol}`, body: value + eol });
    }
  }
  return serializeSections(result);
}
