import type http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ScriptedReply } from "./fake-openai-replies.js";

const VALID_CHUNKS_BEFORE_GARBAGE = 2;
const GARBAGE_FRAME = 'data: {"id": "chatcmpl-fake", "choices": [ this is not json\n\n';
const DONE_FRAME = "data: [DONE]\n\n";

/** Resolves true after `ms`, or false as soon as the response is gone. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Hangs until the client disconnects or the fake server closes. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

function framesFor(chunks: ChatCompletionChunk[], reply: ScriptedReply): { frames: string[]; thenStall: boolean } {
  const dataFrames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  if (reply.stallAfterChunks !== undefined) {
    return { frames: dataFrames.slice(0, Math.max(0, reply.stallAfterChunks)), thenStall: true };
  }
  if (reply.errorAfterChunks) {
    const error = `data: ${JSON.stringify({ error: { message: reply.errorAfterChunks.message, type: "server_error", code: 500 } })}\n\n`;
    return { frames: [...dataFrames.slice(0, reply.errorAfterChunks.chunks), error], thenStall: false };
  }
  if (reply.malformed) {
    return { frames: [...dataFrames.slice(0, VALID_CHUNKS_BEFORE_GARBAGE), GARBAGE_FRAME], thenStall: false };
  }
  return { frames: [...dataFrames, DONE_FRAME], thenStall: false };
}

/**
 * Writes the reply as server-sent events. Headers go out with the first frame, so a stall
 * before any chunk looks to the client like a server that never answered.
 */
export async function sendStream(
  response: http.ServerResponse,
  chunks: ChatCompletionChunk[],
  reply: ScriptedReply,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  const { frames, thenStall } = framesFor(chunks, reply);
  const paceMs = reply.tokensPerSecond ? 1000 / reply.tokensPerSecond : 0;
  for (const [index, frame] of frames.entries()) {
    const waitMs = index === 0 ? (reply.firstTokenDelayMs ?? 0) : paceMs;
    if (!(await pause(waitMs, signal))) return;
    if (index === 0) {
      response.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" });
    }
    response.write(frame);
  }
  if (thenStall) {
    await untilAborted(signal);
    return;
  }
  response.end();
}
