import { imageSize } from "image-size";
import { err, ok, type Result } from "../../lib/result.js";
import { gifFrameCount, pngIsAnimated, webpIsAnimated } from "./animation.js";
import { sniffFormat, type FileFormat } from "./file-signatures.js";
import { MAX_IMAGE_PIXELS } from "../../model/portable-images.js";

/** The image types the model takes. */
export type ImageMime = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

export interface ImageInfo {
  mime: ImageMime;
  width: number;
  height: number;
}

export type ImageProblem =
  | { kind: "animated" }
  /** What the bytes look like instead: a known format, "text", or nothing recognisable. */
  | { kind: "not-image"; looksLike: FileFormat | "text" | null }
  | { kind: "damaged" }
  /** More pixels than MAX_IMAGE_PIXELS: a few kilobytes can declare a picture servers spend gigabytes on. */
  | { kind: "too-large"; width: number; height: number };

const MIME_OF: Record<string, ImageMime> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp", gif: "image/gif" };

/** EXIF orientations 5–8 turn the picture a quarter, so its shown width is its stored height. */
const QUARTER_TURNS = new Set([5, 6, 7, 8]);

/**
 * What an image really is, judged by its bytes: the type, the size as shown, and whether it may be
 * sent. Sizes come from image-size (no dependencies, Node >= 18), which knows JPEG's segment layouts
 * and EXIF orientation; it does not report GIF frames or APNG animation, so animation.ts walks
 * those by hand.
 */
export function inspectImage(bytes: Uint8Array): Result<ImageInfo, ImageProblem> {
  const format = sniffFormat(bytes);
  const mime = format ? MIME_OF[format.id] : undefined;
  if (!format || !mime) return err({ kind: "not-image", looksLike: format ?? (looksLikeText(bytes) ? "text" : null) });
  const frames = mime === "image/gif" ? gifFrameCount(bytes) : 1;
  if (frames !== 1) return err(frames === 0 ? { kind: "damaged" } : { kind: "animated" });
  if (mime === "image/webp" && webpIsAnimated(bytes)) return err({ kind: "animated" });
  if (mime === "image/png" && pngIsAnimated(bytes)) return err({ kind: "animated" });
  let size: { width: number; height: number; orientation?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return err({ kind: "damaged" });
  }
  if (!(size.width > 0 && size.height > 0)) return err({ kind: "damaged" });
  if (size.width * size.height > MAX_IMAGE_PIXELS) return err({ kind: "too-large", width: size.width, height: size.height });
  const turned = size.orientation !== undefined && QUARTER_TURNS.has(size.orientation);
  return ok({ mime, width: turned ? size.height : size.width, height: turned ? size.width : size.height });
}

function looksLikeText(bytes: Uint8Array): boolean {
  const start = bytes.subarray(0, 4096);
  if (start.includes(0)) return false;
  try {
    // stream: a character cut at the end of the sample is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(start, { stream: true });
    return true;
  } catch {
    return false;
  }
}
