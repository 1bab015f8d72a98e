/**
 * Whether a GIF, WebP or PNG is animated. The model takes still images only, and image-size
 * reports a GIF's canvas, not its frames, and an APNG as a plain PNG, so this walks the blocks
 * by hand: a few lines against the published formats (GIF89a, WebP container, PNG chunks with
 * the APNG extension) instead of a decoder.
 */

/** Counts a GIF's image descriptors, stopping at `enough`; 0 when the blocks are broken before the first frame. */
export function gifFrameCount(bytes: Uint8Array, enough = 2): number {
  if (bytes.length < 13) return 0;
  let offset = 13 + colorTableSize(bytes[10] ?? 0);
  let frames = 0;
  while (offset < bytes.length && frames < enough) {
    const block = bytes[offset];
    if (block === 0x3b) break;
    if (block === 0x21) {
      offset = skipSubBlocks(bytes, offset + 2);
    } else if (block === 0x2c) {
      if (offset + 10 > bytes.length) break;
      frames += 1;
      // Descriptor (10 bytes), its own colour table, the LZW code size byte, then the data sub-blocks.
      offset = skipSubBlocks(bytes, offset + 10 + colorTableSize(bytes[offset + 9] ?? 0) + 1);
    } else {
      break;
    }
  }
  return frames;
}

/** Bytes of the colour table announced by a GIF "packed fields" byte (none when its top bit is clear). */
function colorTableSize(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}

/** The offset after a chain of sub-blocks (length byte, data) ending in a zero-length block. */
function skipSubBlocks(bytes: Uint8Array, offset: number): number {
  let at = offset;
  while (at < bytes.length) {
    const length = bytes[at] ?? 0;
    at += 1 + length;
    if (length === 0) return at;
  }
  return bytes.length;
}

/** An extended WebP (VP8X) says in its flags whether it is animated. */
export function webpIsAnimated(bytes: Uint8Array): boolean {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  return chunk === "VP8X" && ((bytes[20] ?? 0) & 0x02) !== 0;
}

/** PNG signature (8 bytes), then chunks: length (4, big-endian), type (4), data, CRC (4). */
const PNG_CHUNKS_START = 8;
/** The spec caps a chunk's length at 2^31 - 1; anything larger is garbage. */
const PNG_MAX_CHUNK = 0x7fffffff;

/**
 * An APNG announces itself with an `acTL` chunk before its first `IDAT`. The walk steps chunk by
 * chunk (at least 12 bytes a step, so linear in the file), checks every length against what is
 * there, and stops at the first IDAT, IEND, cut or impossible length: garbage never throws.
 */
export function pngIsAnimated(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = PNG_CHUNKS_START;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(bytes[offset + 4]!, bytes[offset + 5]!, bytes[offset + 6]!, bytes[offset + 7]!);
    if (type === "acTL") return true;
    if (type === "IDAT" || type === "IEND" || length > PNG_MAX_CHUNK) return false;
    offset += 12 + length;
  }
  return false;
}
