import { describe, expect, it } from "vitest";
import type { Say } from "../../../../src/lib/locale.js";
import type { AttachmentLimits } from "../../../../src/config.js";
import { readAttachments, type AttachmentLike } from "../../../../src/discord/attachments/index.js";
import { gif, jpeg, png, zip } from "../../../helpers/image-fixtures.js";

const en: Say = (english) => english;
const zh: Say = (_english, chinese) => chinese;
const KB = 1024;
const MB = 1024 * 1024;

const LIMITS: AttachmentLimits = { vision: true, imageBytes: 10 * MB, imagesPerMessage: 4, fileBytes: 100 * KB, messageBytes: 200 * KB };

/** A tiny CDN: serves each file at its URL, records what was asked for and how many bytes were pulled. */
class FakeCdn {
  readonly requested: string[] = [];
  readonly pulled = new Map<string, number>();
  private readonly files = new Map<string, Buffer>();

  file(name: string, data: Buffer | string, extra: Partial<AttachmentLike> = {}): AttachmentLike {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const url = `https://cdn.example/attachments/1/${this.files.size}/${name}?ex=1&is=2&hm=3&`;
    this.files.set(url, bytes);
    return { name, url, size: bytes.length, contentType: null, width: null, height: null, ...extra };
  }

  readonly fetch: typeof fetch = async (input) => {
    const url = String(input);
    this.requested.push(url);
    const bytes = this.files.get(url);
    if (!bytes) return new Response("not found", { status: 404 });
    let offset = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull: (controller) => {
          if (offset >= bytes.length) return controller.close();
          const chunk = bytes.subarray(offset, offset + 16 * KB);
          offset += chunk.length;
          this.pulled.set(url, offset);
          controller.enqueue(new Uint8Array(chunk));
        },
      }),
    );
  };
}

describe("readAttachments: text files", () => {
  it("puts a whole text file in a fenced block headed by its name", async () => {
    const cdn = new FakeCdn();
    const notes = cdn.file("notes.md", "# Plan\n- tea\n", { contentType: "text/markdown" });
    const result = await readAttachments([notes], LIMITS, en, { fetch: cdn.fetch });
    const text = "📄 notes.md:\n```markdown\n# Plan\n- tea\n```";
    // The file's words are the file's, by name: never the person's own (lib/provenance.ts).
    expect(result).toEqual({ text, parts: [{ origin: "file", name: "notes.md", text }], images: [], lines: [], unseenImages: false, usable: true });
  });

  it("cuts a long log at the file budget, marks the cut, and tells the person, reading only what the budget needs", async () => {
    const cdn = new FakeCdn();
    const log = cdn.file("server.log", "x".repeat(340 * KB));
    const result = await readAttachments([log], LIMITS, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual(["📄 server.log is 340 KB; I read the first 100 KB."]);
    expect(result.text.startsWith("📄 server.log (first 100 KB of 340 KB):\n```log\nxxx")).toBe(true);
    expect(result.text.endsWith("x\n[… cut here: the model saw the first 100 KB of 340 KB]\n```")).toBe(true);
    expect(result.text.split("x").length - 1).toBe(100 * KB);
    expect(cdn.pulled.get(log.url)).toBeLessThan(340 * KB);
    expect(result.usable).toBe(true);
  });

  it("shares the message budget among files in order, and downloads nothing for a file past it", async () => {
    const cdn = new FakeCdn();
    const files = ["a.txt", "b.txt", "c.txt"].map((name) => cdn.file(name, "y".repeat(80 * KB)));
    const result = await readAttachments(files, { ...LIMITS, messageBytes: 150 * KB }, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual(["📄 b.txt is 80 KB; I read the first 70 KB.", "📄 c.txt: I didn't read it; I read at most 150 KB of files per message."]);
    expect(result.text).toContain("📄 a.txt:\n```\n");
    expect(result.text).toContain("📄 b.txt (first 70 KB of 80 KB):");
    expect(result.text.endsWith("[file: c.txt (not read: this message's 150 KB limit for files was used up)]")).toBe(true);
    expect(cdn.requested).toEqual([files[0]?.url, files[1]?.url]);
  });

  it("refuses binary and non-UTF-8 files with a line each, leaving their budget to the next file", async () => {
    const cdn = new FakeCdn();
    const renamed = cdn.file("archive.txt", zip(), { contentType: "text/plain" });
    const latin1 = cdn.file("old.txt", Buffer.from("café ".repeat(30 * KB), "latin1"));
    const good = cdn.file("good.txt", "z".repeat(90 * KB));
    const result = await readAttachments([renamed, latin1, good], { ...LIMITS, messageBytes: 100 * KB }, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual([
      "📄 archive.txt doesn't look like a text file (it looks like a zip archive).",
      "📄 old.txt isn't UTF-8 or UTF-16 text, so I couldn't read it.",
    ]);
    expect(result.text).toContain("[file: archive.txt (not read: it is not a text file; it looks like a zip archive)]");
    expect(result.text).toContain("[file: old.txt (not read: it is not UTF-8 or UTF-16 text)]");
    expect(result.text).toContain("📄 good.txt:\n");
    expect(result.usable).toBe(true);
  });

  it("is not usable when no file could be read", async () => {
    const cdn = new FakeCdn();
    const result = await readAttachments([cdn.file("archive.txt", zip())], LIMITS, en, { fetch: cdn.fetch });
    expect(result.usable).toBe(false);
    expect(result.text).not.toBe("");
  });
});

describe("readAttachments: images", () => {
  it("sends a real image as a data URL with its size from the bytes, and no text for it", async () => {
    const cdn = new FakeCdn();
    const bytes = png(640, 480);
    const cat = cdn.file("cat.png", bytes, { contentType: "image/png", width: 1, height: 1 });
    const result = await readAttachments([cat], LIMITS, en, { fetch: cdn.fetch });
    expect(result).toEqual({
      text: "",
      parts: [],
      images: [
        {
          name: "cat.png",
          mime: "image/png",
          width: 640,
          height: 480,
          dataUrl: `data:image/png;base64,${bytes.toString("base64")}`,
          placeholder: "[image: cat.png, 640×480]",
        },
      ],
      lines: [],
      unseenImages: false,
      usable: true,
    });
    expect(cdn.requested).toEqual([cat.url]);
  });

  it("skips images past the per-message count without downloading them", async () => {
    const cdn = new FakeCdn();
    const files = [1, 2, 3, 4, 5].map((n) => cdn.file(`p${n}.png`, png(n, n), { contentType: "image/png" }));
    const result = await readAttachments(files, LIMITS, en, { fetch: cdn.fetch });
    expect(result.images.map((i) => i.name)).toEqual(["p1.png", "p2.png", "p3.png", "p4.png"]);
    expect(result.lines).toEqual(["🖼️ p5.png: skipped; I look at 4 images per message at most."]);
    expect(result.text).toBe("[image: p5.png (not shown: only 4 images per message are shown)]");
    expect(cdn.requested).not.toContain(files[4]?.url);
  });

  it("refuses an image declared over the size limit before downloading it", async () => {
    const cdn = new FakeCdn();
    const big = cdn.file("big.png", png(2, 2), { size: 50 * MB });
    const result = await readAttachments([big], LIMITS, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual(["🖼️ big.png is 50 MB; I can look at images up to 10 MB."]);
    expect(result.text).toBe("[image: big.png (not shown: it is over the 10 MB image limit)]");
    expect(cdn.requested).toEqual([]);
    expect(result.usable).toBe(false);
  });

  it("refuses an image whose download runs over the limit although its declared size was small", async () => {
    const cdn = new FakeCdn();
    const liar = cdn.file("liar.png", Buffer.concat([png(2, 2), Buffer.alloc(2 * MB)]), { size: 100 });
    const result = await readAttachments([liar], { ...LIMITS, imageBytes: MB }, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual(["🖼️ liar.png is over 1 MB; I can look at images up to 1 MB."]);
    expect(cdn.pulled.get(liar.url)).toBeLessThan(2 * MB);
  });

  it("refuses animated GIFs, SVGs and files that are not what their name says", async () => {
    const cdn = new FakeCdn();
    const files = [
      cdn.file("dance.gif", gif(10, 10, 2), { contentType: "image/gif" }),
      cdn.file("logo.svg", "<svg/>", { contentType: "image/svg+xml" }),
      cdn.file("cat.png", zip(), { contentType: "image/png" }),
      cdn.file("dog.jpg", "not a picture", { contentType: "image/jpeg" }),
    ];
    const result = await readAttachments(files, LIMITS, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual([
      "🖼️ dance.gif is animated; I can only look at still images.",
      "🖼️ logo.svg: SVG images aren't supported; please send PNG, JPEG, WebP or GIF.",
      "🖼️ cat.png isn't a valid image (it looks like a zip archive).",
      "🖼️ dog.jpg isn't a valid image (it looks like text).",
    ]);
    expect(result.images).toEqual([]);
    expect(result.usable).toBe(false);
    expect(cdn.requested).not.toContain(files[1]?.url);
  });

  it("with vision off, downloads no image and notes each one for the model with its declared size", async () => {
    const cdn = new FakeCdn();
    const cat = cdn.file("cat.png", png(640, 480), { contentType: "image/png", width: 640, height: 480 });
    const pasted = cdn.file("paste.jpg", jpeg(10, 10));
    const result = await readAttachments([cat, pasted], { ...LIMITS, vision: false }, en, { fetch: cdn.fetch });
    expect(result).toEqual({
      text: "[image: cat.png, 640×480 (not shown: this model cannot see images)]\n\n" + "[image: paste.jpg (not shown: this model cannot see images)]",
      parts: [
        { origin: "image", name: "cat.png", text: "[image: cat.png, 640×480 (not shown: this model cannot see images)]" },
        { origin: "image", name: "paste.jpg", text: "[image: paste.jpg (not shown: this model cannot see images)]" },
      ],
      images: [],
      lines: [],
      unseenImages: true,
      usable: false,
    });
    expect(cdn.requested).toEqual([]);
  });
});

describe("readAttachments: other files and failures", () => {
  it("answers files it cannot read with a line, and keeps secrets files out", async () => {
    const cdn = new FakeCdn();
    const files = [cdn.file("report.pdf", "%PDF-1.7", { contentType: "application/pdf" }), cdn.file(".env", "TOKEN=abc")];
    const seeing = await readAttachments(files, LIMITS, en, { fetch: cdn.fetch });
    expect(seeing.lines).toEqual([
      "📎 report.pdf: I can't read this kind of file; I read images and text files.",
      "🔒 .env: I don't read this file; files like .env and private keys usually hold secrets.",
    ]);
    expect(seeing.text).toBe("[file: report.pdf (not read: this kind of file is not supported)]\n\n[file: .env (not read: it may hold secrets)]");
    const blind = await readAttachments(files.slice(0, 1), { ...LIMITS, vision: false }, en, { fetch: cdn.fetch });
    expect(blind.lines).toEqual(["📎 report.pdf: I can't read this kind of file; I read text files."]);
    expect(cdn.requested).toEqual([]);
  });

  it("turns a failed download into a line, never a throw, and reads the other files", async () => {
    const cdn = new FakeCdn();
    const gone: AttachmentLike = {
      name: "x.txt",
      url: "https://cdn.example/gone?ex=1&is=2&hm=3&",
      size: 5,
      contentType: "text/plain",
      width: null,
      height: null,
    };
    const here = cdn.file("y.txt", "hello");
    const result = await readAttachments([gone, here], LIMITS, en, { fetch: cdn.fetch });
    expect(result.lines).toEqual(["📎 x.txt: I couldn't download it from Discord; please try again."]);
    expect(result.text).toBe("[file: x.txt (not read: the download failed)]\n\n📄 y.txt:\n```\nhello\n```");
    expect(result.usable).toBe(true);
  });

  it("reads nothing from nothing", async () => {
    expect(await readAttachments([], LIMITS, en)).toEqual({ text: "", parts: [], images: [], lines: [], unseenImages: false, usable: false });
  });
});

describe("readAttachments: lines in Chinese", () => {
  it("says every line in the person's language, sizes written the same way", async () => {
    const cdn = new FakeCdn();
    const files = [
      cdn.file("server.log", "x".repeat(340 * KB)),
      cdn.file("archive.txt", zip()),
      cdn.file("old.txt", Buffer.from("café", "latin1")),
      cdn.file("big.png", png(1, 1), { size: 50 * MB }),
      cdn.file("dance.gif", gif(2, 2, 2)),
      cdn.file("logo.svg", "<svg/>"),
      cdn.file("cat.png", zip()),
      cdn.file("report.pdf", "%PDF"),
      cdn.file(".env", "A=1"),
      { name: "x.txt", url: "https://cdn.example/gone", size: 1, contentType: null, width: null, height: null },
    ];
    const result = await readAttachments(files, LIMITS, zh, { fetch: cdn.fetch });
    expect(result.lines).toEqual([
      "📄 server.log 有 340 KB，我只读了前 100 KB。",
      "📄 archive.txt 看起来不是文本文件（像是 zip 压缩包）。",
      "📄 old.txt 不是 UTF-8 或 UTF-16 编码的文本，我无法读取。",
      "🖼️ big.png 有 50 MB，我只能查看不超过 10 MB 的图片。",
      "🖼️ dance.gif 是动图，我只能查看静态图片。",
      "🖼️ logo.svg：不支持 SVG 图片，请发送 PNG、JPEG、WebP 或 GIF。",
      "🖼️ cat.png 不是有效的图片（像是 zip 压缩包）。",
      "📎 report.pdf：我无法读取这类文件，只能读取图片和文本文件。",
      "🔒 .env：我不读取这个文件，.env 和私钥这类文件通常含有密钥。",
      "📎 x.txt：无法从 Discord 下载，请重试。",
    ]);
    const more = await readAttachments(
      [1, 2].map((n) => cdn.file(`p${n}.png`, png(1, 1))).concat([cdn.file("c.txt", "c".repeat(KB)), cdn.file("d.txt", "d")]),
      { ...LIMITS, imagesPerMessage: 1, messageBytes: KB },
      zh,
      { fetch: cdn.fetch },
    );
    expect(more.lines).toEqual(["🖼️ p2.png：已跳过，每条消息我最多查看 1 张图片。", "📄 d.txt：没有读取，每条消息的文件我最多读取 1 KB。"]);
  });
});
