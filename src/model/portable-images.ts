import type Sharp from "sharp";
import { Semaphore } from "async-mutex";
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";

/**
 * Images in a form every model server takes. PNG and JPEG are read by all of them; a GIF is
 * refused by Ollama (every version: server/images.go, `decodeImageURL` accepts jpeg, png and,
 * from 0.10.0, webp) and a WebP by Ollama before 0.10.0. So a GIF is always sent as a PNG of its
 * first frame, and a WebP once the server has refused one. sharp (libvips) decodes and encodes in
 * its own threads, so a large image does not hold up the event loop.
 */

/**
 * The most pixels an image may have, here and where Discord's attachments are read: 4096 × 4096 (a
 * still image of a few kilobytes can declare billions; the servers scale images far smaller anyway).
 */
export const MAX_IMAGE_PIXELS = 4096 * 4096;
/** A converted image's longest side: what the servers scale to anyway, and a far smaller request. */
const MAX_SIDE = 2048;

// One libvips thread an image, and one conversion at a time in the process: a person's images wait
// for each other instead of holding the thread pool that everyone's file reads use.
const oneAtATime = new Semaphore(1);

/**
 * sharp, loaded at the first conversion: libvips takes about 120 ms to load, which every start of
 * the bot, the terminal chat and the CLI would pay though most never convert an image.
 */
let loaded: Promise<typeof Sharp> | undefined;
function sharpLoaded(): Promise<typeof Sharp> {
  loaded ??= import("sharp").then(
    ({ default: sharp }) => {
      sharp.concurrency(1);
      return sharp;
    },
    (error: unknown) => {
      // Not kept: the next image tries again. Until then an image is left out, as one that cannot be decoded is.
      loaded = undefined;
      process.emitWarning(`sharp could not be loaded, images go to the model as they are or not at all: ${String(error)}`);
      throw error;
    },
  );
  return loaded;
}

const DATA_URL = /^data:(image\/[a-z+.-]{1,40});base64,/i;

/** The image type a data URL declares, lower case; undefined for anything else (an https URL). */
function typeOf(url: string): string | undefined {
  return DATA_URL.exec(url.slice(0, 64))?.[1]?.toLowerCase();
}

/**
 * Conversions already made, by the image part they were made for: a turn sends its message again
 * in every round of tool calls, and an image is converted once.
 */
const conversions = new WeakMap<object, Promise<string | undefined>>();

/** A PNG data URL of the image's first frame, or undefined when it cannot be decoded. */
async function asPng(dataUrl: string): Promise<string | undefined> {
  const comma = dataUrl.indexOf(",");
  try {
    const sharp = await sharpLoaded();
    const png = await oneAtATime.runExclusive(() =>
      sharp(Buffer.from(dataUrl.slice(comma + 1), "base64"), { pages: 1, limitInputPixels: MAX_IMAGE_PIXELS })
        .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
        .png()
        .toBuffer(),
    );
    return `data:image/png;base64,${png.toString("base64")}`;
  } catch {
    return undefined;
  }
}

/** Whether the messages carry an image part of one of these types. */
export function hasImages(messages: readonly ChatCompletionMessageParam[], types?: readonly string[]): boolean {
  return messages.some(
    (m) =>
      m.role === "user" &&
      Array.isArray(m.content) &&
      m.content.some((p) => p.type === "image_url" && (!types || types.includes(typeOf(p.image_url.url) ?? ""))),
  );
}

/**
 * The messages with every image of the given types as PNG. An image that cannot be converted is
 * left out, and counted, so the person can be told.
 */
export async function convertImages(
  messages: ChatCompletionMessageParam[],
  types: readonly string[],
): Promise<{ messages: ChatCompletionMessageParam[]; leftOut: number }> {
  if (!hasImages(messages, types)) return { messages, leftOut: 0 };
  let leftOut = 0;
  const converted = await Promise.all(
    messages.map(async (message): Promise<ChatCompletionMessageParam> => {
      if (message.role !== "user" || !Array.isArray(message.content)) return message;
      const parts = await Promise.all(
        message.content.map(async (part): Promise<ChatCompletionContentPart | undefined> => {
          if (part.type !== "image_url" || !types.includes(typeOf(part.image_url.url) ?? "")) return part;
          let conversion = conversions.get(part.image_url);
          if (!conversion) {
            conversion = asPng(part.image_url.url);
            conversions.set(part.image_url, conversion);
          }
          const png = await conversion;
          if (png === undefined) leftOut++;
          return png === undefined ? undefined : { ...part, image_url: { ...part.image_url, url: png } };
        }),
      );
      return { ...message, content: parts.filter((p) => p !== undefined) };
    }),
  );
  return { messages: converted, leftOut };
}

/** The messages without their image parts: for a model that refused them. */
export function withoutImages(messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  return messages.map((message) => {
    if (message.role !== "user" || !Array.isArray(message.content)) return message;
    return { ...message, content: message.content.filter((part) => part.type !== "image_url") };
  });
}
