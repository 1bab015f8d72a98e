/**
 * A tool's answer as the model reads it: JSON in which "<" and ">" (and their full-width and
 * small forms) are written as \u escapes. Parsed, it is the same value; read as text, nothing
 * in a file or a conversation looks like a tag of the prompt.
 */
export function toolJson(value: unknown): string {
  return JSON.stringify(value).replace(ANGLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const ANGLE = /[<>\uFF1C\uFF1E\uFE64\uFE65]/g;
