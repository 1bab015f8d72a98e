export { readAttachments, type ReadOptions, type ReadResult } from "./read-attachments.js";
export type { AttachmentLike, ReadImage } from "./attachment-types.js";
export type { ImageMime } from "./image-info.js";
