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
  for (const bytes of utf8Pieces(text)) {
    // A write may take fewer bytes than it was given; the rest follows.
    for (let done = 0; done < bytes.length; ) {
      const { bytesWritten } = await handle.write(bytes, done);
      if (bytesWritten === 0) throw new Error("the disk took none of a write");
      done += bytesWritten;
    }
  }
}

/** `text` as UTF-8 a piece at a time (each piece encodes on its own: no surrogate pair is split). */
function* utf8Pieces(text: string): Generator<Buffer> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    yield Buffer.from(text.slice(start, end), "utf8");
    start = end;
  }
}

/**
 * `text` as UTF-8 bytes, encoded a piece at a time with the loop handed back between pieces. A
 * database driver given the string converts it in one synchronous call: node-sqlite3 held the loop
 * ~300 ms binding a 6-million-character session record (tests/faults/close-large-session.test.ts).
 */
export async function utf8InSlices(text: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (const piece of utf8Pieces(text)) {
    // The loop is handed back between pieces, not after the last: a short text (a turn's session
    // record) is made in one piece and costs no extra turn of the loop.
    if (pieces.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    pieces.push(piece);
  }
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
