import { describe, expect, it } from "vitest";
import { decodeText, guessUtf16 } from "../../../../src/discord/attachments/decode-text.js";
import { png, utf16, zip } from "../../../helpers/image-fixtures.js";

const utf8 = (text: string) => Buffer.from(text, "utf8");

describe("decodeText: encodings", () => {
  it("reads UTF-8 and drops its byte order mark", () => {
    expect(decodeText(utf8("héllo 你好 🙂\n"), { cut: false })).toEqual({
      ok: true,
      value: { text: "héllo 你好 🙂\n", encoding: "utf-8", keptBytes: 19 },
    });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8("a")]), { cut: false })).toMatchObject({
      ok: true,
      value: { text: "a", encoding: "utf-8" },
    });
  });

  it("reads UTF-16 with a byte order mark, either endianness", () => {
    const text = "line one\r\n第二行 🙂\r\n";
    expect(decodeText(utf16(text, { endian: "le", bom: true }), { cut: false })).toMatchObject({ ok: true, value: { text, encoding: "utf-16le" } });
    expect(decodeText(utf16(text, { endian: "be", bom: true }), { cut: false })).toMatchObject({ ok: true, value: { text, encoding: "utf-16be" } });
  });

  it("recognises UTF-16 without a byte order mark by where its NUL bytes fall", () => {
    const text = "Windows wrote this log\r\nerror: disk full\r\n";
    expect(decodeText(utf16(text, { endian: "le", bom: false }), { cut: false })).toMatchObject({ ok: true, value: { text, encoding: "utf-16le" } });
    expect(decodeText(utf16(text, { endian: "be", bom: false }), { cut: false })).toMatchObject({ ok: true, value: { text, encoding: "utf-16be" } });
    expect(guessUtf16(utf8("plain ASCII text"))).toBeNull();
    expect(guessUtf16(utf16("ab", { endian: "le", bom: false }).subarray(0, 2))).toBeNull();
  });

  it("refuses bytes that are neither UTF-8 nor UTF-16 (Latin-1, GBK)", () => {
    expect(decodeText(Buffer.from("café crème", "latin1"), { cut: false })).toEqual({ ok: false, error: { kind: "encoding" } });
    expect(decodeText(Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), { cut: false })).toEqual({ ok: false, error: { kind: "encoding" } });
  });

  it("refuses UTF-16 with a byte order mark whose surrogates do not pair", () => {
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x00, 0xdc]), { cut: false })).toEqual({ ok: false, error: { kind: "encoding" } });
  });
});

describe("decodeText: binary files", () => {
  it("refuses a file whose magic number is an archive or an image, and says which", () => {
    expect(decodeText(zip(), { cut: false })).toMatchObject({ ok: false, error: { kind: "binary", looksLike: { id: "zip", en: "a zip archive" } } });
    expect(decodeText(png(2, 2), { cut: false })).toMatchObject({ ok: false, error: { kind: "binary", looksLike: { id: "png" } } });
    expect(decodeText(utf8("%PDF-1.4\n%âãÏÓ\n"), { cut: true })).toMatchObject({ ok: false, error: { kind: "binary", looksLike: { id: "pdf" } } });
  });

  it("refuses unknown binary: NUL bytes in what should be UTF-8", () => {
    expect(decodeText(Buffer.from([0x41, 0x42, 0x00, 0x43, 0x44, 0x45, 0x46, 0x47]), { cut: false })).toEqual({
      ok: false,
      error: { kind: "binary", looksLike: null },
    });
  });

  it("refuses numbers that only look like UTF-16 by their NUL bytes", () => {
    const shorts = Buffer.alloc(64);
    for (let i = 0; i < 32; i++) shorts.writeUInt16LE((i % 19) + 1, i * 2);
    expect(decodeText(shorts, { cut: false })).toEqual({ ok: false, error: { kind: "binary", looksLike: null } });
  });

  it("reads an empty file as empty text", () => {
    expect(decodeText(new Uint8Array(), { cut: false })).toEqual({ ok: true, value: { text: "", encoding: "utf-8", keptBytes: 0 } });
  });
});

describe("decodeText: a file cut at the budget", () => {
  it("never splits a multi-byte UTF-8 character: drops its first bytes instead", () => {
    const whole = utf8("ab你好");
    for (let end = 3; end <= 7; end++) {
      const decoded = decodeText(whole.subarray(0, end), { cut: true });
      expect(decoded).toEqual({ ok: true, value: { text: end < 5 ? "ab" : "ab你", encoding: "utf-8", keptBytes: end < 5 ? 2 : 5 } });
    }
    const emoji = utf8("x🙂");
    expect(decodeText(emoji.subarray(0, 4), { cut: true })).toMatchObject({ ok: true, value: { text: "x", keptBytes: 1 } });
  });

  it("never splits a UTF-16 code unit or surrogate pair", () => {
    const le = utf16("a🙂b", { endian: "le", bom: true });
    expect(decodeText(le.subarray(0, 5), { cut: true })).toMatchObject({ ok: true, value: { text: "a", keptBytes: 4 } });
    expect(decodeText(le.subarray(0, 6), { cut: true })).toMatchObject({ ok: true, value: { text: "a", keptBytes: 4 } });
    expect(decodeText(le.subarray(0, 8), { cut: true })).toMatchObject({ ok: true, value: { text: "a🙂", keptBytes: 8 } });
    const be = utf16("a🙂", { endian: "be", bom: false });
    expect(decodeText(be.subarray(0, 4), { cut: true })).toMatchObject({ ok: true, value: { text: "a", encoding: "utf-16be" } });
  });

  it("still refuses a cut file whose bytes before the cut are not UTF-8", () => {
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62, 0x63]), { cut: true })).toEqual({ ok: false, error: { kind: "encoding" } });
  });

  it("does not drop the end of a whole file that happens to end mid-character: it is invalid", () => {
    expect(decodeText(utf8("ab你").subarray(0, 4), { cut: false })).toEqual({ ok: false, error: { kind: "encoding" } });
  });
});
