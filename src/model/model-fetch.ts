import { STATUS_CODES } from "node:http";
import { Readable } from "node:stream";
import { Agent, request } from "undici";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** As many as fetch follows before it gives up. */
const MAX_REDIRECTS = 20;

/** Statuses whose answer has no body: a Response made with one throws. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The fetch the openai SDK is given for the model server: undici's `request` instead of Node's
 * fetch, whose WHATWG streams and Response cost CPU on every chunk: the SDK over fetch against the
 * SDK over this, in one process, about 1.1 against 0.6 ms of CPU a streamed chat request; under
 * the bench's load 6.8 against 6.0 ms a turn (performance.md). discord.js's REST client sends the
 * same way (@discordjs/rest on undici's `request`).
 *
 * A streamed answer (2xx, `text/event-stream`) is handed on with its body as undici's stream,
 * which the SDK iterates as it is (an async iterable of bytes); it reads nothing else of it but
 * `ok`, `status`, `headers` and `url`. Every other answer (an error, JSON, an empty one) is a real
 * Response. A redirect is followed, the body sent again (not on a 303), the API key kept only on
 * the same origin (undici's redirect handler).
 *
 * The agent waits as long as the server takes, for the headers and between bytes: the model
 * client's own timers end a request (a turn's first token, a stream's silence, a long request's
 * minutes), where fetch's default dispatcher would end any of them at 300 s.
 *
 * Hand-written because neither the SDK nor undici offers a fetch without WHATWG streams.
 */
export function modelFetch(agent: Agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 })): Fetch {
  return async (input, init) => {
    const body = init?.body;
    const bytes = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
    // What the SDK never sends to a chat or an embedding (a Request, a stream, a form): fetch's way.
    if (input instanceof Request || !bytes) return globalThis.fetch(input, init);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await request(input, {
      method: (init?.method ?? "GET") as "GET",
      headers,
      body: body ?? null,
      signal: init?.signal ?? undefined,
      dispatcher: agent,
      // As fetch's "follow" (Node's fetch could not follow one with a body of bytes: it had given them to its stream).
      maxRedirections: MAX_REDIRECTS,
    });
    const status = answer.statusCode;
    const received = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const one of value) received.append(name, one);
      else if (value !== undefined) received.append(name, value);
    }
    const ok = status >= 200 && status < 300;
    if (ok && received.get("content-type")?.toLowerCase().startsWith("text/event-stream")) {
      return {
        ok,
        status,
        statusText: STATUS_CODES[status] ?? "",
        headers: received,
        url: String(input),
        redirected: false,
        body: answer.body,
      } as unknown as Response;
    }
    if (NO_BODY.has(status)) {
      await answer.body.dump();
      return new Response(null, { status, statusText: STATUS_CODES[status] ?? "", headers: received });
    }
    return new Response(Readable.toWeb(answer.body) as ReadableStream<Uint8Array>, { status, statusText: STATUS_CODES[status] ?? "", headers: received });
  };
}
