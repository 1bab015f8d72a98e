import type { APIAttachment } from "discord.js";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { RecordedAttachment } from "./model.js";
import { timestampOfSnowflake } from "./snowflake.js";
import type { FakeDiscordState } from "./state.js";

/** A file a person attaches to a message or to a slash command's attachment option. */
export interface AttachmentInput {
  filename: string;
  contentType?: string;
  data: Buffer | string;
  width?: number;
  height?: number;
  description?: string;
}

/** Discord's upload limit for people without Nitro, per file. */
export const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

/** Discord's upload limit for people with Nitro, per file. */
export const NITRO_ATTACHMENT_SIZE_LIMIT = 500 * 1024 * 1024;

/** Discord's signed attachment links stay valid for a day after they are issued. */
const SIGNED_URL_LIFETIME_S = 24 * 60 * 60;

export type CdnFolder = "attachments" | "ephemeral-attachments";

export function toRecordedAttachment(id: string, input: AttachmentInput, sizeLimit = ATTACHMENT_SIZE_LIMIT): RecordedAttachment {
  const data = typeof input.data === "string" ? Buffer.from(input.data, "utf8") : input.data;
  if (data.length > sizeLimit) {
    const mib = sizeLimit / (1024 * 1024);
    throw new Error(`${input.filename} is ${data.length} bytes; Discord takes files up to ${mib} MiB (${sizeLimit} bytes) from this person`);
  }
  return {
    id,
    filename: input.filename,
    contentType: input.contentType ?? null,
    size: data.length,
    description: input.description ?? null,
    width: input.width ?? null,
    height: input.height ?? null,
    data,
    // Read when a test asks: decoding a 10 MB upload at once would hold the loop a bot test is timing.
    get text() {
      return data.toString("utf8");
    },
  };
}

/** The attachment object Discord sends, with a signed CDN link issued when the file was uploaded. */
export function attachmentToApi(state: FakeDiscordState, channelId: string, attachment: RecordedAttachment, folder: CdnFolder = "attachments"): APIAttachment {
  const url = signedCdnUrl(state, cdnPath(folder, channelId, attachment), timestampOfSnowflake(attachment.id).getTime());
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url,
    // Discord's media proxy serves the same file under the same signature; the fake has one CDN for both.
    proxy_url: url,
    ...(attachment.contentType ? { content_type: attachment.contentType } : {}),
    ...(attachment.description ? { description: attachment.description } : {}),
    ...(attachment.width !== null ? { width: attachment.width } : {}),
    ...(attachment.height !== null ? { height: attachment.height } : {}),
    ...(folder === "ephemeral-attachments" ? { ephemeral: true } : {}),
  };
}

export function cdnPath(folder: CdnFolder, channelId: string, attachment: RecordedAttachment): string {
  return `/${folder}/${channelId}/${attachment.id}/${encodeURIComponent(attachment.filename)}`;
}

/** `ex` and `is` are hex Unix seconds, `hm` an HMAC of the path and both, as in Discord's attachment links. */
function signedCdnUrl(state: FakeDiscordState, path: string, issuedAtMs: number): string {
  const issued = Math.floor(issuedAtMs / 1000);
  const ex = (issued + SIGNED_URL_LIFETIME_S).toString(16);
  const is = issued.toString(16);
  return `${state.cdnBaseUrl}${path}?ex=${ex}&is=${is}&hm=${signature(state, path, ex, is)}&`;
}

/** Whether a CDN request carries the signature the fake issued for this path, not yet expired. */
export function hasValidSignature(state: FakeDiscordState, path: string, query: URLSearchParams): boolean {
  const ex = query.get("ex");
  const is = query.get("is");
  const hm = query.get("hm");
  if (!ex || !is || !hm || !/^[0-9a-f]+$/.test(ex) || !/^[0-9a-f]+$/.test(is)) return false;
  if (Number.parseInt(ex, 16) * 1000 <= Date.now()) return false;
  const expected = Buffer.from(signature(state, path, ex, is), "hex");
  const given = Buffer.from(hm, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function signature(state: FakeDiscordState, path: string, ex: string, is: string): string {
  return createHmac("sha256", state.cdnSecret).update(`${path}?ex=${ex}&is=${is}`).digest("hex");
}
