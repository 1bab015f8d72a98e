import type { ModelRefusal } from "../lib/telemetry.js";

/**
 * Refusals the model servers people run word the same way every time, recognised from the
 * server's own error text. Each cannot change by asking again, so none is retried; the client
 * degrades where it can (model-client.ts) and the front ends word the fix (present/model-errors.ts).
 * Where each text comes from (read in the servers' source):
 */
const SIGNS: readonly { refusal: ModelRefusal; parameter?: string; words: readonly string[] }[] = [
  // ollama/ollama server/routes.go (errCapabilityTools, 0.4.x on) and model capabilities: `"<model>" does not support tools`.
  { refusal: "no-tools", words: ["does not support tools", "model does not support tool"] },
  // ggml-org/llama.cpp examples/server/utils.hpp before #12379 (2025-05): runtime_error → HTTP 500.
  { refusal: "tools-with-stream", words: ["cannot use tools with stream"] },
  // llama.cpp tools/server/server-common.cpp (and utils.hpp before it): "tools param requires --jinja flag", 500.
  { refusal: "tools-need-jinja", words: ["requires --jinja"] },
  // vllm-project/vllm entrypoints/openai/serving_chat.py: `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`, 400.
  { refusal: "tools-need-parser", words: ["--enable-auto-tool-choice", "requires --tool-call-parser"] },
  // Ollama server/images.go decodeImageURL: "invalid image input"; llama.cpp without --mmproj: "image input is not supported";
  // llama.cpp stb_image on a WebP: "Failed to load image or audio file" (400); llama.cpp before vision (2025, --jinja):
  // "Failed to parse messages: Unsupported content part type" (500); vLLM multimodal/registry.py: "<model> is not a multimodal model" (400).
  {
    refusal: "no-images",
    words: ["invalid image input", "image input is not supported", "failed to load image", "is not a multimodal model", "unsupported content part type", "does not support image", "does not support vision", "image_url is only supported"],
  },
  // llama.cpp: type exceed_context_size_error, "exceeds the available context size"; vLLM: "This model's maximum context length is …",
  // "the model's context length is only …"; OpenAI: code context_length_exceeded.
  { refusal: "context", words: ["exceed_context_size_error", "exceeds the available context size", "maximum context length", "context length is only", "context_length_exceeded"] },
  // Chat templates (Qwen3.5/3.6, Gemma…) that raise_exception on a late system message; llama.cpp answers 400 or 500 with it.
  { refusal: "system-message", words: ["system message must be at the beginning", "system message must be first", "system messages are only supported at the beginning"] },
  // Ollama openai/openai.go fromChatRequest: "invalid tool call arguments"; llama.cpp common/chat.cpp: "Failed to parse tool call arguments as JSON".
  { refusal: "tool-arguments", words: ["invalid tool call arguments", "failed to parse tool call arguments"] },
  { refusal: "parameter", parameter: "parallel_tool_calls", words: ["parallel_tool_calls"] },
  { refusal: "parameter", parameter: "stream_options", words: ["stream_options", "stream options"] },
];

export interface Recognised {
  refusal: ModelRefusal;
  /** For "parameter": the request field the server does not take. */
  parameter?: string;
}

/**
 * The refusal a server's error text (message, type and code, any case) stands for, if it is one
 * AgentKit knows. Plain substring checks: the text is the server's, of any length.
 */
export function recogniseRefusal(text: string): Recognised | undefined {
  const lower = text.toLowerCase();
  for (const sign of SIGNS) {
    if (sign.words.some((word) => lower.includes(word))) return { refusal: sign.refusal, ...(sign.parameter ? { parameter: sign.parameter } : {}) };
  }
  return undefined;
}
