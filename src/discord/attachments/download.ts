import { err, ok, type Result } from "../../lib/result.js";

/**
 * Downloads from Discord's CDN that read no more than they may keep: the body is read as a
 * stream and cancelled at the limit, so a 50 MB log costs the bot 100 KB, and a file that is
 * larger than it claimed is caught while it arrives. The URL is fetched exactly as Discord
 * gave it: its `ex`/`is`/`hm` query is a signature, and any change makes the CDN answer 404.
 */

/** Discord's CDN answers in well under a second; past this the person is better off trying again. */
const DOWNLOAD_TIMEOUT_MS = 15_000;

export interface DownloadOptions {
  /** The caller's own abort (the turn was cancelled); combined with the timeout. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type DownloadFailure = { reason: "http"; status: number } | { reason: "network" | "timeout" | "aborted" };

export interface Prefix {
  bytes: Uint8Array;
  /** False when the file goes on past the bytes read. */
  complete: boolean;
}

/** The first `maxBytes` of a file, and whether that was all of it. */
export async function downloadPrefix(url: string, maxBytes: number, options: DownloadOptions = {}): Promise<Result<Prefix, DownloadFailure>> {
  return download(url, maxBytes, options, false);
}

/** The whole file, or "too-big" as soon as it is known to be over `maxBytes` (by its Content-Length or while reading). */
export async function downloadWhole(
  url: string,
  maxBytes: number,
  options: DownloadOptions = {},
): Promise<Result<Uint8Array, DownloadFailure | { reason: "too-big" }>> {
  const got = await download(url, maxBytes, options, true);
  if (!got.ok) return got;
  return got.value.complete ? ok(got.value.bytes) : err({ reason: "too-big" });
}

async function download(url: string, maxBytes: number, options: DownloadOptions, wholeOnly: boolean): Promise<Result<Prefix, DownloadFailure>> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await (options.fetch ?? fetch)(url, { signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return err({ reason: "http", status: response.status });
    }
    const announced = Number(response.headers.get("content-length") ?? Number.NaN);
    if (wholeOnly && announced > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return ok({ bytes: new Uint8Array(), complete: false });
    }
    return ok(await readUpTo(response.body, maxBytes));
  } catch {
    if (timeout.aborted) return err({ reason: "timeout" });
    if (signal.aborted) return err({ reason: "aborted" });
    return err({ reason: "network" });
  }
}

async function readUpTo(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Prefix> {
  if (!body) return { bytes: new Uint8Array(), complete: true };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) return { bytes: concat(chunks, total), complete: true };
    chunks.push(value);
    total += value.length;
  }
  // Over the limit: stop the transfer rather than let the rest arrive unread.
  await reader.cancel().catch(() => undefined);
  return { bytes: concat(chunks, total).subarray(0, maxBytes), complete: false };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
