import http from "node:http";
import type net from "node:net";
import {
  buildChunks,
  buildCompletion,
  openAIErrorBody,
  type ChatCompletionRequestBody,
  type RecordedRequest,
  type ReplyContext,
  type ScriptedReply,
} from "./fake-openai-replies.js";
import { pause, sendStream, untilAborted } from "./fake-openai-stream.js";
import type { ServerMode } from "./model-servers.js";

export type { RecordedRequest, ScriptedReply } from "./fake-openai-replies.js";

type ReplySource = ScriptedReply | ((request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

/** Embeds a batch of texts, or answers the request with an HTTP error. */
type EmbeddingSource = (texts: string[]) => number[][] | { error: { status: number } };

interface EmbeddingRequest {
  model: string;
  input: string[];
  encodingFormat: string | undefined;
}

/** Deterministic default: each word counts in one of 32 dimensions (a hashed bag of words). */
function hashedBagOfWords(texts: string[]): number[][] {
  return texts.map((text) => {
    const vector = new Array<number>(32).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      let hash = 0;
      for (const char of word) hash = (hash * 31 + char.codePointAt(0)!) % 32;
      vector[hash]! += 1;
    }
    return vector;
  });
}

export interface FakeOpenAI {
  /** Pass straight to `new OpenAI({ baseURL })`. */
  baseURL: string;
  /** Every POST /v1/chat/completions with a JSON body, in arrival order, errors included. */
  requests: RecordedRequest[];
  /** Scripts replies first in, first out; each request takes the next one. */
  enqueue(...replies: ReplySource[]): void;
  /** Answers requests once the script runs out. Default `{ text: "ok" }`. */
  setFallback(reply: ReplySource): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Every POST /v1/embeddings, in arrival order. */
  embeddingRequests: EmbeddingRequest[];
  /** How /v1/embeddings answers; default hashedBagOfWords. */
  setEmbeddings(source: EmbeddingSource): void;
  /** Closes the server, cutting off stalled and delayed replies instead of waiting for them. */
  close(): Promise<void>;
}

const FAKE_MODEL_ID = "fake-model";
const DEFAULT_WAIT_MS = 2000;

interface RequestWaiter {
  count: number;
  resolve(): void;
  reject(error: Error): void;
}

function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function parseChatRequest(raw: string): ChatCompletionRequestBody | undefined {
  try {
    const body: unknown = JSON.parse(raw);
    const looksLikeChat = typeof body === "object" && body !== null && Array.isArray((body as { messages?: unknown }).messages);
    return looksLikeChat ? (body as ChatCompletionRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

/** Aborts once the response is finished or its connection is gone, so timers never outlive a request. */
function signalForResponse(response: http.ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once("close", () => controller.abort());
  return controller.signal;
}

/** How long a non-streamed answer takes to generate: every server sends its headers only when it is done. */
function generationMs(reply: ScriptedReply, context: ReplyContext): number {
  if (!reply.tokensPerSecond) return 0;
  return (buildChunks(reply, context).length / reply.tokensPerSecond) * 1000;
}

async function sendReply(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  reply: ScriptedReply,
  context: ReplyContext,
  mode: ServerMode | undefined,
): Promise<void> {
  const signal = signalForResponse(response);
  const headers = { "x-request-id": `req_fake_${context.requestNumber}` };
  if (reply.dropConnection) {
    request.socket.destroy();
    return;
  }
  if (reply.error) {
    const { status, body, headers: extraHeaders } = reply.error;
    sendJson(response, status, body ?? (mode?.errorBody ?? openAIErrorBody)(status, `Scripted ${status} error`), {
      ...headers,
      ...extraHeaders,
    });
    return;
  }
  if (context.body.stream === true) {
    const chunks = buildChunks(reply, context);
    await sendStream(response, mode?.shapeChunks ? mode.shapeChunks(chunks, context.body) : chunks, reply, headers, signal);
    return;
  }
  if (reply.stallAfterChunks !== undefined) return untilAborted(signal);
  if (!(await pause((reply.firstTokenDelayMs ?? 0) + generationMs(reply, context), signal))) return;
  if (reply.malformed) {
    response.writeHead(200, { ...headers, "content-type": "application/json" });
    response.end(JSON.stringify(buildCompletion(reply, context)).slice(0, 40));
    return;
  }
  const completion = buildCompletion(reply, context);
  sendJson(response, 200, mode?.shapeCompletion ? mode.shapeCompletion(completion, context.body) : completion, headers);
}

/**
 * A local OpenAI-compatible server for tests. With `server`, it answers as that real server does
 * (tests/fakes/model-servers.ts): its refusals, its error bodies, its streams.
 */
export async function startFakeOpenAI(options: { port?: number; server?: ServerMode } = {}): Promise<FakeOpenAI> {
  const mode = options.server;
  const requests: RecordedRequest[] = [];
  const embeddingRequests: EmbeddingRequest[] = [];
  let embeddings: EmbeddingSource = hashedBagOfWords;
  const script: ReplySource[] = [];
  let fallback: ReplySource = { text: "ok" };
  const waiters = new Set<RequestWaiter>();
  const sockets = new Set<net.Socket>();

  function record(recorded: RecordedRequest): void {
    requests.push(recorded);
    for (const waiter of waiters) {
      if (requests.length >= waiter.count) waiter.resolve();
    }
  }

  async function answerChat(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const body = parseChatRequest(await readBody(request));
    if (!body) {
      sendJson(response, 400, openAIErrorBody(400, "The fake OpenAI server expects a JSON body with messages."));
      return;
    }
    const recorded: RecordedRequest = { body, headers: request.headers, receivedAt: Date.now() };
    record(recorded);
    const context: ReplyContext = {
      requestNumber: requests.length,
      body: { ...body, model: body.model ?? FAKE_MODEL_ID },
      created: Math.floor(recorded.receivedAt / 1000),
    };
    // A request the server refuses never reaches the model: it takes no scripted reply.
    const refusal = mode?.refuse?.(context.body);
    if (refusal) {
      recorded.refused = refusal;
      sendJson(response, refusal.status, refusal.body);
      return;
    }
    const source = script.shift() ?? fallback;
    const scripted = typeof source === "function" ? await source(recorded) : source;
    const reply = mode?.shapeReply ? mode.shapeReply(scripted, context.body) : scripted;
    await sendReply(request, response, reply, context, mode);
  }

  async function answerEmbeddings(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const body = JSON.parse(await readBody(request)) as { model: string; input: string | string[]; encoding_format?: string };
    const input = typeof body.input === "string" ? [body.input] : body.input;
    embeddingRequests.push({ model: body.model, input, encodingFormat: body.encoding_format });
    const answer = embeddings(input);
    if (!Array.isArray(answer)) {
      sendJson(response, answer.error.status, openAIErrorBody(answer.error.status, `Scripted ${answer.error.status} error`));
      return;
    }
    // The SDK asks for base64 (float32, little-endian) unless told otherwise, as OpenAI does.
    const encode = (vector: number[]) => (body.encoding_format === "base64" ? Buffer.from(Float32Array.from(vector).buffer).toString("base64") : vector);
    sendJson(response, 200, {
      object: "list",
      data: answer.map((vector, index) => ({ object: "embedding", index, embedding: encode(vector) })),
      model: body.model,
      usage: { prompt_tokens: input.join(" ").length, total_tokens: input.join(" ").length },
    });
  }

  async function route(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    if (request.method === "POST" && path === "/v1/chat/completions") return answerChat(request, response);
    if (request.method === "POST" && path === "/v1/embeddings") return answerEmbeddings(request, response);
    if (request.method === "GET" && path === "/v1/models") {
      const model = { id: FAKE_MODEL_ID, object: "model", created: 0, owned_by: "fake-openai" };
      return sendJson(response, 200, { object: "list", data: [model] });
    }
    sendJson(response, 404, openAIErrorBody(404, `The fake OpenAI server has no route ${request.method} ${path}.`));
  }

  const server = http.createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      // A throwing reply function should fail the test loudly, not hang it.
      if (response.headersSent) return void response.destroy();
      const message = `The fake OpenAI server failed: ${error instanceof Error ? error.message : String(error)}`;
      sendJson(response, 500, openAIErrorBody(500, message));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    setEmbeddings: (source) => void (embeddings = source),
    enqueue: (...replies) => void script.push(...replies),
    setFallback: (reply) => void (fallback = reply),
    waitForRequests(count, timeoutMs = DEFAULT_WAIT_MS) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter.reject(new Error(`Expected ${count} requests to the fake OpenAI server within ${timeoutMs} ms, got ${requests.length}.`));
        }, timeoutMs);
        const settle = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        const waiter: RequestWaiter = {
          count,
          resolve: () => (settle(), resolve()),
          reject: (error) => (settle(), reject(error)),
        };
        waiters.add(waiter);
      });
    },
    async close() {
      for (const waiter of waiters) waiter.reject(new Error("The fake OpenAI server closed while a test waited for requests."));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
