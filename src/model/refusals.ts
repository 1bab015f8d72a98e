import type { ModelRefusal } from "../lib/telemetry.js";
import { withoutEchoes } from "./model-error.js";

/**
 * Refusals the model servers people run word the same way every time, recognised from the
 * server's own error text. Each cannot change by asking again, so none is retried; the client
 * works around it where it can (model-client.ts) and the front ends word the fix
 * (present/model-errors.ts).
 *
 * Servers echo the request and the model's output in some errors (llama.cpp's "Failed to parse
 * input at pos N: <output>", pydantic's `input_value='…'`), so a person could make the model write
 * "does not support tools" into one. Recognition therefore reads only the server's own words:
 * quoted runs and everything after an echo marker are dropped first, and each sign must stand
 * where the server puts it (the whole message, its start, or its end after a model's name).
 */
interface Sign {
  refusal: ModelRefusal;
  parameter?: string;
  /** The message (its own words, ownWords) is this, starts with it, or ends with it after one word: a model's name. */
  equals?: string;
  starts?: string;
  endsAfterName?: string;
  /** Anywhere in its own words, or a type or code equal to it. */
  contains?: string;
}

/** Where each text comes from (read in the servers' source). */
const SIGNS: readonly Sign[] = [
  // ollama/ollama server/routes.go (scheduleRunner wraps CheckCapabilities with the model's name):
  // "registry.ollama.ai/library/llava:latest does not support tools" (0.5.2 on), "llava does not support tools" (before).
  { refusal: "no-tools", endsAfterName: "does not support tools" },
  // ggml-org/llama.cpp examples/server/utils.hpp before #12379 (2025-05): runtime_error → HTTP 500.
  { refusal: "tools-with-stream", equals: "cannot use tools with stream" },
  // llama.cpp tools/server/server-common.cpp (and utils.hpp before it), HTTP 500.
  { refusal: "tools-need-jinja", equals: "tools param requires --jinja flag" },
  { refusal: "tools-need-jinja", equals: "tool_choice param requires --jinja flag" },
  // vllm-project/vllm entrypoints/openai/serving_chat.py, HTTP 400.
  { refusal: "tools-need-parser", equals: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' },
  // The model sees no images: llama.cpp without --mmproj (server-common.cpp); vLLM multimodal/registry.py
  // "<model> is not a multimodal model"; llama.cpp before vision (common/chat.cpp, 2025, with --jinja).
  { refusal: "no-vision", starts: "image input is not supported" },
  { refusal: "no-vision", endsAfterName: "is not a multimodal model" },
  { refusal: "no-vision", equals: "failed to parse messages: unsupported content part type" },
  // One image the server could not read: Ollama openai/openai.go decodeImageURL "invalid image input" (a GIF, or a
  // WebP before 0.10.0); llama.cpp's stb_image "Failed to load image or audio file" (a WebP, some JPEG encodings).
  { refusal: "bad-image", equals: "invalid image input" },
  { refusal: "bad-image", equals: "failed to load image or audio file" },
  // llama.cpp server-context.cpp: type exceed_context_size_error; vLLM serving_engine.py "This model's maximum
  // context length is …"; vLLM renderers/params.py "… the model's context length is only …"; OpenAI's code.
  { refusal: "context", contains: "exceed_context_size_error" },
  { refusal: "context", starts: "request (", contains: "exceeds the available context size" },
  { refusal: "context", starts: "this model's maximum context length is" },
  { refusal: "context", starts: "you passed ", contains: "the model's context length is only" },
  { refusal: "context", contains: "context_length_exceeded" },
  // Chat templates that raise_exception: Qwen3.5/3.6 on a late system message; others on roles that do not alternate.
  { refusal: "system-message", contains: "system message must be at the beginning" },
  { refusal: "template", contains: "jinja exception" },
  { refusal: "template", contains: "conversation roles must alternate" },
  // Ollama openai/openai.go FromCompletionToolCall (a call in the history): "invalid tool call arguments".
  { refusal: "tool-arguments", equals: "invalid tool call arguments" },
  { refusal: "parameter", parameter: "parallel_tool_calls", contains: "parallel_tool_calls" },
  { refusal: "parameter", parameter: "stream_options", contains: "stream_options" },
  { refusal: "parameter", parameter: "response_format", contains: "response_format" },
  { refusal: "parameter", parameter: "response_format", contains: "json_schema" },
];

export interface Recognised {
  refusal: ModelRefusal;
  /** For "parameter": the request field the server does not take. */
  parameter?: string;
}

/**
 * The server's own words of an error message, lower case: echoes left out (withoutEchoes), then
 * vLLM's " None" and "(parameter=…)" endings dropped.
 */
function ownWords(message: string): string {
  let out = withoutEchoes(message.slice(0, 16_384)).toLowerCase().trim();
  if (out.endsWith(" none")) out = out.slice(0, -5).trimEnd();
  const parameterAt = out.lastIndexOf(" (parameter=");
  if (parameterAt >= 0 && out.endsWith(")")) out = out.slice(0, parameterAt).trimEnd();
  return out;
}

function matches(sign: Sign, words: string): boolean {
  if (sign.equals !== undefined && words !== sign.equals) return false;
  if (sign.starts !== undefined && !words.startsWith(sign.starts)) return false;
  if (sign.endsAfterName !== undefined) {
    const name = words.endsWith(` ${sign.endsAfterName}`) ? words.slice(0, -sign.endsAfterName.length - 1) : undefined;
    // One word before it (a model's name): nothing a sentence could hold.
    if (name === undefined || name === "" || /\s/.test(name)) return false;
  }
  if (sign.contains !== undefined && !words.includes(sign.contains)) return false;
  return true;
}

/**
 * The refusal a server's error stands for, if it is one AgentKit knows: its message, and its
 * type or code (llama.cpp's exceed_context_size_error, OpenAI's context_length_exceeded).
 */
export function recogniseRefusal(message: string, typeOrCode: readonly string[] = []): Recognised | undefined {
  const words = ownWords(message);
  const codes = typeOrCode.map((t) => t.toLowerCase());
  for (const sign of SIGNS) {
    // A type or a code is matched whole (llama.cpp's exceed_context_size_error, OpenAI's context_length_exceeded).
    const byCode =
      sign.contains !== undefined &&
      sign.equals === undefined &&
      sign.starts === undefined &&
      sign.endsAfterName === undefined &&
      codes.includes(sign.contains);
    if (byCode || matches(sign, words)) return { refusal: sign.refusal, ...(sign.parameter ? { parameter: sign.parameter } : {}) };
  }
  return undefined;
}

/** The refusal an error object stands for (`{"error":{message, type, code}}`, as error-bodies.ts gives every error). */
export function refusalOf(error: { message: string; type?: unknown; code?: unknown }): Recognised | undefined {
  const codes = [error.type, error.code].flatMap((part) => (typeof part === "string" || typeof part === "number" ? [String(part)] : []));
  return recogniseRefusal(error.message, codes);
}
