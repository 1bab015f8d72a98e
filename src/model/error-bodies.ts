import { refusalOf } from "./refusals.js";

/** An error answer is read up to this much: enough for any server's reason, never a whole stream. */
const MAX_ERROR_BYTES = 64 * 1024;

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

interface ErrorObject {
  message: string;
  type?: unknown;
  code?: unknown;
  [field: string]: unknown;
}

/**
 * The `error` object of a failed answer in any shape the servers send, with its message as a
 * string: `{"error":{"message":…}}` (OpenAI, llama.cpp, vLLM from 0.10.1, Ollama's /v1),
 * `{"object":"error","message":…}` (vLLM up to 0.10.0), `{"error":"…"}` (Ollama's own API),
 * `{"detail":…}` (FastAPI servers), or plain text. The SDK reads only the first; the others
 * would reach the operator as "400 status code (no body)".
 */
export function errorObjectOf(text: string): ErrorObject {
  try {
    return errorObjectOfJson(text);
  } catch {
    // JSON nested too deep to write again (RangeError): the text itself.
    return { message: text.slice(0, 2_000) };
  }
}

function errorObjectOfJson(text: string): ErrorObject {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: text.trim().slice(0, 2_000) };
  }
  if (typeof body !== "object" || body === null) return { message: String(body).slice(0, 2_000) };
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === "string") return { message: inner };
  if (typeof inner === "object" && inner !== null) {
    const error = inner as Record<string, unknown>;
    return { ...error, message: typeof error.message === "string" ? error.message : JSON.stringify(error.message ?? error).slice(0, 2_000) };
  }
  if (typeof record.message === "string") return { ...record, message: record.message };
  if (record.detail !== undefined) return { message: typeof record.detail === "string" ? record.detail : JSON.stringify(record.detail).slice(0, 2_000) };
  return { message: text.slice(0, 2_000) };
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ERROR_BYTES) {
      // A body that breaks part way (a cut connection, a garbled compression) still gives what came: the answer's status stands.
      const read = await reader.read().catch(() => undefined);
      if (!read || read.done) break;
      const { value } = read;
      parts.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(parts).subarray(0, MAX_ERROR_BYTES).toString("utf8");
}

/**
 * The SDK's fetch, with every error answer read once and handed on as `{"error":{…}}` (its
 * message a string), and marked `x-should-retry: false` (which the SDK honours) when it is a
 * refusal that cannot change: llama.cpp answers "Cannot use tools with stream" with a 500, and
 * the SDK would otherwise ask twice more. Hand-written: the SDK has no hook between an answer and
 * its retry decision other than the fetch it is given.
 */
export function refusalAwareFetch(base: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok) return response;
    const error = errorObjectOf(await readCapped(response));
    const headers = new Headers(response.headers);
    // The body is given again decoded and whole.
    headers.delete("content-length");
    headers.delete("content-encoding");
    headers.set("content-type", "application/json");
    if (refusalOf(error)) headers.set("x-should-retry", "false");
    return new Response(JSON.stringify({ error }), { status: response.status, statusText: response.statusText, headers });
  };
}
