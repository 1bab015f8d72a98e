import http from "node:http";
import type net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  buildChunks,
  buildCompletion,
  openAIErrorBody,
  type ChatCompletionRequestBody,
  type ReplyContext,
  type ScriptedReply,
} from "../tests/fakes/fake-openai-replies.js";

/**
 * A bench-only OpenAI-compatible model on loopback. It builds its answers with the test fake's
 * chunk builder (same SSE frames as tests/fakes/fake-openai.ts) but records, for every request,
 * when it arrived and when its first and last token were written — hooks the test fake lacks.
 *
 * Pacing differs from the test fake on purpose: content chunks are due at
 * `first + k / tokensPerSecond` (no drift from chained timers), and the finish, usage and
 * [DONE] frames follow the last content chunk at once, as real servers send them, so "last token
 * written" is also the end of the stream.
 */

interface BenchReply {
  text: string;
  /** Delay before the first chunk (and the response headers). */
  firstTokenDelayMs?: number;
  /** Content chunks per second after the first; 0 or undefined = unpaced. */
  tokensPerSecond?: number;
  /** Characters per chunk ("token"). */
  chunkSize?: number;
}

export interface ModelCall {
  /** Tag found in the last user message (`[p3 t2]`), or null (summaries, probes). */
  tag: string | null;
  stream: boolean;
  /** A turn's request; summaries, condensing and the tidy-up are not (isTurn). */
  turn: boolean;
  /** Epoch ms once the whole request body was read (as the test fake's `receivedAt`). */
  receivedAt: number;
  /** Epoch ms after the first content chunk was handed to the socket. */
  firstTokenAt: number | null;
  /** Epoch ms after the last frame was written and the response ended. */
  lastTokenAt: number | null;
  /** Content chunks sent. */
  chunks: number;
  messages: number;
  requestBytes: number;
}

export interface BenchModel {
  baseURL: string;
  calls: ModelCall[];
  /** Decides each answer; called once per request. */
  setReplier(replier: (body: ChatCompletionRequestBody, tag: string | null) => BenchReply): void;
  close(): Promise<void>;
}

const TAG = /\[(p\d+ t\d+)\]/;

/** The long requests (summary, condensing, a day's log, the tidy-up) open with these instructions; they stream too. */
const LONG_REQUESTS = ["You write entries", "Condense this conversation", "You condense a personal daily log", "You tidy"];

/** A turn's request (AgentKit's with tools, or the floor bot's without): a streamed request that is not a long one. */
function isTurn(body: ChatCompletionRequestBody): boolean {
  const first = body.messages[0];
  const system = first?.role === "system" && typeof first.content === "string" ? first.content : "";
  return body.stream === true && !LONG_REQUESTS.some((start) => system.startsWith(start));
}

function lastUserText(body: ChatCompletionRequestBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i]!;
    if (message.role === "user") return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  }
  return "";
}

export async function startBenchModel(): Promise<BenchModel> {
  const calls: ModelCall[] = [];
  const sockets = new Set<net.Socket>();
  let replier: (body: ChatCompletionRequestBody, tag: string | null) => BenchReply = () => ({ text: "ok" });
  let requestNumber = 0;

  async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const raw = Buffer.concat(parts);
    const receivedAt = Date.now();
    let body: ChatCompletionRequestBody;
    try {
      body = JSON.parse(raw.toString("utf8")) as ChatCompletionRequestBody;
      if (!Array.isArray(body.messages)) throw new Error("no messages");
    } catch {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify(openAIErrorBody(400, "expected a JSON chat request")));
      return;
    }
    requestNumber += 1;
    const tag = TAG.exec(lastUserText(body))?.[1] ?? null;
    const call: ModelCall = {
      tag,
      stream: body.stream === true,
      turn: isTurn(body),
      receivedAt,
      firstTokenAt: null,
      lastTokenAt: null,
      chunks: 0,
      messages: body.messages.length,
      requestBytes: raw.length,
    };
    calls.push(call);
    const reply = replier(body, tag);
    const scripted: ScriptedReply = { text: reply.text, chunkSize: reply.chunkSize ?? 4 };
    const context: ReplyContext = {
      requestNumber,
      body: { ...body, model: body.model ?? "bench-model" },
      created: Math.floor(receivedAt / 1000),
    };
    const closed = new AbortController();
    response.once("close", () => closed.abort());
    const wait = async (ms: number) => {
      if (ms > 0) await sleep(ms, undefined, { signal: closed.signal }).catch(() => {});
      return !closed.signal.aborted;
    };
    if (!(await wait(reply.firstTokenDelayMs ?? 0))) return;
    if (!call.stream) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(buildCompletion(scripted, context)));
      call.firstTokenAt = call.lastTokenAt = Date.now();
      return;
    }
    const chunks = buildChunks(scripted, context);
    const contentChunks = chunks.filter((c) => c.choices[0]?.delta.content).length;
    const paceMs = reply.tokensPerSecond ? 1000 / reply.tokensPerSecond : 0;
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const first = Date.now();
    for (const [index, chunk] of chunks.entries()) {
      const isContent = index < contentChunks;
      if (isContent && index > 0 && paceMs > 0 && !(await wait(first + index * paceMs - Date.now()))) return;
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (isContent) {
        call.chunks += 1;
        if (index === 0) call.firstTokenAt = Date.now();
      }
    }
    response.end("data: [DONE]\n\n");
    call.lastTokenAt = Date.now();
    call.firstTokenAt ??= call.lastTokenAt;
  }

  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://bench").pathname;
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify(openAIErrorBody(404, `no route ${request.method} ${path}`)));
      return;
    }
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify(openAIErrorBody(500, String(error))));
      } else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    calls,
    setReplier: (next) => void (replier = next),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** `count` words of filler, deterministic. */
export function words(count: number, seed = 0): string {
  const pool = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
  return Array.from({ length: count }, (_, i) => pool[(i + seed) % pool.length]).join(" ");
}
