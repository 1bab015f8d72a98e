import { crc32, deflateSync } from "node:zlib";

/**
 * Small but real images built in code, so no binary fixtures are checked in. Each is a file
 * a decoder would accept (PNG with a valid CRC and zlib stream, GIF with real LZW data), or,
 * for JPEG and WebP, the headers that carry the size, which is all the bot reads of them.
 */

function uint32be(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function uint32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

function uint16le(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function uint24le(n: number): Buffer {
  return Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  return Buffer.concat([uint32be(data.length), typeAndData, uint32be(crc32(typeAndData))]);
}

/** A grey RGB PNG of this size. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.concat([uint32be(width), uint32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", pixels),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * An animated PNG (APNG) of this size: `acTL` (animation control) before the first `IDAT`, then a
 * frame control and frame data for each further frame. Browsers animate it; decoders that do not
 * know APNG show the first frame, so only its bytes tell it from a still PNG.
 */
export function apng(width: number, height: number, frames = 2): Buffer {
  const still = png(width, height);
  const chunks = still.subarray(8);
  const ihdrEnd = 8 + 25;
  const idat = still.subarray(ihdrEnd, still.length - 12);
  const frameControl = (sequence: number) =>
    pngChunk("fcTL", Buffer.concat([uint32be(sequence), uint32be(width), uint32be(height), uint32be(0), uint32be(0), Buffer.from([0, 1, 0, 10, 0, 0])]));
  const pixels = idat.subarray(8, idat.length - 4);
  const later = Array.from({ length: frames - 1 }, (_, i) => [frameControl(1 + 2 * i), pngChunk("fdAT", Buffer.concat([uint32be(2 + 2 * i), pixels]))]).flat();
  return Buffer.concat([
    still.subarray(0, ihdrEnd),
    pngChunk("acTL", Buffer.concat([uint32be(frames), uint32be(0)])),
    frameControl(0),
    idat,
    ...later,
    chunks.subarray(chunks.length - 12),
  ]);
}

/** A PNG's chunks after the signature, for tests that build odd files by hand. */
export { pngChunk };

function jpegSegment(marker: number, body: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 2);
  return Buffer.concat([Buffer.from([0xff, marker]), length, body]);
}

/** A baseline JPEG's headers: JFIF (or an EXIF block with this orientation), then the frame header. */
export function jpeg(width: number, height: number, options: { orientation?: number } = {}): Buffer {
  const jfif = jpegSegment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  const app =
    options.orientation === undefined
      ? jfif
      : jpegSegment(
          0xe1,
          Buffer.concat([
            Buffer.from("Exif\0\0", "latin1"),
            // TIFF header (big-endian), one IFD entry: tag 0x0112 (orientation), SHORT, count 1.
            Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, options.orientation, 0, 0]),
            Buffer.from([0, 0, 0, 0]),
          ]),
        );
  const size = Buffer.alloc(4);
  size.writeUInt16BE(height, 0);
  size.writeUInt16BE(width, 2);
  const frame = jpegSegment(0xc0, Buffer.concat([Buffer.from([8]), size, Buffer.from([1, 1, 0x11, 0])]));
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app, frame, Buffer.from([0xff, 0xd9])]);
}

function riffWebp(chunkType: string, chunk: Buffer, extra: Buffer = Buffer.alloc(0)): Buffer {
  const padded = chunk.length % 2 === 1 ? Buffer.concat([chunk, Buffer.from([0])]) : chunk;
  const body = Buffer.concat([Buffer.from("WEBP", "latin1"), Buffer.from(chunkType, "latin1"), uint32le(chunk.length), padded, extra]);
  return Buffer.concat([Buffer.from("RIFF", "latin1"), uint32le(body.length), body]);
}

/** A lossy WebP: the VP8 key frame header with its size. */
export function webpLossy(width: number, height: number): Buffer {
  const frame = Buffer.concat([Buffer.from([0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a]), uint16le(width), uint16le(height), Buffer.alloc(4)]);
  return riffWebp("VP8 ", frame);
}

/** A lossless WebP: the VP8L header with its size. */
export function webpLossless(width: number, height: number): Buffer {
  const bits = ((width - 1) | ((height - 1) << 14)) >>> 0;
  return riffWebp("VP8L", Buffer.concat([Buffer.from([0x2f]), uint32le(bits), Buffer.alloc(5)]));
}

/** An extended WebP (VP8X): still, or with the animation flag and two frames. */
export function webpExtended(width: number, height: number, options: { animated?: boolean } = {}): Buffer {
  const flags = options.animated ? 0x02 : 0x00;
  const header = Buffer.concat([Buffer.from([flags, 0, 0, 0]), uint24le(width - 1), uint24le(height - 1)]);
  const frame = (n: number) => Buffer.concat([Buffer.from("ANMF", "latin1"), uint32le(16), Buffer.alloc(15, n), Buffer.from([0])]);
  const extra = options.animated
    ? Buffer.concat([Buffer.from("ANIM", "latin1"), uint32le(6), Buffer.alloc(6), frame(1), frame(2)])
    : Buffer.concat([Buffer.from("VP8L", "latin1"), uint32le(5), Buffer.from([0x2f, 0, 0, 0, 0, 0])]);
  return riffWebp("VP8X", header, extra);
}

/** A GIF89a with this many 1×1 frames (each after a graphic control extension), on a canvas of this size. */
export function gif(width: number, height: number, frames = 1): Buffer {
  const screen = Buffer.concat([Buffer.from("GIF89a", "latin1"), uint16le(width), uint16le(height), Buffer.from([0x80, 0, 0])]);
  const palette = Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]);
  const loop =
    frames > 1 ? Buffer.concat([Buffer.from([0x21, 0xff, 0x0b]), Buffer.from("NETSCAPE2.0", "latin1"), Buffer.from([3, 1, 0, 0, 0])]) : Buffer.alloc(0);
  const frame = Buffer.concat([
    Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]),
    // LZW minimum code size 2, one sub-block encoding a single pixel, then the block terminator.
    Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]),
  ]);
  const body = Array.from({ length: frames }, () => frame);
  return Buffer.concat([screen, palette, loop, ...body, Buffer.from([0x3b])]);
}

/** The start of a zip archive (a local file header): what a .zip renamed to .txt or .png begins with. */
export function zip(): Buffer {
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]), Buffer.alloc(20), Buffer.from("a.txt", "latin1")]);
}

/** `text` as UTF-16, little- or big-endian, with or without a byte order mark. */
export function utf16(text: string, options: { endian: "le" | "be"; bom: boolean }): Buffer {
  const le = Buffer.from(text, "utf16le");
  const body = options.endian === "le" ? le : Buffer.from(le).swap16();
  const bom = options.endian === "le" ? Buffer.from([0xff, 0xfe]) : Buffer.from([0xfe, 0xff]);
  return options.bom ? Buffer.concat([bom, body]) : body;
}
