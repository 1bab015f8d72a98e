import { Events } from "discord.js";
import { describe, expect, it } from "vitest";
import { english } from "../../src/lib/locale.js";
import type { AttachmentLimits } from "../../src/config.js";
import { readAttachments } from "../../src/discord/attachments/index.js";
import type { AttachmentInput, FakeDiscord } from "../fakes/fake-discord/index.js";
import { eventually } from "../helpers/eventually.js";
import { gif, jpeg, png, utf16, webpExtended, webpLossless, webpLossy, zip } from "../helpers/image-fixtures.js";
import { fakeDiscordPerTest, nextEvent } from "./fake-discord-client.js";

/** The bot's attachment reader against the fake Discord: discord.js's attachments, the CDN's signed links, real HTTP. */

const KB = 1024;
const MB = 1024 * 1024;
const LIMITS: AttachmentLimits = { vision: true, imageBytes: 10 * MB, imagesPerMessage: 4, fileBytes: 100 * KB, messageBytes: 200 * KB };

let discord: FakeDiscord;
const clients = fakeDiscordPerTest((fresh) => (discord = fresh));

/** Alice posts these files; resolves with the attachments as the bot's discord.js client received them. */
async function alicePosts(attachments: AttachmentInput[], options: { premium?: boolean } = {}) {
  const client = await clients.logIn(discord);
  const received = nextEvent(client, Events.MessageCreate);
  await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "look", attachments, ...options });
  const [message] = await received;
  return [...message.attachments.values()];
}

const pathsRequested = () => discord.cdnRequests.map((r) => decodeURIComponent(r.path.split("/").pop() ?? ""));

describe("reading a person's attachments from Discord's CDN", () => {
  it("sends PNG, JPEG, WebP and still GIF as data URLs with their real sizes, fetched at the signed links as given", async () => {
    const files = {
      "cat.png": png(640, 480),
      "photo.jpg": jpeg(800, 600),
      "sticker.webp": webpLossy(320, 240),
      "still.gif": gif(16, 9),
    };
    const attachments = await alicePosts(
      Object.entries(files).map(([filename, data]) => ({ filename, data, contentType: "application/octet-stream", width: 1, height: 1 })),
    );

    const result = await readAttachments(attachments, LIMITS, english);

    expect(result.lines).toEqual([]);
    expect(result.text).toBe("");
    expect(result.usable).toBe(true);
    expect(result.images.map(({ name, mime, width, height, placeholder }) => ({ name, mime, width, height, placeholder }))).toEqual([
      { name: "cat.png", mime: "image/png", width: 640, height: 480, placeholder: "[image: cat.png, 640×480]" },
      { name: "photo.jpg", mime: "image/jpeg", width: 800, height: 600, placeholder: "[image: photo.jpg, 800×600]" },
      { name: "sticker.webp", mime: "image/webp", width: 320, height: 240, placeholder: "[image: sticker.webp, 320×240]" },
      { name: "still.gif", mime: "image/gif", width: 16, height: 9, placeholder: "[image: still.gif, 16×9]" },
    ]);
    expect(result.images.map((i) => i.dataUrl)).toEqual(
      Object.values(files).map((data, n) => `data:${result.images[n]?.mime};base64,${data.toString("base64")}`),
    );
    expect(discord.cdnRequests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const request of discord.cdnRequests) expect(Object.keys(request.query)).toEqual(["ex", "is", "hm"]);
  });

  it("reads lossless and extended WebP too", async () => {
    const attachments = await alicePosts([
      { filename: "a.webp", data: webpLossless(33, 44) },
      { filename: "b.webp", data: webpExtended(1920, 1080) },
    ]);
    const result = await readAttachments(attachments, LIMITS, english);
    expect(result.images.map((i) => [i.width, i.height])).toEqual([
      [33, 44],
      [1920, 1080],
    ]);
  });

  it("refuses an animated GIF, an SVG, and a .png that is a zip, downloading no SVG", async () => {
    const attachments = await alicePosts([
      { filename: "dance.gif", contentType: "image/gif", data: gif(20, 20, 3) },
      { filename: "logo.svg", contentType: "image/svg+xml", data: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
      { filename: "cat.png", contentType: "image/png", data: zip() },
    ]);

    const result = await readAttachments(attachments, LIMITS, english);

    expect(result.lines).toEqual([
      "🖼️ dance.gif is animated; I can only look at still images.",
      "🖼️ logo.svg: SVG images aren't supported; please send PNG, JPEG, WebP or GIF.",
      "🖼️ cat.png isn't a valid image (it looks like a zip archive).",
    ]);
    expect(result.images).toEqual([]);
    expect(result.usable).toBe(false);
    expect(result.text).toBe(
      [
        "[image: dance.gif (not shown: it is animated)]",
        "[image: logo.svg (not shown: SVG images are not supported)]",
        "[image: cat.png (not shown: it is not a valid image)]",
      ].join("\n\n"),
    );
    expect(pathsRequested()).toEqual(["dance.gif", "cat.png"]);
  });

  it("refuses a 50 MB image without downloading it, and skips a fifth image without downloading it", async () => {
    const huge = { filename: "huge.png", contentType: "image/png", data: Buffer.concat([png(8, 8), Buffer.alloc(50 * MB)]) };
    await expect(discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "", attachments: [huge] })).rejects.toThrow(
      /10 MiB/,
    );
    const small = [1, 2, 3, 4, 5].map((n) => ({ filename: `p${n}.png`, contentType: "image/png", data: png(n, n) }));
    const attachments = await alicePosts([huge, ...small], { premium: true });

    const result = await readAttachments(attachments, LIMITS, english);

    expect(result.lines).toEqual(["🖼️ huge.png is 50 MB; I can look at images up to 10 MB.", "🖼️ p5.png: skipped; I look at 4 images per message at most."]);
    expect(result.images.map((i) => i.name)).toEqual(["p1.png", "p2.png", "p3.png", "p4.png"]);
    expect(pathsRequested().sort()).toEqual(["p1.png", "p2.png", "p3.png", "p4.png"]);
  });

  it("reads only the first 100 KB of a 50 MB log, cancelling the rest of the download", async () => {
    const line = "2026-12-02T10:00:00Z INFO request served in 3 ms\n";
    const log = line.repeat(Math.ceil((50 * MB) / line.length));
    const attachments = await alicePosts([{ filename: "server.log", contentType: "text/plain; charset=utf-8", data: log }], { premium: true });

    const result = await readAttachments(attachments, LIMITS, english);

    expect(result.lines).toEqual(["📄 server.log is 50 MB; I read the first 100 KB."]);
    expect(result.text.startsWith(`📄 server.log (first 100 KB of 50 MB):\n\`\`\`log\n${line}`)).toBe(true);
    expect(result.text.endsWith("\n[… cut here: the model saw the first 100 KB of 50 MB]\n```")).toBe(true);
    expect(result.usable).toBe(true);
    const [request] = discord.cdnRequests;
    await eventually(async () => request?.body !== "sending", 5000, "the CDN to notice the download ended");
    expect(request).toMatchObject({ status: 200, body: "cut" });
    expect(request?.bytesSent).toBeLessThan(20 * MB);
  });

  it("refuses a zip renamed .txt and a .txt that is not UTF-8, and reads UTF-16 with and without a byte order mark", async () => {
    const text = "Windows wrote this\r\n第二行\r\n";
    const attachments = await alicePosts([
      { filename: "notes.txt", contentType: "text/plain", data: zip() },
      { filename: "latin1.txt", contentType: "text/plain", data: Buffer.from("café crème\n", "latin1") },
      { filename: "bom.txt", contentType: "text/plain; charset=utf-16", data: utf16(text, { endian: "le", bom: true }) },
      { filename: "nobom.log", contentType: "text/plain", data: utf16("error: disk full\r\n", { endian: "le", bom: false }) },
    ]);

    const result = await readAttachments(attachments, LIMITS, english);

    expect(result.lines).toEqual([
      "📄 notes.txt doesn't look like a text file (it looks like a zip archive).",
      "📄 latin1.txt isn't UTF-8 or UTF-16 text, so I couldn't read it.",
    ]);
    expect(result.text).toBe(
      [
        "[file: notes.txt (not read: it is not a text file; it looks like a zip archive)]",
        "[file: latin1.txt (not read: it is not UTF-8 or UTF-16 text)]",
        `📄 bom.txt:\n\`\`\`\n${text}\`\`\``,
        "📄 nobom.log:\n```log\nerror: disk full\r\n```",
      ].join("\n\n"),
    );
    expect(result.usable).toBe(true);
  });

  it("with vision off, downloads nothing and notes the images for the model with Discord's declared size", async () => {
    const attachments = await alicePosts([
      { filename: "cat.png", contentType: "image/png", data: png(640, 480), width: 640, height: 480 },
      { filename: "dog.jpg", contentType: "image/jpeg", data: jpeg(10, 10) },
    ]);

    const result = await readAttachments(attachments, { ...LIMITS, vision: false }, english);

    expect(result).toEqual({
      text: "[image: cat.png, 640×480 (not shown: this model cannot see images)]\n\n[image: dog.jpg (not shown: this model cannot see images)]",
      parts: [
        { origin: "image", name: "cat.png", text: "[image: cat.png, 640×480 (not shown: this model cannot see images)]" },
        { origin: "image", name: "dog.jpg", text: "[image: dog.jpg (not shown: this model cannot see images)]" },
      ],
      images: [],
      lines: [],
      unseenImages: true,
      usable: false,
    });
    expect(discord.cdnRequests).toEqual([]);
  });

  it("says a file whose message was deleted could not be downloaded", async () => {
    const client = await clients.logIn(discord);
    const received = nextEvent(client, Events.MessageCreate);
    await discord.userSends({
      channelId: discord.textChannel.id,
      userId: discord.alice.id,
      content: "",
      attachments: [{ filename: "gone.txt", data: "bye" }],
    });
    const [message] = await received;
    await message.delete();

    const result = await readAttachments(message.attachments.values(), LIMITS, english);

    expect(result.lines).toEqual(["📎 gone.txt: I couldn't download it from Discord; please try again."]);
    expect(discord.cdnRequests.map((r) => r.status)).toEqual([404]);
  });
});
