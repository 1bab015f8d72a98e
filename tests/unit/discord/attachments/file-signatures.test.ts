import { describe, expect, it } from "vitest";
import { sniffFormat } from "../../../../src/discord/attachments/file-signatures.js";
import { gif, jpeg, png, webpLossy, zip } from "../../../helpers/image-fixtures.js";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

describe("sniffFormat", () => {
  it("names the images it reads by their magic numbers", () => {
    expect(sniffFormat(png(1, 1))?.id).toBe("png");
    expect(sniffFormat(jpeg(1, 1))?.id).toBe("jpeg");
    expect(sniffFormat(gif(1, 1))?.id).toBe("gif");
    expect(sniffFormat(webpLossy(1, 1))?.id).toBe("webp");
  });

  it("names archives, documents and programs, in English and Chinese", () => {
    expect(sniffFormat(zip())).toMatchObject({ id: "zip", en: "a zip archive", zh: "zip 压缩包" });
    expect(sniffFormat(bytes("%PDF-1.7\n"))?.id).toBe("pdf");
    expect(sniffFormat(bytes([0x1f, 0x8b, 0x08, 0x00]))?.id).toBe("gzip");
    expect(sniffFormat(bytes([0x7f], "ELF", [2, 1, 1]))?.id).toBe("elf");
    expect(sniffFormat(bytes("SQLite format 3", [0]))?.id).toBe("sqlite");
    expect(sniffFormat(bytes([0, 0, 0, 0x18], "ftypheic"))?.id).toBe("heic");
    expect(sniffFormat(bytes([0, 0, 0, 0x18], "ftypisom"))?.id).toBe("mp4");
    expect(sniffFormat(bytes("BM", [0x36, 0, 0, 0, 0, 0, 0, 0, 0x36, 0]))?.id).toBe("bmp");
  });

  it("does not mistake text that happens to start like a weak signature for a file format", () => {
    for (const text of ["BM is a band", "MZ notes", "ID3 tags explained", "fLaC or FLAC?", "PK is short for", "RIFF raff", "hello"]) {
      expect(sniffFormat(Buffer.from(text))).toBeNull();
    }
    expect(sniffFormat(new Uint8Array())).toBeNull();
  });
});
