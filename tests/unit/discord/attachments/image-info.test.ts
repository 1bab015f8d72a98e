import { describe, expect, it } from "vitest";
import { inspectImage } from "../../../../src/discord/attachments/image-info.js";
import { apng, gif, jpeg, png, pngChunk, webpExtended, webpLossless, webpLossy, zip } from "../../../helpers/image-fixtures.js";

describe("inspectImage", () => {
  it("reads the type and size of PNG, JPEG, WebP and still GIF from the bytes", () => {
    expect(inspectImage(png(640, 480))).toEqual({ ok: true, value: { mime: "image/png", width: 640, height: 480 } });
    expect(inspectImage(jpeg(800, 600))).toEqual({ ok: true, value: { mime: "image/jpeg", width: 800, height: 600 } });
    expect(inspectImage(webpLossy(300, 200))).toEqual({ ok: true, value: { mime: "image/webp", width: 300, height: 200 } });
    expect(inspectImage(webpLossless(301, 201))).toEqual({ ok: true, value: { mime: "image/webp", width: 301, height: 201 } });
    expect(inspectImage(webpExtended(1920, 1080))).toEqual({ ok: true, value: { mime: "image/webp", width: 1920, height: 1080 } });
    expect(inspectImage(gif(5, 4))).toEqual({ ok: true, value: { mime: "image/gif", width: 5, height: 4 } });
  });

  it("gives a photo's size as it is shown, turned by its EXIF orientation", () => {
    expect(inspectImage(jpeg(4032, 3024, { orientation: 6 }))).toMatchObject({ ok: true, value: { width: 3024, height: 4032 } });
    expect(inspectImage(jpeg(4032, 3024, { orientation: 3 }))).toMatchObject({ ok: true, value: { width: 4032, height: 3024 } });
  });

  it("refuses a picture of more than 4096×4096 pixels, whatever its few bytes, and takes 4096×4096", () => {
    // The header is what declares the size: a few bytes can declare a picture of gigabytes.
    const declared = (width: number, height: number) => {
      const header = Buffer.alloc(13);
      header.writeUInt32BE(width, 0);
      header.writeUInt32BE(height, 4);
      header.set([8, 2, 0, 0, 0], 8);
      return Buffer.concat([png(1, 1).subarray(0, 8), pngChunk("IHDR", header), pngChunk("IEND", Buffer.alloc(0))]);
    };
    expect(inspectImage(declared(16_384, 16_384))).toEqual({ ok: false, error: { kind: "too-large", width: 16_384, height: 16_384 } });
    expect(inspectImage(jpeg(8000, 4000))).toEqual({ ok: false, error: { kind: "too-large", width: 8000, height: 4000 } });
    expect(inspectImage(declared(4096, 4096))).toMatchObject({ ok: true, value: { width: 4096, height: 4096 } });
  });

  it("refuses animated GIFs and animated WebPs", () => {
    expect(inspectImage(gif(5, 4, 2))).toEqual({ ok: false, error: { kind: "animated" } });
    expect(inspectImage(gif(5, 4, 3))).toEqual({ ok: false, error: { kind: "animated" } });
    expect(inspectImage(webpExtended(10, 10, { animated: true }))).toEqual({ ok: false, error: { kind: "animated" } });
  });

  it("refuses an animated PNG (APNG) like an animated GIF, and takes a PNG whose acTL comes only after its image data", () => {
    expect(inspectImage(apng(16, 16))).toEqual({ ok: false, error: { kind: "animated" } });
    expect(inspectImage(apng(640, 480, 5))).toEqual({ ok: false, error: { kind: "animated" } });
    // APNG's control chunk counts only before the first IDAT; after it, it is an unknown ancillary chunk.
    const still = png(8, 8);
    const late = Buffer.concat([still.subarray(0, still.length - 12), pngChunk("acTL", Buffer.alloc(8)), still.subarray(still.length - 12)]);
    expect(inspectImage(late)).toEqual({ ok: true, value: { mime: "image/png", width: 8, height: 8 } });
  });

  it("walks PNG chunks safely: cut short, lying lengths and garbage end the walk without a throw", () => {
    const animated = apng(16, 16);
    // Cut just after the signature, inside IHDR, inside the acTL chunk's header, and inside its data.
    for (const end of [8, 20, 33, 40, 45, 50]) expect(() => inspectImage(animated.subarray(0, end))).not.toThrow();
    expect(inspectImage(animated.subarray(0, 40))).not.toMatchObject({ error: { kind: "animated" } });
    // Once the chunk's type can be read, the file says it is an APNG, whole or not.
    expect(inspectImage(animated.subarray(0, 45))).toEqual({ ok: false, error: { kind: "animated" } });
    // A chunk whose length points far past the end: the walk stops there, and the file is judged on its header.
    const lying = Buffer.from(png(8, 8));
    lying.writeUInt32BE(0xfffffff0, 33);
    expect(inspectImage(lying)).toEqual({ ok: true, value: { mime: "image/png", width: 8, height: 8 } });
    const signature = png(1, 1).subarray(0, 8);
    expect(() => inspectImage(Buffer.concat([signature, Buffer.alloc(5000, 0xff)]))).not.toThrow();
    expect(() => inspectImage(Buffer.concat([signature, Buffer.alloc(3)]))).not.toThrow();
  });

  it("walks a 10 MB PNG of a hundred thousand empty chunks in linear time", () => {
    const header = png(8, 8).subarray(0, 33);
    const filler = pngChunk("tEXt", Buffer.alloc(88));
    const big = Buffer.concat([header, ...Array.from({ length: 100_000 }, () => filler), pngChunk("acTL", Buffer.alloc(8)), png(8, 8).subarray(33)]);
    const started = performance.now();
    expect(inspectImage(big)).toEqual({ ok: false, error: { kind: "animated" } });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("says what a file that is not an image looks like", () => {
    expect(inspectImage(zip())).toMatchObject({ ok: false, error: { kind: "not-image", looksLike: { id: "zip" } } });
    expect(inspectImage(Buffer.from("just some notes\n"))).toEqual({ ok: false, error: { kind: "not-image", looksLike: "text" } });
    expect(inspectImage(Buffer.from([0, 1, 2, 3, 250, 251]))).toEqual({ ok: false, error: { kind: "not-image", looksLike: null } });
    expect(inspectImage(Buffer.from("BM", "latin1"))).toEqual({ ok: false, error: { kind: "not-image", looksLike: "text" } });
  });

  it("refuses an image whose header is cut short or has no size", () => {
    expect(inspectImage(png(4, 4).subarray(0, 12))).toEqual({ ok: false, error: { kind: "damaged" } });
    expect(inspectImage(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toEqual({ ok: false, error: { kind: "damaged" } });
    expect(inspectImage(gif(0, 0))).toEqual({ ok: false, error: { kind: "damaged" } });
    expect(inspectImage(gif(5, 4, 1).subarray(0, 20))).toEqual({ ok: false, error: { kind: "damaged" } });
  });
});
