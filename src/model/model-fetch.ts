import { STATUS_CODES } from "node:http";
import { addAbortSignal, pipeline, Readable, type Transform } from "node:stream";
import zlib from "node:zlib";
import { Agent, request } from "undici";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** As many as fetch follows before it gives up. */
const MAX_REDIRECTS = 20;

/** Statuses whose answer has no body: a Response made with one throws. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** What a server may compress with although asked not to: each decoded (Node's fetch decoded these too). */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  "x-gzip": () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  deflate: () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  br: () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
};

/**
 * The fetch the openai SDK is given for the model server: undici's `request` instead of Node's
 * fetch, whose WHATWG streams and Response cost CPU on every chunk: the SDK over fetch against the
 * SDK over this, in one process, about 1.1 against 0.6 ms of CPU a streamed chat request; under
 * the bench's load 6.8 against 6.0 ms a turn (performance.md). discord.js's REST client sends the
 * same way (@discordjs/rest on undici's `request`).
 *
 * A streamed answer (2xx, `text/event-stream`) is handed on with its body as a Node stream, which
 * the SDK iterates as it is (an async iterable of bytes); of the rest it reads `ok`, `status`,
 * `headers` and, for a request that was not streamed, `text()` or `json()`. Every other answer is a
 * real Response. A body is decoded if the server compressed it although asked not to, and a body
 * no one reads can fail without taking the process down.
 *
 * Redirects: only a 307 or 308 (the same method and body) to the same origin, or to the same host
 * over https, is followed. Any other answers as it is, so the SDK fails with its status and the
 * client names where it was sent: a 301 or 302 would have fetch send the conversation on as a GET
 * to wherever it points; undici would POST it there.
 *
 * The agent waits as long as the server takes, for the headers and between bytes: the model
 * client's own timers end a request (a turn's first token, a stream's silence, a long request's
 * minutes), where fetch's default dispatcher ends any of them at 300 s.
 *
 * Hand-written because neither the SDK nor undici offers a fetch without WHATWG streams.
 */
export function modelFetch(agent: Agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 })): Fetch {
  return async (input, init) => {
    const body = init?.body;
    const bytes = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
    // What the SDK never sends to a chat or an embedding (a Request, a stream, a form): fetch's way.
    if (input instanceof Request || !bytes) return globalThis.fetch(input, init);
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    let url = new URL(input);
    for (let hop = 0; ; hop++) {
      const answer = await request(url, {
        method: (init?.method ?? "GET") as "GET",
        headers,
        body: body ?? null,
        signal: init?.signal ?? undefined,
        dispatcher: agent,
      });
      // Whatever happens to it from here, an error of a body no one reads is not the process's.
      answer.body.on("error", () => {});
      try {
        const status = answer.statusCode;
        const received = headersOf(answer.headers);
        const location = received.get("location");
        if ((status === 307 || status === 308) && location !== null && hop < MAX_REDIRECTS) {
          const next = followable(url, location);
          if (next) {
            await answer.body.dump();
            url = next;
            continue;
          }
        }
        return responseOf(status, received, decoded(answer.body, received, init?.signal ?? undefined), url, hop > 0);
      } catch (error) {
        answer.body.destroy();
        throw error;
      }
    }
  };
}

/** Where a 307 or 308 may be followed: the same origin, or the same host over https. */
function followable(from: URL, location: string): URL | undefined {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return undefined;
  }
  if (next.origin === from.origin) return next;
  // An upgrade to https on the same host and its usual port: the API key may go there.
  return from.protocol === "http:" && next.protocol === "https:" && next.hostname === from.hostname && next.port === "" ? next : undefined;
}

/**
 * The answer's headers. undici reads their bytes as UTF-8, where fetch reads them as Latin-1: a
 * byte above 0x7F that is not UTF-8 becomes U+FFFD, which `Headers` refuses. Such a value is kept
 * as the Latin-1 reading of that text where it can be, and left out where it cannot, rather than
 * failing the request (the SDK would send it twice more).
 */
function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const received = new Headers();
  const add = (name: string, value: string) => {
    try {
      received.append(name, value);
    } catch {
      try {
        received.append(name, Buffer.from(value, "utf8").toString("latin1"));
      } catch {
        // A name or value no Headers can hold: left out.
      }
    }
  };
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) add(name, one);
    else if (value !== undefined) add(name, value);
  }
  return received;
}

/**
 * The body as sent, or decoded when the server compressed it with one coding of gzip, zlib's
 * deflate or brotli (anything else is passed on as it is). The decoder answers to the request's
 * signal itself: undici lets go of the signal once the compressed bytes have all come, and a few
 * kilobytes can decode for minutes.
 */
function decoded(body: Readable, received: Headers, signal: AbortSignal | undefined): Readable {
  const coding = received.get("content-encoding")?.trim().toLowerCase();
  const decoder = coding ? DECODERS[coding] : undefined;
  if (!decoder) return body;
  const out = decoder();
  out.on("error", () => {});
  if (signal) addAbortSignal(signal, out);
  pipeline(body, out, () => {});
  return out;
}

function responseOf(status: number, headers: Headers, body: Readable, url: URL, redirected: boolean): Response {
  const statusText = STATUS_CODES[status] ?? "";
  const mediaType = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (status >= 200 && status < 300 && mediaType === "text/event-stream") {
    let used = false;
    const whole = async () => {
      used = true;
      const parts: Buffer[] = [];
      for await (const part of body) parts.push(Buffer.from(part as Uint8Array));
      return Buffer.concat(parts);
    };
    return {
      ok: true,
      status,
      statusText,
      headers,
      url: url.href,
      redirected,
      body,
      get bodyUsed() {
        return used;
      },
      text: async () => (await whole()).toString("utf8"),
      json: async () => JSON.parse((await whole()).toString("utf8")) as unknown,
      arrayBuffer: async () => {
        const all = await whole();
        return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      },
    } as unknown as Response;
  }
  if (NO_BODY.has(status)) {
    body.destroy();
    return new Response(null, { status, statusText, headers });
  }
  const location = status >= 300 && status < 400 ? headers.get("location") : null;
  if (location !== null) {
    // Not followed (followable): the client's error names where the server sent the request.
    body.destroy();
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(safeLocation(location, url), { status, statusText, headers });
  }
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, statusText, headers });
}

/** A redirect's target for the log: without a user name, password or query (where keys travel). */
function safeLocation(location: string, from: URL): string {
  try {
    const target = new URL(location, from);
    return target.protocol === "http:" || target.protocol === "https:" ? `${target.origin}${target.pathname}` : `a ${target.protocol} address`;
  } catch {
    return "an address that is not a URL";
  }
}
