import { formatBytes } from "./sizes.js";

/**
 * What the model reads in place of an attachment it does not get, so it knows something was
 * attached and why it cannot see it. Written in English like the rest of the model's
 * instructions; the person gets their own line in their language.
 */

export const imagePlaceholder = (name: string, width: number | null, height: number | null): string =>
  width !== null && height !== null ? `[image: ${name}, ${width}×${height}]` : `[image: ${name}]`;

/** "[image: cat.png, 640×480]" becomes "[image: cat.png, 640×480 (not shown: …)]". */
export const imageNote = (placeholder: string, reason: string): string => `${placeholder.slice(0, -1)} (not shown: ${reason})]`;

export const fileNote = (name: string, reason: string): string => `[file: ${name} (not read: ${reason})]`;

export const noteReasons = {
  blind: "this model cannot see images",
  tooBig: (limit: number) => `it is over the ${formatBytes(limit)} image limit`,
  tooMany: (perMessage: number) => `only ${perMessage} image${perMessage === 1 ? "" : "s"} per message are shown`,
  animated: "it is animated",
  tooLarge: "it has more than 4096×4096 pixels",
  unsupportedImage: (format: string) => `${format} images are not supported`,
  notImage: "it is not a valid image",
  unreadable: "this kind of file is not supported",
  secret: "it may hold secrets",
  binary: (looksLike: string | null) => (looksLike ? `it is not a text file; it looks like ${looksLike}` : "it is not a text file"),
  encoding: "it is not UTF-8 or UTF-16 text",
  overMessageBudget: (messageBytes: number) => `this message's ${formatBytes(messageBytes)} limit for files was used up`,
  downloadFailed: "the download failed",
  storageFull: "the person's memory storage is full",
};

/** The heading and the in-text marker of a file the model got only the start of. */
export const cutHeading = (name: string, kept: number, total: number) => `📄 ${name} (first ${formatBytes(kept)} of ${formatBytes(total)}):`;
export const cutMarker = (kept: number, total: number) => `[… cut here: the model saw the first ${formatBytes(kept)} of ${formatBytes(total)}]`;
export const wholeHeading = (name: string) => `📄 ${name}:`;
