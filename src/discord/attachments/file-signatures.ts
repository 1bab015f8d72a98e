/**
 * Recognises common file formats by their magic numbers, so an attachment is judged by its
 * bytes, never by its name or content type: a "cat.png" that is a zip, or a "notes.txt" that
 * is a PDF. Only signatures that ordinary text cannot start with are listed, because the same
 * check tells text files from binary ones.
 */

export interface FileFormat {
  id: string;
  /** How the person is told what the file looks like, e.g. "it looks like a zip archive". */
  en: string;
  zh: string;
}

type Test = (b: Uint8Array) => boolean;

const at = (b: Uint8Array, offset: number, ...expected: (number | string)[]): boolean => {
  const want = expected.flatMap((e) => (typeof e === "string" ? [...e].map((c) => c.charCodeAt(0)) : [e]));
  return b.length >= offset + want.length && want.every((byte, i) => b[offset + i] === byte);
};

const ftyp = (b: Uint8Array, brands: string[]) => at(b, 4, "ftyp") && brands.some((brand) => at(b, 8, brand));

const SIGNATURES: [FileFormat, Test][] = [
  [{ id: "png", en: "a PNG image", zh: "PNG 图片" }, (b) => at(b, 0, 0x89, "PNG\r\n", 0x1a, "\n")],
  [{ id: "jpeg", en: "a JPEG image", zh: "JPEG 图片" }, (b) => at(b, 0, 0xff, 0xd8, 0xff)],
  [{ id: "gif", en: "a GIF image", zh: "GIF 图片" }, (b) => at(b, 0, "GIF87a") || at(b, 0, "GIF89a")],
  [{ id: "webp", en: "a WebP image", zh: "WebP 图片" }, (b) => at(b, 0, "RIFF") && at(b, 8, "WEBP")],
  // "BM" alone starts words; the four reserved bytes after the file size are zero in every BMP.
  [{ id: "bmp", en: "a BMP image", zh: "BMP 图片" }, (b) => at(b, 0, "BM") && at(b, 6, 0, 0, 0, 0)],
  [{ id: "tiff", en: "a TIFF image", zh: "TIFF 图片" }, (b) => at(b, 0, "II*", 0) || at(b, 0, "MM", 0, "*")],
  [{ id: "heic", en: "a HEIC photo", zh: "HEIC 照片" }, (b) => ftyp(b, ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"])],
  [{ id: "avif", en: "an AVIF image", zh: "AVIF 图片" }, (b) => ftyp(b, ["avif", "avis"])],
  [{ id: "mp4", en: "a video", zh: "视频" }, (b) => at(b, 4, "ftyp")],
  [{ id: "webm", en: "a video", zh: "视频" }, (b) => at(b, 0, 0x1a, 0x45, 0xdf, 0xa3)],
  [{ id: "ogg", en: "an audio or video file", zh: "音频或视频" }, (b) => at(b, 0, "OggS", 0)],
  [{ id: "mp3", en: "an MP3 file", zh: "MP3 音频" }, (b) => at(b, 0, "ID3") && (b[3] ?? 0) <= 4 && b[4] === 0],
  [{ id: "flac", en: "a FLAC file", zh: "FLAC 音频" }, (b) => at(b, 0, "fLaC") && ((b[4] ?? 1) & 0x7f) === 0],
  [{ id: "wav", en: "a WAV file", zh: "WAV 音频" }, (b) => at(b, 0, "RIFF") && at(b, 8, "WAVE")],
  [{ id: "pdf", en: "a PDF", zh: "PDF 文档" }, (b) => at(b, 0, "%PDF-")],
  [{ id: "zip", en: "a zip archive", zh: "zip 压缩包" }, (b) => at(b, 0, "PK", 3, 4) || at(b, 0, "PK", 5, 6) || at(b, 0, "PK", 7, 8)],
  [{ id: "gzip", en: "a gzip archive", zh: "gzip 压缩包" }, (b) => at(b, 0, 0x1f, 0x8b, 0x08)],
  [{ id: "bzip2", en: "a bzip2 archive", zh: "bzip2 压缩包" }, (b) => at(b, 0, "BZh") && at(b, 4, "1AY&SY")],
  [{ id: "xz", en: "an xz archive", zh: "xz 压缩包" }, (b) => at(b, 0, 0xfd, "7zXZ", 0)],
  [{ id: "zstd", en: "a zstd archive", zh: "zstd 压缩包" }, (b) => at(b, 0, 0x28, 0xb5, 0x2f, 0xfd)],
  [{ id: "7z", en: "a 7z archive", zh: "7z 压缩包" }, (b) => at(b, 0, "7z", 0xbc, 0xaf, 0x27, 0x1c)],
  [{ id: "rar", en: "a RAR archive", zh: "RAR 压缩包" }, (b) => at(b, 0, "Rar!", 0x1a, 0x07)],
  [{ id: "office", en: "an old Microsoft Office file", zh: "旧版 Microsoft Office 文件" }, (b) => at(b, 0, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)],
  [{ id: "sqlite", en: "an SQLite database", zh: "SQLite 数据库" }, (b) => at(b, 0, "SQLite format 3", 0)],
  [{ id: "elf", en: "a program (ELF)", zh: "可执行程序（ELF）" }, (b) => at(b, 0, 0x7f, "ELF")],
  [{ id: "exe", en: "a Windows program", zh: "Windows 程序" }, isWindowsProgram],
  [
    { id: "macho", en: "a compiled program", zh: "编译后的程序" },
    (b) => [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].some((m) => at(b, 0, ...beBytes(m))),
  ],
  [{ id: "wasm", en: "a WebAssembly module", zh: "WebAssembly 模块" }, (b) => at(b, 0, 0, "asm")],
];

/** "MZ" starts words too; a real program also points, at 0x3C, to its "PE\0\0" header. */
function isWindowsProgram(b: Uint8Array): boolean {
  if (!at(b, 0, "MZ") || b.length < 0x40) return false;
  const peOffset = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(0x3c, true);
  return at(b, peOffset, "PE", 0, 0);
}

function beBytes(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

/** The format these bytes start like, or null when no known signature matches. */
export function sniffFormat(bytes: Uint8Array): FileFormat | null {
  return SIGNATURES.find(([, test]) => test(bytes))?.[0] ?? null;
}
