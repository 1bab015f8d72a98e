import type { AttachmentLike, Outcome, ReadContext } from "./attachment-types.js";
import { fileLines, imageLines } from "./attachment-lines.js";
import { downloadWhole } from "./download.js";
import { inspectImage } from "./image-info.js";
import { imageNote, imagePlaceholder, noteReasons } from "./model-notes.js";

/**
 * One PNG/JPEG/WebP/GIF attachment: refused by its declared size or the per-message count
 * before any download, else downloaded whole (up to the limit) and judged by its bytes.
 * `takeSlot` hands out the message's image slots in attachment order.
 */
export function readImage(attachment: AttachmentLike, context: ReadContext, takeSlot: () => boolean): Outcome | Promise<Outcome> {
  const { limits, say } = context;
  const { name } = attachment;
  const declared = imagePlaceholder(name, attachment.width, attachment.height);
  if (!limits.vision) return { text: imageNote(declared, noteReasons.blind), unseen: true };
  const placeholder = imagePlaceholder(name, null, null);
  if (attachment.size > limits.imageBytes) {
    return { text: imageNote(placeholder, noteReasons.tooBig(limits.imageBytes)), line: imageLines.tooBig(say, name, attachment.size, limits.imageBytes) };
  }
  if (!takeSlot()) {
    return {
      text: imageNote(placeholder, noteReasons.tooMany(limits.imagesPerMessage)),
      line: imageLines.tooMany(say, name, limits.imagesPerMessage),
    };
  }
  return downloadImage(attachment, context);
}

async function downloadImage(attachment: AttachmentLike, { limits, say, download }: ReadContext): Promise<Outcome> {
  const { name } = attachment;
  const placeholder = imagePlaceholder(name, null, null);
  const got = await downloadWhole(attachment.url, limits.imageBytes, download);
  if (!got.ok) {
    return got.error.reason === "too-big"
      ? { text: imageNote(placeholder, noteReasons.tooBig(limits.imageBytes)), line: imageLines.tooBig(say, name, null, limits.imageBytes) }
      : { text: imageNote(placeholder, noteReasons.downloadFailed), line: fileLines.downloadFailed(say, name) };
  }
  const info = inspectImage(got.value);
  if (!info.ok) {
    const problem = info.error;
    switch (problem.kind) {
      case "animated":
        return { text: imageNote(placeholder, noteReasons.animated), line: imageLines.animated(say, name) };
      case "not-image":
        return { text: imageNote(placeholder, noteReasons.notImage), line: imageLines.notImage(say, name, problem.looksLike) };
      case "damaged":
        return { text: imageNote(placeholder, noteReasons.notImage), line: imageLines.damaged(say, name) };
      case "too-large":
        return { text: imageNote(placeholder, noteReasons.tooLarge), line: imageLines.tooLarge(say, name, problem.width, problem.height) };
    }
  }
  const { mime, width, height } = info.value;
  const dataUrl = `data:${mime};base64,${Buffer.from(got.value.buffer, got.value.byteOffset, got.value.byteLength).toString("base64")}`;
  return { text: "", image: { name, mime, width, height, dataUrl, placeholder: imagePlaceholder(name, width, height) }, usable: true };
}

/** SVG, HEIC, TIFF and the like: the model takes none of them, so they are not downloaded. */
export function unsupportedImage(attachment: AttachmentLike, format: string, { say }: ReadContext): Outcome {
  const { name } = attachment;
  return { text: imageNote(imagePlaceholder(name, null, null), noteReasons.unsupportedImage(format)), line: imageLines.unsupported(say, name, format) };
}
