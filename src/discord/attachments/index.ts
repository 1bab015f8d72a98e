export { readAttachments } from "./read-attachments.js";
export type { AttachmentLike } from "./attachment-types.js";
