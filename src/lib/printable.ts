/**
 * Text someone else wrote (a memory file, a search hit, the model's answer, a journal line),
 * made safe to print on a terminal: control characters cannot move the cursor, clear the
 * screen, set the title or hide text. Line feeds and tabs stay; everything else that a
 * terminal would act on is shown as a visible stand-in.
 */

// One character class, no quantifier: linear on any input.
// C0 controls except \t and \n, DEL, C1 controls, and the bidirectional overrides and isolates
// that reorder what a reader sees ("Trojan Source").
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

function standIn(char: string): string {
  const code = char.codePointAt(0)!;
  // C0 controls and DEL have Unicode "control pictures" (␛ for ESC, ␍ for CR).
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** `text` with every control character a terminal would obey replaced by a visible stand-in. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, standIn);
}
