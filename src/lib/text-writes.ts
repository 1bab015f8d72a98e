import type { FileHandle } from "node:fs/promises";

/** UTF-16 units encoded at once: a few milliseconds of work at worst. */
const PIECE_CHARS = 1 << 18;

/**
 * Writes `text` as UTF-8 a piece at a time. `handle.writeFile(text)` encodes the whole string in
 * one synchronous call: for the journal line of the largest import (tens of millions of
 * characters, Chinese and escapes) that held the event loop 60-230 ms. A piece never ends between
 * the two halves of a surrogate pair, so each piece encodes on its own to the same bytes.
 */
export async function writeText(handle: FileHandle, text: string): Promise<void> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    const bytes = Buffer.from(text.slice(start, end), "utf8");
    // A write may take fewer bytes than it was given; the rest follows.
    for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done)).bytesWritten;
    start = end;
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
