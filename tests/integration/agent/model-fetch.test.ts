import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import OpenAI from "openai";
import { english } from "../../../src/lib/locale.js";
import { modelErrorLine } from "../../../src/present/model-errors.js";
import { afterEach, describe, expect, it } from "vitest";
import { ModelClient } from "../../../src/model/model-client.js";
import { ModelError } from "../../../src/model/model-error.js";
import { modelFetch } from "../../../src/model/model-fetch.js";

/** A loopback server answering each request with `answer`; its requests' paths and bodies are kept. */
async function serve(answer: (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void) {
  const seen: { method: string; path: string; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (part: string) => (body += part));
    request.on("end", () => {
      seen.push({ method: request.method ?? "", path: request.url ?? "", body });
      answer(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url, seen };
}
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The error a request ends with; an answer fails the test. */
const failureOf = (model: ModelClient, request: Parameters<ModelClient["stream"]>[0]): Promise<ModelError> =>
  model.stream(request).then(
    () => {
      throw new Error("the request was answered");
    },
    (e: unknown) => e as ModelError,
  );

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: finish ? {} : { content }, finish_reason: finish }] })}\n\n`;

function streamed(response: http.ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
  response.write(chunk("Hel"));
  response.write(chunk("lo."));
  response.end(`${chunk("", "stop")}data: [DONE]\n\n`);
}

describe("the model server's fetch (undici's request, not WHATWG streams)", () => {
  it("hands a streamed answer to the SDK as undici's stream, and the client reads it chunk by chunk", async () => {
    const server = await serve((_request, _body, response) => streamed(response));
    const response = await modelFetch()(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(response.ok).toBe(true);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    // Node's fetch gives a ReadableStream here, whose reads cost what this module saves.
    expect(response.body).not.toBeInstanceOf(ReadableStream);
    let text = "";
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(part).toString("utf8");
    expect(text).toContain('"Hel"');

    const deltas: string[] = [];
    const model = new ModelClient({ baseURL: `${server.url}/v1`, apiKey: "k", model: "m", maxRetries: 0 });
    const reply = await model.stream({ messages: [{ role: "user", content: "hi" }], onDelta: (delta) => deltas.push(delta) });
    expect(reply.content).toBe("Hello.");
    expect(deltas).toEqual(["Hel", "lo."]);
    expect(JSON.parse(server.seen.at(-1)!.body)).toMatchObject({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
  });

  it("gives every other answer as a real Response: JSON, an error the client reads once, an empty one", async () => {
    const server = await serve((request, _body, response) => {
      if (request.url === "/v1/chat/completions") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            id: "c",
            object: "chat.completion",
            created: 1,
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: "Whole." }, finish_reason: "stop" }],
          }),
        );
      } else if (request.url === "/empty") {
        response.writeHead(204);
        response.end();
      } else {
        response.writeHead(400, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
        response.end(JSON.stringify({ error: { message: "this model does not support tools", type: "invalid_request_error" } }));
      }
    });
    const sdk = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", fetch: modelFetch(), maxRetries: 0 });
    const whole = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "sum up" }], stream: false });
    expect(whole.choices[0]?.message.content).toBe("Whole.");

    const empty = await modelFetch()(`${server.url}/empty`, { method: "GET" });
    expect([empty.status, empty.body]).toEqual([204, null]);

    const refused = await modelFetch()(`${server.url}/refuse`, { method: "POST", body: "{}" });
    expect(refused).toBeInstanceOf(Response);
    expect([refused.status, refused.statusText, refused.headers.get("set-cookie")]).toEqual([400, "Bad Request", "a=1, b=2"]);
    expect(await refused.json()).toEqual({ error: { message: "this model does not support tools", type: "invalid_request_error" } });
  });

  // Node's fetch could not: it had given the body's bytes to its stream ("detached ArrayBuffer"), and the turn failed as "unreachable".
  it("follows a redirect with the request's body", async () => {
    const server = await serve((request, _body, response) => {
      if (request.url?.startsWith("/old/")) {
        response.writeHead(307, { location: request.url.replace("/old/", "/v1/") });
        response.end("moved");
      } else streamed(response);
    });
    const model = new ModelClient({ baseURL: `${server.url}/old`, apiKey: "k", model: "m", maxRetries: 0 });
    expect((await model.stream({ messages: [{ role: "user", content: "hi" }] })).content).toBe("Hello.");
    expect(server.seen.map((request) => [request.method, request.path])).toEqual([
      ["POST", "/old/chat/completions"],
      ["POST", "/v1/chat/completions"],
    ]);
    expect(JSON.parse(server.seen[1]!.body)).toMatchObject({ messages: [{ role: "user", content: "hi" }] });
  });

  it("follows no redirect to another origin, nor a 301 or 302: nothing reaches it, and the operator is told where it pointed", async () => {
    const elsewhere = await serve((_request, _body, response) => streamed(response));
    const other = `${elsewhere.url.replace("127.0.0.1", "localhost")}/v1/chat/completions?key=sk-in-query`;
    const server = await serve((request, _body, response) => {
      const [status, location] = request.url?.startsWith("/moved/")
        ? [301, request.url.replace("/moved/", "/v1/")]
        : request.url?.startsWith("/port/")
          ? [308, "https://127.0.0.1:8443/v1/chat/completions"]
          : [307, other];
      response.writeHead(status, { location, "content-type": "text/html" });
      response.end("<html>moved</html>");
    });
    for (const [base, status, where] of [
      [`${server.url}/v1`, 307, `${elsewhere.url.replace("127.0.0.1", "localhost")}/v1/chat/completions`],
      [`${server.url}/moved`, 301, `${server.url}/v1/chat/completions`],
      // https on the same host, but not its usual port: another server, which gets no API key.
      [`${server.url}/port`, 308, "https://127.0.0.1:8443/v1/chat/completions"],
    ] as const) {
      const model = new ModelClient({ baseURL: base, apiKey: "sk-secret", model: "m", maxRetries: 0 });
      const error = await failureOf(model, { messages: [{ role: "user", content: "my private words" }] });
      expect(error).toBeInstanceOf(ModelError);
      expect([error.kind, error.details.status, error.details.reason]).toEqual(["wrong-base-url", status, where]);
      expect(modelErrorLine(error, english)).toContain(`set OPENAI_BASE_URL to ${where.replace("/chat/completions", "")}.`);
      expect(modelErrorLine(error, english, { showAddress: false })).not.toContain(where);
    }
    expect(elsewhere.seen).toEqual([]);
    expect(server.seen.map((request) => request.path)).toEqual(["/v1/chat/completions", "/moved/chat/completions", "/port/chat/completions"]);
  });

  it("stops following a redirect loop after 20, and names the address", async () => {
    const server = await serve((request, _body, response) => {
      response.writeHead(307, { location: request.url === "/v1/chat/completions" ? "/a" : "/v1/chat/completions" });
      response.end();
    });
    const model = new ModelClient({ baseURL: `${server.url}/v1`, apiKey: "k", model: "m", maxRetries: 0 });
    const error = await failureOf(model, { messages: [{ role: "user", content: "hi" }] });
    expect([error.kind, error.details.status]).toEqual(["wrong-base-url", 307]);
    expect(server.seen).toHaveLength(21);
  });

  it("keeps a header with a byte above 0x7F that is not UTF-8, and sends the request once, instead of failing it", async () => {
    const server = await serve((_request, _body, response) => {
      // Node writes each character of a header as one byte: this is 0xFC, not UTF-8.
      response.setHeader("x-served-by", "Müller");
      streamed(response);
    });
    const response = await modelFetch()(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.headers.get("x-served-by")).not.toBeNull();
    await response.text();
    const model = new ModelClient({ baseURL: `${server.url}/v1`, apiKey: "k", model: "m", maxRetries: 2 });
    expect((await model.stream({ messages: [{ role: "user", content: "hi" }] })).content).toBe("Hello.");
    expect(server.seen).toHaveLength(2);
  });

  it("asks for no compression, and decodes an answer compressed all the same, streamed or whole", async () => {
    const sse = `${chunk("Hel")}${chunk("lo.")}${chunk("", "stop")}data: [DONE]\n\n`;
    const json = JSON.stringify({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "Whole." }, finish_reason: "stop" }],
    });
    const encodings: (string | undefined)[] = [];
    const server = await serve((request, body, response) => {
      encodings.push(request.headers["accept-encoding"]);
      const streamedRequest = (JSON.parse(body) as { stream?: boolean }).stream === true;
      response.writeHead(200, {
        "content-type": streamedRequest ? "text/event-stream" : "application/json",
        "content-encoding": streamedRequest ? "gzip" : "br",
      });
      response.end(streamedRequest ? gzipSync(sse) : brotliCompressSync(json));
    });
    const model = new ModelClient({ baseURL: `${server.url}/v1`, apiKey: "k", model: "m", maxRetries: 0 });
    expect((await model.stream({ messages: [{ role: "user", content: "hi" }] })).content).toBe("Hello.");
    const sdk = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", fetch: modelFetch(), maxRetries: 0 });
    const whole = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "sum up" }], stream: false });
    expect(whole.choices[0]?.message.content).toBe("Whole.");
    expect(encodings).toEqual(["identity", "identity"]);
  });

  it("stops decoding a compressed answer when the request is stopped, though all its compressed bytes have come", async () => {
    // A few hundred bytes of brotli that decode to 64 MB of one line: undici lets go of the signal once they are in.
    const bomb = brotliCompressSync(Buffer.alloc(64 * 1024 * 1024, "a"), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    const server = await serve((_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "br" });
      response.end(bomb);
    });
    const stop = new AbortController();
    const response = await modelFetch()(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}", signal: stop.signal });
    let decodedBytes = 0;
    const read = (async () => {
      for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
        decodedBytes += part.byteLength;
        if (!stop.signal.aborted) stop.abort();
      }
    })();
    await expect(read).rejects.toMatchObject({ name: "AbortError" });
    expect(decodedBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("keeps an error answer's status when its compressed body is broken: refused once, not unreachable three times", async () => {
    const server = await serve((_request, _body, response) => {
      response.writeHead(400, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(Buffer.concat([gzipSync('{"error":{"message":"bad request"}}').subarray(0, 12), Buffer.from("not gzip at all")]));
    });
    const model = new ModelClient({ baseURL: `${server.url}/v1`, apiKey: "k", model: "m", maxRetries: 2 });
    const error = await failureOf(model, { messages: [{ role: "user", content: "hi" }] });
    expect([error.kind, error.details.status]).toEqual(["refused", 400]);
    expect(server.seen).toHaveLength(1);
  });

  it("gives a streamed answer's whole text to a request that was not streamed (an embedding answered as a stream)", async () => {
    const server = await serve((_request, _body, response) => streamed(response));
    const sdk = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", fetch: modelFetch(), maxRetries: 0 });
    const answer = (await sdk.embeddings.create({ model: "e", input: ["x"] })) as unknown;
    expect(String(answer)).toContain("data: [DONE]");
  });

  it("survives a body no one reads whose connection is cut (a restarted server)", async () => {
    const sockets: import("node:net").Socket[] = [];
    const server = await serve((request, _body, response) => {
      sockets.push(request.socket);
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk("Hel"));
    });
    const response = await modelFetch()(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.ok).toBe(true);
    for (const socket of sockets) socket.destroy();
    const body = response.body as unknown as import("node:stream").Readable;
    await new Promise<void>((resolve) => body.once("close", () => resolve()));
    expect(body.destroyed).toBe(true);
  });

  it("is ended by the client's own timers, not by a wait of its own", async () => {
    // The server holds the headers, as a slow machine reading a long prompt does.
    const server = await serve((_request, _body, response) => {
      const stall = setInterval(() => {}, 1000);
      response.on("close", () => clearInterval(stall));
    });
    const model = new ModelClient({ baseURL: `${server.url}/v1`, apiKey: "k", model: "m", maxRetries: 0, timeoutMs: 300 });
    const error = await failureOf(model, { messages: [{ role: "user", content: "hi" }] });
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe("timeout");
  });
});
