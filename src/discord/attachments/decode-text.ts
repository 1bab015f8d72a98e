import { err, ok, type Result } from "../../lib/result.js";
import { sniffFormat, type FileFormat } from "./file-signatures.js";

/**
 * Turns a text attachment's bytes into text, or says why it is not text. Only UTF-8 and
 * UTF-16 are read: guessing legacy code pages (Latin-1, GBK) would feed the model mojibake
 * without anyone noticing, so those are refused and the person is asked for UTF-8.
 */

type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
  /** Bytes of the file the text came from (byte order mark included); fewer than given when a cut file ended mid-character. */
  keptBytes: number;
}

export type TextProblem = { kind: "binary"; looksLike: FileFormat | null } | { kind: "encoding" };

/** How much of the start is looked at to tell UTF-16 by its NUL bytes. */
const SAMPLE_BYTES = 4096;

/** Above this share of control characters, "UTF-16" is really binary numbers with small values. */
const MAX_CONTROL_SHARE = 0.1;

/** `cut`: the bytes stop at a budget, not at the end of the file, so a character split there is dropped, not an error. */
export function decodeText(bytes: Uint8Array, options: { cut: boolean }): Result<DecodedText, TextProblem> {
  const bom = byteOrderMark(bytes);
  if (!bom) {
    const looksLike = sniffFormat(bytes);
    if (looksLike) return err({ kind: "binary", looksLike });
  }
  const encoding = bom?.encoding ?? guessUtf16(bytes) ?? "utf-8";
  if (!bom && encoding === "utf-8" && bytes.includes(0)) return err({ kind: "binary", looksLike: null });
  const start = bom?.length ?? 0;
  const end = options.cut ? lastWholeCharacter(bytes, start, encoding) : bytes.length;
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(start, end));
  } catch {
    return err({ kind: "encoding" });
  }
  if (encoding !== "utf-8" && looksLikeNumbers(text)) return err({ kind: "binary", looksLike: null });
  return ok({ text, encoding, keptBytes: end });
}

function byteOrderMark(bytes: Uint8Array): { encoding: TextEncoding; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return null;
}

/**
 * UTF-16 without a byte order mark, told by its NUL bytes: text in Latin script has a zero
 * high byte in most code units, so NULs fill one byte position (odd for little-endian, even
 * for big-endian) and almost never the other. UTF-8 text has no NUL bytes at all.
 */
export function guessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const units = Math.floor(Math.min(bytes.length, SAMPLE_BYTES) / 2);
  if (units < 2) return null;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < units; i++) {
    if (bytes[2 * i] === 0) evenNuls += 1;
    if (bytes[2 * i + 1] === 0) oddNuls += 1;
  }
  const many = units * 0.3;
  const few = units * 0.02;
  if (oddNuls >= many && evenNuls <= few) return "utf-16le";
  if (evenNuls >= many && oddNuls <= few) return "utf-16be";
  return null;
}

/** The end of the last whole character in `bytes`, which stop at a budget and may end inside one. */
function lastWholeCharacter(bytes: Uint8Array, start: number, encoding: TextEncoding): number {
  if (encoding === "utf-8") return lastWholeUtf8(bytes);
  let end = bytes.length - ((bytes.length - start) % 2);
  if (end - 2 >= start) {
    const unit = encoding === "utf-16le" ? (bytes[end - 2] ?? 0) | ((bytes[end - 1] ?? 0) << 8) : ((bytes[end - 2] ?? 0) << 8) | (bytes[end - 1] ?? 0);
    // A high surrogate waits for its low half, which is past the cut.
    if (unit >= 0xd800 && unit <= 0xdbff) end -= 2;
  }
  return end;
}

function lastWholeUtf8(bytes: Uint8Array): number {
  const end = bytes.length;
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead -= 1;
  if (lead < 0) return end;
  const first = bytes[lead] ?? 0;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  // Shorter than its lead byte announces: the character goes on past the cut. Anything else is left to the decoder.
  return first >= 0xc0 && end - lead < length ? lead : end;
}

function looksLikeNumbers(text: string): boolean {
  if (text.includes("\0")) return true;
  const controls = text.match(/[\u0001-\u0008\u000e-\u001a\u001c-\u001f]/g)?.length ?? 0;
  return text.length > 0 && controls / text.length > MAX_CONTROL_SHARE;
}
