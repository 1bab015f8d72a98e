import type { Say } from "../../lib/locale.js";
import { joinParts, type MessagePart } from "../../lib/provenance.js";
import type { AttachmentLimits } from "../../config.js";
import { kindOf } from "./attachment-kind.js";
import { fileLines } from "./attachment-lines.js";
import type { AttachmentLike, Outcome, ReadContext, ReadImage } from "./attachment-types.js";
import { fileNote, noteReasons } from "./model-notes.js";
import { readImage, unsupportedImage } from "./read-image.js";
import { readTextFiles } from "./read-text-files.js";

export interface ReadResult {
  /**
   * Text to add to the person's message for the model: each text file as a fenced block headed by
   * its name; a short bracketed note for each image when vision is off and for each file that could
   * not be read (so the model knows something was attached). Empty string when nothing.
   */
  text: string;
  /** The same text file by file, each with its origin (a shared file, an image's note) and name: `text` is these joined. */
  parts: MessagePart[];
  /** Images to send as image parts (only when limits.vision). */
  images: ReadImage[];
  /**
   * Lines for the person, already in their language, each starting with an emoji: cut files, refused
   * files, skipped images. Never the "can't see images with this model" notice: the caller says that
   * once per conversation, from `unseenImages`.
   */
  lines: string[];
  /** At least one image was attached but vision is off. */
  unseenImages: boolean;
  /** Something usable reached `text` or `images` (the caller decides whether to call the model at all). */
  usable: boolean;
}

export interface ReadOptions {
  /** Aborts the downloads (each also gives up after 15 s). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * Reads a person's Discord attachments for the model: images as image parts, text files as
 * fenced text, and a line for the person about everything cut, refused or skipped. Never
 * throws for a file: every failure is a line. Images download in parallel with each other
 * and with the text files. `given` may be an array or discord.js's `message.attachments.values()`.
 */
export async function readAttachments(given: Iterable<AttachmentLike>, limits: AttachmentLimits, say: Say, options: ReadOptions = {}): Promise<ReadResult> {
  const context: ReadContext = { limits, say, download: options };
  const planned = [...given].map((attachment) => ({ attachment, kind: kindOf(attachment.name, attachment.contentType) }));
  const textFiles = planned.flatMap(({ attachment, kind }) => (kind.kind === "text" ? [{ attachment, language: kind.language }] : []));
  const texts = readTextFiles(textFiles, context);
  let imageSlots = limits.imagesPerMessage;
  const takeSlot = () => imageSlots-- > 0;
  let nextText = 0;
  const outcomes = await Promise.all(
    planned.map(({ attachment, kind }): Outcome | Promise<Outcome> => {
      const { name } = attachment;
      switch (kind.kind) {
        case "image":
          return readImage(attachment, context, takeSlot);
        case "text": {
          const index = nextText++;
          return texts.then((all) => all[index] ?? { text: "" });
        }
        case "unsupported-image":
          return unsupportedImage(attachment, kind.format, context);
        case "secret":
          return { text: fileNote(name, noteReasons.secret), line: fileLines.secret(say, name) };
        case "other":
          return { text: fileNote(name, noteReasons.unreadable), line: fileLines.unreadable(say, name, limits.vision) };
      }
    }),
  );
  const parts = outcomes.flatMap((o, i): MessagePart[] =>
    o.text === ""
      ? []
      : [
          {
            origin: planned[i]!.kind.kind === "image" || planned[i]!.kind.kind === "unsupported-image" ? "image" : "file",
            name: planned[i]!.attachment.name,
            text: o.text,
          },
        ],
  );
  return {
    text: joinParts(parts).text,
    parts,
    images: outcomes.flatMap((o) => (o.image ? [o.image] : [])),
    lines: outcomes.flatMap((o) => [o.line, o.secretsLine].filter((line): line is string => line !== undefined)),
    unseenImages: outcomes.some((o) => o.unseen === true),
    usable: outcomes.some((o) => o.usable === true),
  };
}
