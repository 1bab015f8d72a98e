import type http from "node:http";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams, ChatCompletionMessageFunctionToolCall } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";

/** The parsed JSON body of a chat completion request, as the SDK sends it. */
export type ChatCompletionRequestBody = ChatCompletionCreateParams;

export interface RecordedRequest {
  body: ChatCompletionRequestBody;
  headers: http.IncomingHttpHeaders;
  receivedAt: number;
  /** Set when the server mode refused it: the status and body it answered. */
  refused?: { status: number; body: unknown };
}

interface ScriptedToolCall {
  name: string;
  /** An object is sent as its JSON text; a string is sent verbatim, so tests can script invalid JSON. */
  arguments: string | Record<string, unknown>;
  id?: string;
}

export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Defaults to a rough count of four characters per token. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  /** Characters of content, and of each tool call's arguments, per streamed chunk. Default 8. */
  chunkSize?: number;
  /** Holds back the whole response, headers included, as a slow model does before its first token. */
  firstTokenDelayMs?: number;
  /** Paces every chunk after the first; one chunk counts as one token. Unpaced by default. */
  tokensPerSecond?: number;
  error?: { status: number; body?: unknown; headers?: Record<string, string> };
  /** Streaming: two valid chunks, then a line that is not JSON, then the end. Non-streaming: truncated JSON. */
  malformed?: boolean;
  /** Streaming: send this many chunks, then an error event (`data: {"error":{"message":…}}`, as vLLM does mid-stream) and end. */
  errorAfterChunks?: { chunks: number; message: string };
  /** Streaming: send this many chunks, then hang until the client or close() ends the connection. */
  stallAfterChunks?: number;
  dropConnection?: boolean;
}

/** What every built response shares, fixed per request so output is deterministic. */
export interface ReplyContext {
  requestNumber: number;
  body: ChatCompletionRequestBody;
  created: number;
}

const DEFAULT_CHUNK_SIZE = 8;
const CHARACTERS_PER_TOKEN = 4;

function completionId(context: ReplyContext): string {
  return `chatcmpl-fake-${context.requestNumber}`;
}

function toolCallsOf(reply: ScriptedReply, context: ReplyContext): ChatCompletionMessageFunctionToolCall[] {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake_${context.requestNumber}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

function finishReasonOf(reply: ScriptedReply): "stop" | "tool_calls" {
  return reply.toolCalls?.length ? "tool_calls" : "stop";
}

function usageFor(reply: ScriptedReply, context: ReplyContext): CompletionUsage {
  const promptTokens = reply.usage?.prompt_tokens ?? Math.ceil(JSON.stringify(context.body.messages).length / CHARACTERS_PER_TOKEN);
  const completionCharacters = toolCallsOf(reply, context).reduce(
    (sum, call) => sum + call.function.name.length + call.function.arguments.length,
    reply.text?.length ?? 0,
  );
  const completionTokens = reply.usage?.completion_tokens ?? Math.ceil(completionCharacters / CHARACTERS_PER_TOKEN);
  const usage: CompletionUsage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  if (reply.usage?.cached_tokens !== undefined) {
    usage.prompt_tokens_details = { cached_tokens: reply.usage.cached_tokens };
  }
  return usage;
}

export function buildCompletion(reply: ScriptedReply, context: ReplyContext): ChatCompletion {
  const toolCalls = toolCallsOf(reply, context);
  return {
    id: completionId(context),
    object: "chat.completion",
    created: context.created,
    model: context.body.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReasonOf(reply),
        logprobs: null,
      },
    ],
    usage: usageFor(reply, context),
  };
}

/** Splits by code point so a chunk boundary never cuts an emoji in half. */
function piecesOf(text: string, chunkSize: number): string[] {
  const characters = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += chunkSize) {
    pieces.push(characters.slice(start, start + chunkSize).join(""));
  }
  return pieces;
}

type Delta = ChatCompletionChunk.Choice.Delta;

function deltasOf(reply: ScriptedReply, context: ReplyContext): Delta[] {
  const chunkSize = Math.max(1, reply.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const deltas: Delta[] = piecesOf(reply.text ?? "", chunkSize).map((piece) => ({ content: piece }));
  toolCallsOf(reply, context).forEach((call, index) => {
    // OpenAI names the call once, with empty arguments, then streams only argument pieces.
    deltas.push({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
    });
    for (const piece of piecesOf(call.function.arguments, chunkSize)) {
      deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  const first = deltas[0] ?? { content: reply.text ?? "" };
  deltas[0] = { role: "assistant", ...("tool_calls" in first ? { content: null } : {}), ...first };
  return deltas;
}

/** Every chunk of a streamed reply, in order; the usage chunk only when the request asked for it. */
export function buildChunks(reply: ScriptedReply, context: ReplyContext): ChatCompletionChunk[] {
  const includeUsage = context.body.stream_options?.include_usage === true;
  const chunkOf = (choices: ChatCompletionChunk.Choice[]): ChatCompletionChunk => ({
    id: completionId(context),
    object: "chat.completion.chunk",
    created: context.created,
    model: context.body.model,
    choices,
    // OpenAI marks every chunk with usage: null once the request asks for usage.
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks = deltasOf(reply, context).map((delta) => chunkOf([{ index: 0, delta, finish_reason: null }]));
  chunks.push(chunkOf([{ index: 0, delta: {}, finish_reason: finishReasonOf(reply) }]));
  if (includeUsage) chunks.push({ ...chunkOf([]), usage: usageFor(reply, context) });
  return chunks;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  403: "permission_error",
  404: "invalid_request_error",
  429: "requests",
};

const ERROR_CODES: Record<number, string> = {
  401: "invalid_api_key",
  404: "not_found",
  429: "rate_limit_exceeded",
};

/** The `{ error: { message, type, code } }` body OpenAI answers failures with. */
export function openAIErrorBody(status: number, message: string): { error: Record<string, unknown> } {
  return {
    error: {
      message,
      type: ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error"),
      param: null,
      code: ERROR_CODES[status] ?? null,
    },
  };
}
