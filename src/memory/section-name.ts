import { err, ok, type Result } from "../lib/result.js";

/** Why a section name cannot be used; each front end words it, the model's tool schema has its own words. */
export type SectionNameProblem = "empty" | "too-long" | "not-one-line" | "has-hash";

/** A section name is at most this many UTF-16 units (the tools' schema says the same to the model). */
export const SECTION_NAME_MAX = 80;

/** A section name as a person types one (/memory add, the web editor, server notes): trimmed, one line, no #. */
export function checkSectionName(raw: string): Result<string, SectionNameProblem> {
  const name = raw.trim();
  if (name === "") return err("empty");
  if (name.length > SECTION_NAME_MAX) return err("too-long");
  // One character class, no quantifier: linear.
  if (/[\r\n\u2028\u2029]/.test(name)) return err("not-one-line");
  if (name.includes("#")) return err("has-hash");
  return ok(name);
}
