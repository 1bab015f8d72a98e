/**
 * JSON for a terminal or a pipe. JSON.stringify escapes C0 controls but leaves DEL, C1 controls and
 * the bidirectional marks, overrides and isolates raw, and a terminal obeys those too (the same set
 * printable() stands in for). They can only occur inside JSON strings, so escaping them as \uXXXX
 * keeps the text valid JSON that parses back to the same value.
 */

// One character class, no quantifier: linear on any input.
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function jsonForTerminal(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
