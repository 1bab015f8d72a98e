import { parseSections } from "./sections.js";

export interface Persona {
  name: string;
  personality: string;
  style: string;
}

export function isChineseLocale(locale: string | undefined): boolean {
  return /^zh\b/i.test(locale ?? "");
}

/** Section names of SOUL.md, in the person's language. */
export function personaHeadings(locale: string | undefined): Record<keyof Persona, string> {
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
  return (["name", "personality", "style"] as const)
    .map((key) => `## ${headings[key]}\n${persona[key].trim()}\n`)
    .join("\n");
}

/** Reads the persona fields back from SOUL.md (either language), falling back to the defaults. */
export function parsePersona(soul: string, locale: string | undefined): Persona {
  const fallback = defaultPersona(locale);
  const sections = parseSections(soul).sections;
  const find = (key: keyof Persona): string => {
    const names = [personaHeadings("en")[key], personaHeadings("zh")[key]];
    return sections.find((s) => names.includes(s.name))?.body.trim() || fallback[key];
  };
  return { name: find("name"), personality: find("personality"), style: find("style") };
}
