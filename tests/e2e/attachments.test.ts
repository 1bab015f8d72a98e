import { describe, expect, it } from "vitest";
import type { AttachmentInput } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { apng, png, zip } from "../helpers/image-fixtures.js";

const MB = 1024 * 1024;

/** Alice starts a thread and gets a first answer; returns the thread id. */
async function thread(h: BotHarness): Promise<string> {
  h.model.enqueue({ text: "Hello Alice." });
  const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "hi", mentionsBot: true });
  await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content === "Hello Alice."));
  return start.id;
}

/** Alice posts in the thread; resolves with the bot's next message there once it is complete. */
async function post(h: BotHarness, threadId: string, content: string, attachments: AttachmentInput[], options: { premium?: boolean } = {}) {
  const before = botMessages(h.discord, threadId).length;
  await h.discord.userSends({ channelId: threadId, userId: h.discord.alice.id, content, attachments, ...options });
  const reply = await h.discord.waitFor(() => botMessages(h.discord, threadId)[before]);
  await new Promise((r) => setTimeout(r, 250));
  return h.discord.message(reply.id)!;
}

const lastAsked = (h: BotHarness) => h.model.requests.at(-1)!.body.messages.at(-1)!;

describe("images", () => {
  it("go to a model that can see as data URLs, and the history keeps a placeholder", async () => {
    const h = await startBot({ env: { OPENAI_VISION: "true" } });
    const threadId = await thread(h);
    h.model.enqueue({ text: "A tiny picture." });
    const image = png(64, 48);
    const reply = await post(h, threadId, "what is this?", [{ filename: "cat.png", contentType: "image/png", data: image, width: 64, height: 48 }]);
    expect(reply.content).toBe("A tiny picture.");
    expect(lastAsked(h)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${image.toString("base64")}` } },
      ],
    });
    const record = await h.engine.latestIn(threadId);
    expect(record?.messages.at(-2)).toEqual({ role: "user", content: "what is this?\n\n[image: cat.png, 64×48]" });
  });

  it("without vision: the bot says once per conversation that it cannot see them and answers the words; an image alone gets that line and no model call", async () => {
    const h = await startBot();
    const threadId = await thread(h);
    h.model.enqueue({ text: "A cat, you say." }, { text: "Another one." });
    const cat = { filename: "cat.png", contentType: "image/png", data: png(64, 48), width: 64, height: 48 };
    const first = await post(h, threadId, "it's my cat", [cat]);
    expect(first.content).toBe("A cat, you say.\n-# 🖼️ I can't see images with this model, so I answer your words only.");
    expect(lastAsked(h).content).toBe("it's my cat\n\n[image: cat.png, 64×48 (not shown: this model cannot see images)]");
    const second = await post(h, threadId, "and another", [{ ...cat, filename: "dog.png" }]);
    expect(second.content).toBe("Another one.");

    const calls = h.model.requests.length;
    const alone = await post(h, threadId, "", [cat]);
    expect(alone.content).toBe("🖼️ I can't see images with this model; tell me in words what you'd like to know.");
    expect(h.model.requests).toHaveLength(calls);
    expect(h.discord.cdnRequests).toEqual([]);
  });
});

describe("animated PNGs", () => {
  it("refuses an APNG named .png like an animated GIF: one line, and the model gets only the words", async () => {
    const h = await startBot({ env: { OPENAI_VISION: "true" } });
    const threadId = await thread(h);
    const spinner = { filename: "spinner.png", contentType: "image/png", data: apng(32, 32, 4), width: 32, height: 32 };
    const calls = h.model.requests.length;
    const alone = await post(h, threadId, "", [spinner]);
    expect(alone.content).toBe("🖼️ spinner.png is animated; I can only look at still images.");
    expect(h.model.requests).toHaveLength(calls);

    h.model.enqueue({ text: "I see only your words." });
    const withWords = await post(h, threadId, "look at this", [spinner]);
    expect(withWords.content).toBe("I see only your words.\n-# 🖼️ spinner.png is animated; I can only look at still images.");
    expect(lastAsked(h)).toEqual({ role: "user", content: "look at this\n\n[image: spinner.png (not shown: it is animated)]" });
  });
});

describe("files", () => {
  it("inlines a text file in the turn, and says how much of a long one the model read", async () => {
    const h = await startBot({ env: { ATTACHMENT_FILE_KB: "1" } });
    const threadId = await thread(h);
    h.model.enqueue({ text: "Two lines of notes." }, { text: "A long log." });
    await post(h, threadId, "", [{ filename: "notes.md", contentType: "text/markdown", data: "# Notes\n- oolong\n" }]);
    expect(lastAsked(h).content).toBe("📄 notes.md:\n```markdown\n# Notes\n- oolong\n```");

    const log = Array.from({ length: 200 }, (_, i) => `line ${i} ok`).join("\n");
    const reply = await post(h, threadId, "why does it fail?", [{ filename: "server.log", contentType: "text/plain", data: log }]);
    expect(reply.content).toBe("A long log.\n-# 📄 server.log is 2.2 KB; I read the first 1 KB.");
    const asked = lastAsked(h).content as string;
    expect(asked).toMatch(/^why does it fail\?\n\n📄 server\.log \(first 1 KB of 2\.2 KB\):\n```log\nline 0 ok\n/);
    expect(asked).toContain("[… cut here: the model saw the first 1 KB of 2.2 KB]");
  });

  it("gives each hostile or oversize file one clear line and nothing else happens", async () => {
    const h = await startBot({ env: { OPENAI_VISION: "true" } });
    const threadId = await thread(h);
    const calls = h.model.requests.length;
    const reply = await post(
      h,
      threadId,
      "",
      [
        { filename: "notes.txt", contentType: "text/plain", data: zip() },
        { filename: "bad.txt", contentType: "text/plain", data: Buffer.from([0x68, 0x69, 0xc3, 0x28, 0xff, 0xfe, 0x80]) },
        { filename: "huge.png", contentType: "image/png", data: Buffer.alloc(50 * MB) },
        { filename: "logo.svg", contentType: "image/svg+xml", data: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' },
      ],
      { premium: true },
    );
    expect(reply.content.split("\n")).toEqual([
      "📄 notes.txt doesn't look like a text file (it looks like a zip archive).",
      "📄 bad.txt isn't UTF-8 or UTF-16 text, so I couldn't read it.",
      "🖼️ huge.png is 50 MB; I can look at images up to 10 MB.",
      "🖼️ logo.svg: SVG images aren't supported; please send PNG, JPEG, WebP or GIF.",
    ]);
    expect(h.model.requests).toHaveLength(calls);
    expect(h.discord.cdnRequests.some((r) => r.path.endsWith("huge.png"))).toBe(false);
    expect(botMessages(h.discord, threadId)).toHaveLength(2);
    const record = await h.engine.latestIn(threadId);
    expect(record?.messages).toHaveLength(2);
  });

  it("answers a file sent alone in a DM, in Chinese for a zh-CN person", async () => {
    const h = await startBot();
    await h.engine.memoryOf(h.discord.alice.id).saveSettings({ locale: "zh-CN" });
    const dm = h.discord.openDm(h.discord.alice.id);
    const calls = h.model.requests.length;
    await h.discord.userSends({
      channelId: dm.id,
      userId: h.discord.alice.id,
      content: "",
      attachments: [{ filename: "report.pdf", contentType: "application/pdf", data: "%PDF-1.7\n" }],
    });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, dm.id)[0]);
    expect(reply.content).toBe("📎 report.pdf：我无法读取这类文件，只能读取文本文件。");
    expect(h.model.requests).toHaveLength(calls);
  });
});
