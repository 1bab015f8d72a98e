import type { Say } from "../../lib/locale.js";
import type { AttachmentLimits } from "../../config.js";
import type { DownloadOptions } from "./download.js";
import type { ImageMime } from "./image-info.js";

/** The fields of discord.js's `Attachment` that are read; callers pass `message.attachments.values()`. */
export interface AttachmentLike {
  name: string;
  /** Discord's signed CDN link, fetched exactly as given. */
  url: string;
  /** Declared by Discord; trusted only to refuse early, never to stop reading. */
  size: number;
  contentType: string | null;
  width: number | null;
  height: number | null;
}

export interface ReadImage {
  name: string;
  mime: ImageMime;
  width: number;
  height: number;
  dataUrl: string;
  /** e.g. "[image: cat.png, 640×480]" */
  placeholder: string;
}

/** What became of one attachment; readAttachments puts them together in attachment order. */
export interface Outcome {
  /** For the model: a fenced file or a bracketed note; "" for an image sent as an image part. */
  text: string;
  image?: ReadImage;
  /** For the person, in their language. */
  line?: string;
  /** A second line for the person: secret shapes were masked in the file before anyone read it. */
  secretsLine?: string;
  /** Something the model can use (a file's text, an image). */
  usable?: boolean;
  /** An image the model cannot see because vision is off. */
  unseen?: boolean;
}

export interface ReadContext {
  limits: AttachmentLimits;
  say: Say;
  download: DownloadOptions;
}
