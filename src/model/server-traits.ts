/**
 * What a model server has shown it cannot do, learned from its refusals and kept per base URL
 * and model for the life of the process: a refusal costs one extra request, not one per turn.
 */
export interface ServerTraits {
  /** The model takes tools (no: Ollama's models without the capability, vLLM without a tool parser, llama.cpp without --jinja). */
  tools: boolean;
  /** Tools may be sent with stream: true (no: llama.cpp before ggml-org/llama.cpp#12379). */
  streamWithTools: boolean;
  /** The model takes images. */
  images: boolean;
  /** WebP must be sent as PNG (Ollama before 0.10.0, llama.cpp's stb_image). */
  webpAsPng: boolean;
  /** The server takes parallel_tool_calls. */
  parallelToolCalls: boolean;
  /** The server takes stream_options. */
  streamOptions: boolean;
  /** The server takes response_format json_schema (a long answer is asked for without it otherwise). */
  jsonSchema: boolean;
}

const learned = new Map<string, ServerTraits>();

/** The traits of one server and model, shared by every client of this process. */
export function traitsOf(baseURL: string, model: string): ServerTraits {
  const key = `${baseURL}\n${model}`;
  let traits = learned.get(key);
  if (!traits) {
    traits = { tools: true, streamWithTools: true, images: true, webpAsPng: false, parallelToolCalls: true, streamOptions: true, jsonSchema: true };
    learned.set(key, traits);
  }
  return traits;
}
