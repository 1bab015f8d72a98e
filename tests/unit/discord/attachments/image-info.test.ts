import { describe, expect, it } from "vitest";
import { inspectImage } from "../../../../src/discord/attachments/image-info.js";
import { gif, jpeg, png, webpExtended, webpLossless, webpLossy, zip } from "../../../helpers/image-fixtures.js";

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

  it("refuses animated GIFs and animated WebPs", () => {
    expect(inspectImage(gif(5, 4, 2))).toEqual({ ok: false, error: { kind: "animated" } });
    expect(inspectImage(gif(5, 4, 3))).toEqual({ ok: false, error: { kind: "animated" } });
    expect(inspectImage(webpExtended(10, 10, { animated: true }))).toEqual({ ok: false, error: { kind: "animated" } });
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
