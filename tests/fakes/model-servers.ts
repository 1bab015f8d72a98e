import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ChatCompletionRequestBody, ScriptedReply } from "./fake-openai-replies.js";

/**
 * The model servers people run, as the fake OpenAI server answers for them: what each refuses,
 * the error bodies it sends, and the streams it writes. Every quirk names the repository, file
 * and version it comes from; they were read in the servers' source (Ollama from its git history;
 * llama.cpp and vLLM from stored copies of their files, named by commit where no tag was stored;
 * LM Studio, which is closed source, from its documentation repository lmstudio-ai/docs).
 */
export interface ServerMode {
  name: string;
  /** Answers the request with an error before any model runs, as the server does; undefined to go on. */
  refuse?(body: ChatCompletionRequestBody): { status: number; body: unknown } | undefined;
  /** What the model can produce under this server (llama.cpp allows one tool call unless parallel_tool_calls). */
  shapeReply?(reply: ScriptedReply, body: ChatCompletionRequestBody): ScriptedReply;
  /** The stream as the server writes it, from OpenAI's. */
  shapeChunks?(chunks: ChatCompletionChunk[], body: ChatCompletionRequestBody): ChatCompletionChunk[];
  /** The whole answer as the server writes it, from OpenAI's. */
  shapeCompletion?(completion: ChatCompletion, body: ChatCompletionRequestBody): unknown;
  /** The error body of a scripted failure. */
  errorBody?(status: number, message: string): unknown;
  /** Requests the server cut to fit its context without saying so (Ollama, llama.cpp with context shift). */
  truncated?: number;
}

/** An independent stand-in for a tokenizer (not AgentKit's estimate): a Han, kana or Hangul character is a token, other text four characters a token. */
function fakeTokens(body: ChatCompletionRequestBody): number {
  const text = JSON.stringify(body.messages) + JSON.stringify(body.tools ?? []);
  let wide = 0;
  for (const char of text) if (/[\u2e80-\ud7af\uf900-\ufaff\uff00-\uffef]/u.test(char)) wide++;
  return wide + Math.ceil((text.length - wide) / 4);
}

const hasTools = (body: ChatCompletionRequestBody) => (body.tools?.length ?? 0) > 0;

/** Every image part's data URL in the request. */
export function imageUrls(body: ChatCompletionRequestBody): string[] {
  return body.messages.flatMap((m) =>
    m.role === "user" && Array.isArray(m.content) ? m.content.flatMap((p) => (p.type === "image_url" ? [p.image_url.url] : [])) : [],
  );
}

/** The arguments strings of the assistant tool calls the request sends back. */
function replayedArguments(body: ChatCompletionRequestBody): string[] {
  return body.messages.flatMap((m: ChatCompletionMessageParam) =>
    m.role === "assistant" && m.tool_calls ? m.tool_calls.flatMap((c) => (c.type === "function" ? [c.function.arguments] : [])) : [],
  );
}

const parsesAsObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** A system message anywhere but first. */
const lateSystem = (body: ChatCompletionRequestBody) => body.messages.some((m, i) => i > 0 && (m.role === "system" || m.role === "developer"));

type Delta = Record<string, unknown>;
type Chunk = ChatCompletionChunk & { choices: (ChatCompletionChunk.Choice & { delta: Delta })[] };
const asChunks = (chunks: unknown[]) => chunks as ChatCompletionChunk[];

/** OpenAI's stream, read back into its parts: text, whole calls, finish reason, usage. */
function partsOf(chunks: ChatCompletionChunk[]) {
  const base = chunks[0]!;
  let text = "";
  const calls: { id: string; name: string; arguments: string }[] = [];
  let finish: string | null = null;
  let usage: ChatCompletionChunk["usage"];
  for (const chunk of chunks as Chunk[]) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    text += (choice.delta.content as string | undefined) ?? "";
    for (const call of (choice.delta.tool_calls as ChatCompletionChunk.Choice.Delta.ToolCall[] | undefined) ?? []) {
      if (!calls[call.index]) calls[call.index] = { id: call.id ?? "", name: call.function?.name ?? "", arguments: "" };
      calls[call.index]!.arguments += call.function?.arguments ?? "";
    }
  }
  const envelope = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id: base.id,
    object: "chat.completion.chunk",
    created: base.created,
    model: base.model,
    choices,
    ...extra,
  });
  return { text, calls, finish, usage, envelope };
}

/** Pieces of a string, eight characters each, as a model streams them. */
function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const randomId = (length: number, alphabet: string) => Array.from({ length }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join("");

// ---------------------------------------------------------------------------------------------
// OpenAI: the ideal the fake was written for.

export const openai: ServerMode = { name: "OpenAI" };

// ---------------------------------------------------------------------------------------------
// Ollama, current (v0.32.15), a model with tools and vision (qwen3-vl).

/**
 * ollama/ollama openai/openai.go @ v0.32.15 L21-30, L225-237 (NewError) and middleware/openai.go
 * L64-78 (from v0.18.0 the type follows the status): `{"error":{"message","type","param":null,"code":null}}`.
 */
function ollamaError(status: number, message: string, { always = false } = {}): unknown {
  const type = always ? "api_error" : status === 400 ? "invalid_request_error" : status === 404 ? "not_found_error" : "api_error";
  return { error: { message, type, param: null, code: null } };
}

/**
 * The refusals every Ollama version shares. openai/openai.go @ v0.32.15 L772-784
 * (FromCompletionToolCall): an assistant tool call whose arguments are not a JSON object is
 * 400 "invalid tool call arguments"; decodeImageURL L739-769: only jpeg, jpg, png and (from
 * v0.10.0) webp data URLs, anything else 400 "invalid image input".
 */
function ollamaRefusal(body: ChatCompletionRequestBody, { webp }: { webp: boolean }): { status: number; body: unknown } | undefined {
  if (replayedArguments(body).some((args) => !parsesAsObject(args))) return { status: 400, body: ollamaError(400, "invalid tool call arguments") };
  const types = webp ? ["jpeg", "jpg", "png", "webp"] : ["jpeg", "jpg", "png"];
  if (imageUrls(body).some((url) => !types.some((type) => url.startsWith(`data:image/${type};base64,`))))
    return { status: 400, body: ollamaError(400, "invalid image input") };
  return undefined;
}

/** Ollama cuts what does not fit its context silently (server/prompt.go @ v0.32.15 L23-92 chatPrompt; llm/llama_server.go L279-331). */
function ollamaTruncates(mode: ServerMode, contextTokens: number) {
  return (body: ChatCompletionRequestBody) => {
    if (fakeTokens(body) > contextTokens) mode.truncated = (mode.truncated ?? 0) + 1;
  };
}

export function ollama(options: { contextTokens?: number } = {}): ServerMode {
  const mode: ServerMode = {
    name: "Ollama 0.32 (current)",
    errorBody: (status, message) => ollamaError(status, message),
    refuse(body) {
      noteTruncation(body);
      return ollamaRefusal(body, { webp: true });
    },
    /**
     * openai/openai.go @ v0.32.15 L301-339, L369-395 (ToStreamChunks): text streams; each tool call
     * arrives whole (`id` "call_" and 8 characters, `index`, `type`, its full arguments) in one
     * delta with `content: ""`; the role only on the first chunk; the finish reason in a chunk of
     * its own with an empty delta ("tool_calls" after a call); middleware/openai.go L133-160: the
     * usage chunk (`choices: []`) only when stream_options.include_usage is set.
     */
    shapeChunks(chunks, body) {
      const { text, calls, finish, usage, envelope } = partsOf(chunks);
      const out: unknown[] = [];
      const role = () => (out.length === 0 ? { role: "assistant" } : {});
      for (const piece of pieces(text)) out.push(envelope([{ index: 0, delta: { ...role(), content: piece }, finish_reason: null }]));
      calls.forEach((call, index) =>
        out.push(
          envelope([
            {
              index: 0,
              delta: {
                ...role(),
                content: "",
                tool_calls: [
                  {
                    id: `call_${randomId(8, "abcdefghijklmnopqrstuvwxyz0123456789")}${index}`,
                    index,
                    type: "function",
                    function: { name: call.name, arguments: call.arguments },
                  },
                ],
              },
              finish_reason: null,
            },
          ]),
        ),
      );
      out.push(envelope([{ index: 0, delta: {}, finish_reason: calls.length > 0 ? "tool_calls" : (finish ?? "stop") }]));
      if (body.stream_options?.include_usage && usage) out.push(envelope([], { usage }));
      return asChunks(out);
    },
  };
  const noteTruncation = ollamaTruncates(mode, options.contextTokens ?? 4_096);
  return mode;
}

/**
 * Ollama 0.8.0 to 0.9.0: tools/tools.go @ v0.8.0 L214-216 sets each call's index on a copy
 * (`for _, tc := range toolCalls { tc.Function.Index = p.index }`), so every call of a reply goes
 * out with index 0; ollama/ollama#15457 reports the same for models without a parser of their own
 * in later versions. Otherwise as current.
 */
export function ollamaIndexZero(options: { contextTokens?: number } = {}): ServerMode {
  const current = ollama(options);
  return {
    ...current,
    name: "Ollama 0.8 (every call index 0)",
    shapeChunks(chunks, body) {
      return current.shapeChunks!(chunks, body).map((chunk) => {
        const delta = (chunk as Chunk).choices[0]?.delta;
        const calls = delta?.tool_calls as { index: number }[] | undefined;
        return calls
          ? ({
              ...chunk,
              choices: [{ ...(chunk as Chunk).choices[0]!, delta: { ...delta, tool_calls: calls.map((call) => ({ ...call, index: 0 })) } }],
            } as ChatCompletionChunk)
          : chunk;
      });
    },
  };
}

/**
 * Ollama with a model that has no tool capability (llava, llama3.2-vision, gemma3): server/routes.go
 * @ v0.32.15 L2610-2613 adds CapabilityTools when tools are sent, L211-213 wraps the error with the
 * model's full name, server/images.go L43-51 "does not support" + "tools", L3107-3110 maps it to
 * 400, before any stream starts (so also with stream: true).
 */
export function ollamaWithoutTools(model = "llava"): ServerMode {
  const base = ollama();
  return {
    ...base,
    name: `Ollama 0.32, ${model} (no tools)`,
    refuse(body) {
      if (hasTools(body)) return { status: 400, body: ollamaError(400, `registry.ollama.ai/library/${model}:latest does not support tools`) };
      return base.refuse!(body);
    },
  };
}

/**
 * Ollama 0.4.6, the last version before tool calls carried `index`:
 * - openai/openai.go @ v0.4.6 L141-148: ToolCall is {id, type, function}, no `index` (added in
 *   v0.4.7, 5f8051180); L250-269: every chunk's delta carries role "assistant" and content.
 * - server/routes.go @ v0.4.6 L1498-1525: with tools and stream, the answer is buffered: a text
 *   answer comes as one chunk; calls come in one chunk (several in one array) as soon as they
 *   parse, then the Done chunk with finish_reason "stop" (toChunk L261-266).
 * - openai/openai.go @ v0.4.6: no usage in a stream (stream_options is honoured from v0.5.2).
 * - decodeImageURL: jpeg, jpg, png only (webp from v0.10.0): a WebP is "invalid image input".
 * - openai/openai.go @ v0.4.6 L579-593: a handler's error is typed "api_error" whatever its status.
 * - L483-486: response_format json_schema is ignored, not refused (the model answers as it likes).
 * - api/types.go @ v0.4.6 L611: num_ctx 2048, cut silently (llama/runner/runner.go L113-130).
 */
export function ollama046(options: { contextTokens?: number } = {}): ServerMode {
  const mode: ServerMode = {
    name: "Ollama 0.4.6",
    errorBody: (status, message) => ollamaError(status, message, { always: true }),
    refuse(body) {
      if (fakeTokens(body) > (options.contextTokens ?? 2_048)) mode.truncated = (mode.truncated ?? 0) + 1;
      return ollamaRefusal(body, { webp: false });
    },
    shapeChunks(chunks, body) {
      const { text, calls, finish, envelope } = partsOf(chunks);
      const delta = (extra: Delta) => ({ role: "assistant", content: "", ...extra });
      if (!hasTools(body)) {
        // Without tools it streams as usual, each chunk with role and content, and never a usage chunk.
        const out: unknown[] = pieces(text).map((piece) => envelope([{ index: 0, delta: delta({ content: piece }), finish_reason: null }]));
        out.push(envelope([{ index: 0, delta: delta({}), finish_reason: finish ?? "stop" }]));
        return asChunks(out);
      }
      if (calls.length === 0) return asChunks([envelope([{ index: 0, delta: delta({ content: text }), finish_reason: finish ?? "stop" }])]);
      return asChunks([
        envelope([
          {
            index: 0,
            delta: delta({
              tool_calls: calls.map((call, i) => ({
                id: `call_${randomId(7, "abcdefghijklmnopqrstuvwxyz0123456789")}${i}`,
                type: "function",
                function: { name: call.name, arguments: call.arguments },
              })),
            }),
            finish_reason: null,
          },
        ]),
        envelope([{ index: 0, delta: delta({}), finish_reason: "stop" }]),
      ]);
    },
  };
  return mode;
}

// ---------------------------------------------------------------------------------------------
// llama.cpp's llama-server.

/**
 * tools/server/server-common.cpp @ 006639c3 format_error_response: `{"error":{"code","message","type"}}`;
 * server.cpp @ 00dd0816 ex_wrapper: invalid_argument → 400 invalid_request_error, any other exception → 500 server_error.
 */
function llamaError(status: number, message: string, type = status === 400 ? "invalid_request_error" : "server_error"): { status: number; body: unknown } {
  return { status, body: { error: { code: status, message, type } } };
}

/**
 * llama-server current (with --jinja, the default now; a vision model with --mmproj):
 * - tools/server/server-chat.cpp @ 03eb25f3 (server_chat_msg_diff_to_json_oaicompat) and
 *   server-task.cpp @ 00efb3e1: a first chunk `{"role":"assistant","content":null}`; per call a
 *   header delta {index, id (32 letters and digits, no "call_"), type, function.name}, then deltas
 *   of {index, function.arguments}; finish "tool_calls"; the usage chunk only with include_usage;
 *   `timings` on the last chunk.
 * - server-common.cpp @ 006639c3: parallel_tool_calls defaults to false, and common/chat.cpp @
 *   0083bb18 `max_calls = inputs.parallel_tool_calls ? -1 : 1`: one call unless asked for more.
 * - common/chat.cpp @ 0083bb18: an assistant call's arguments that are not JSON: 500 "Failed to
 *   parse tool call arguments as JSON: …" (templates that take object arguments).
 * - stb_image (tools/mtmd/mtmd-helper.cpp @ 0186f0c5): JPEG, PNG, GIF (its first frame), no WebP:
 *   400 "Failed to load image or audio file".
 * - server-context.cpp @ 00dd0816: a prompt longer than n_ctx is 400 exceed_context_size_error
 *   (with n_prompt_tokens and n_ctx), also when streaming.
 */
export function llamaCpp(options: { contextTokens?: number; vision?: boolean } = {}): ServerMode {
  const context = options.contextTokens ?? 32_768;
  return {
    name: "llama.cpp (current, --jinja)",
    errorBody: (status, message) => llamaError(status, message).body,
    refuse(body) {
      if (replayedArguments(body).some((args) => !parsesAsObject(args)))
        return llamaError(500, "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] parse error at line 1, column 1");
      const images = imageUrls(body);
      if (images.length > 0 && options.vision === false)
        return llamaError(500, "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj");
      if (images.some((url) => url.startsWith("data:image/webp"))) return llamaError(400, "Failed to load image or audio file");
      const tokens = fakeTokens(body);
      if (tokens >= context) {
        return {
          status: 400,
          body: {
            error: {
              code: 400,
              message: `request (${tokens} tokens) exceeds the available context size (${context} tokens), try increasing it`,
              type: "exceed_context_size_error",
              n_prompt_tokens: tokens,
              n_ctx: context,
            },
          },
        };
      }
      return undefined;
    },
    shapeReply: (reply, body) => (body.parallel_tool_calls === true || !reply.toolCalls ? reply : { ...reply, toolCalls: reply.toolCalls.slice(0, 1) }),
    shapeChunks(chunks, body) {
      const { text, calls, finish, usage, envelope } = partsOf(chunks);
      const out: unknown[] = [envelope([{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }])];
      for (const piece of pieces(text)) out.push(envelope([{ index: 0, delta: { content: piece }, finish_reason: null }]));
      calls.forEach((call, index) => {
        out.push(
          envelope([
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index,
                    id: `${randomId(31, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")}${index}`,
                    type: "function",
                    function: { name: call.name },
                  },
                ],
              },
              finish_reason: null,
            },
          ]),
        );
        for (const piece of pieces(call.arguments))
          out.push(envelope([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }]));
      });
      const timings = { prompt_n: 1, predicted_n: 1 };
      const last = envelope([{ index: 0, delta: {}, finish_reason: calls.length > 0 ? "tool_calls" : (finish ?? "stop") }]);
      if (body.stream_options?.include_usage && usage) out.push(last, envelope([], { usage, timings }));
      else out.push({ ...last, timings });
      return asChunks(out);
    },
    /** server-chat.cpp @ 03eb25f3: an empty content is "" beside tool calls; ids without "call_". */
    shapeCompletion(completion) {
      const message = completion.choices[0]!.message;
      return { ...completion, choices: [{ ...completion.choices[0]!, message: { ...message, content: message.content ?? "" } }] };
    },
  };
}

/**
 * llama-server before ggml-org/llama.cpp#12379 (tool-call streaming, merged 2025-05-25), started
 * with --jinja, no vision:
 * - examples/server/utils.hpp @ 15ae7dd5: `if (stream) throw std::runtime_error("Cannot use tools
 *   with stream")`, outside the handler's try, so examples/server/server.cpp @ 03d4bccb's exception
 *   handler answers 500 server_error.
 * - server.cpp @ 03d4bccb to_json_oaicompat_chat_stream: the final chunk always carries `usage`
 *   (stream_options is ignored); non-streamed tool calls come with `content: null`.
 * - utils.hpp @ 15ae7dd5: parallel_tool_calls defaults to false.
 * - common/chat.cpp (the minja era, 85c9a504): an image part is "Failed to parse messages:
 *   Unsupported content part type", a runtime_error: 500.
 * - README @ 53dd4beb: context shift on by default, so a long prompt is cut silently.
 */
export function llamaCppBefore12379(options: { contextTokens?: number } = {}): ServerMode {
  const current = llamaCpp();
  const mode: ServerMode = {
    name: "llama.cpp before #12379",
    errorBody: current.errorBody!,
    refuse(body) {
      if (hasTools(body) && body.stream === true) return llamaError(500, "Cannot use tools with stream");
      if (imageUrls(body).length > 0) return llamaError(500, "Failed to parse messages: Unsupported content part type");
      if (fakeTokens(body) > (options.contextTokens ?? 4_096)) mode.truncated = (mode.truncated ?? 0) + 1;
      return undefined;
    },
    shapeReply: current.shapeReply!,
    shapeChunks(chunks) {
      const { text, finish, usage, envelope } = partsOf(chunks);
      const out: unknown[] = pieces(text).map((piece) => envelope([{ index: 0, delta: { content: piece }, finish_reason: null }]));
      out.push(envelope([{ index: 0, delta: {}, finish_reason: finish ?? "stop" }], { usage }));
      return asChunks(out);
    },
    shapeCompletion(completion) {
      const message = completion.choices[0]!.message;
      return { ...completion, choices: [{ ...completion.choices[0]!, message: { ...message, content: message.tool_calls?.length ? null : message.content } }] };
    },
  };
  return mode;
}

/**
 * llama-server started with --no-jinja: tools/server/server-common.cpp @ 006639c3 `if (has_tools)
 * throw std::runtime_error("tools param requires --jinja flag")`, which ex_wrapper answers 500.
 */
export function llamaCppWithoutJinja(): ServerMode {
  const current = llamaCpp();
  return {
    ...current,
    name: "llama.cpp --no-jinja",
    refuse(body) {
      if (hasTools(body)) return llamaError(500, "tools param requires --jinja flag");
      return current.refuse!(body);
    },
  };
}

/**
 * llama.cpp with a chat template that takes one system message, at the start (Qwen3.5/3.6's
 * `raise_exception('System message must be at the beginning.')`): common/chat.cpp @ 0083bb18 wraps
 * the template's exception in std::invalid_argument → 400 invalid_request_error.
 */
export function llamaCppOneSystemMessage(): ServerMode {
  const current = llamaCpp();
  return {
    ...current,
    name: "llama.cpp, a template with one system message",
    refuse(body) {
      if (lateSystem(body)) {
        return llamaError(
          400,
          "Unable to generate parser for this template. Automatic parser generation failed: \n------------\nWhile executing CallExpression at line 1, column 1 in source:\n...\nError: Jinja Exception: System message must be at the beginning.",
        );
      }
      return current.refuse!(body);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// vLLM.

/** vllm-project/vllm protocol.py @ 0052bed3 (from v0.10.1, PR #22099): `{"error":{"message","type":"BadRequestError","param","code"}}`, status = code. */
function vllmError(status: number, message: string): { status: number; body: unknown } {
  return { status, body: { error: { message, type: status === 404 ? "NotFoundError" : "BadRequestError", param: null, code: status } } };
}

/**
 * vLLM with --enable-auto-tool-choice --tool-call-parser hermes, a text-only model (Qwen2.5-7B-Instruct):
 * - tool_parsers/hermes_tool_parser.py @ 00854322: a call's first delta {index, type, id
 *   "chatcmpl-tool-<32 hex>", function.name}, then {index, function.arguments} pieces; the role
 *   chunk `{"role":"assistant","content":""}` first (serving_chat.py @ 003fe593); finish "tool_calls";
 *   a usage chunk (`choices: []`) with include_usage.
 * - chat_utils.py _postprocess_messages (v0.10.x to mid-2026, before PR #48922): an assistant
 *   call's arguments are json.loads'ed: not JSON is 400 with the JSONDecodeError's text.
 * - docs/features/tool_calling.md @ 0064cc9c: "arguments may occasionally be malformed".
 * - multimodal/registry.py: an image for a text-only model is 400 "<model> is not a multimodal model".
 * - serving_engine.py _validate_input: a prompt past max_model_len is 400 "This model's maximum
 *   context length is L tokens. However, your request has P input tokens. …".
 */
export function vllm(options: { contextTokens?: number } = {}): ServerMode {
  const context = options.contextTokens ?? 32_768;
  return {
    name: "vLLM, auto tool choice (hermes)",
    errorBody: (status, message) => vllmError(status, message).body,
    refuse(body) {
      for (const args of replayedArguments(body)) if (!parsesAsObject(args)) return vllmError(400, "Expecting ',' delimiter: line 1 column 54 (char 53)");
      if (imageUrls(body).length > 0) return vllmError(400, "Qwen/Qwen2.5-7B-Instruct is not a multimodal model");
      const tokens = fakeTokens(body);
      if (tokens >= context)
        return vllmError(
          400,
          `This model's maximum context length is ${context} tokens. However, your request has ${tokens} input tokens. Please reduce the length of the input messages.`,
        );
      return undefined;
    },
    shapeChunks(chunks, body) {
      const { text, calls, finish, usage, envelope } = partsOf(chunks);
      const out: unknown[] = [envelope([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }])];
      for (const piece of pieces(text)) out.push(envelope([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]));
      calls.forEach((call, index) => {
        out.push(
          envelope([
            {
              index: 0,
              delta: {
                tool_calls: [{ id: `chatcmpl-tool-${randomId(31, "0123456789abcdef")}${index}`, type: "function", index, function: { name: call.name } }],
              },
              logprobs: null,
              finish_reason: null,
            },
          ]),
        );
        for (const piece of pieces(call.arguments))
          out.push(envelope([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, logprobs: null, finish_reason: null }]));
      });
      out.push(envelope([{ index: 0, delta: {}, logprobs: null, finish_reason: calls.length > 0 ? "tool_calls" : (finish ?? "stop") }]));
      if (body.stream_options?.include_usage && usage) out.push(envelope([], { usage }));
      return asChunks(out);
    },
  };
}

/**
 * vLLM up to v0.10.0, started without --enable-auto-tool-choice: protocol.py (check_tool_usage)
 * makes tool_choice "auto" when tools come without one, and serving_chat.py @ 003fe593 answers
 * 400 `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`,
 * before any stream; the error body is the flat ErrorResponse of those versions
 * (serving_engine.py @ 0030b9ff): `{"object":"error","message","type":"BadRequestError","param":null,"code":400}`.
 */
export function vllmWithoutAutoToolChoice(): ServerMode {
  const current = vllm();
  const flat = (status: number, message: string) => ({ status, body: { object: "error", message, type: "BadRequestError", param: null, code: status } });
  return {
    ...current,
    name: "vLLM 0.10.0 without --enable-auto-tool-choice",
    errorBody: (status, message) => flat(status, message).body,
    refuse(body) {
      const choice = body.tool_choice ?? (hasTools(body) ? "auto" : "none");
      if (choice === "auto") return flat(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set');
      const refused = current.refuse!(body) as { status: number; body: { error: { message: string } } } | undefined;
      return refused && flat(refused.status, refused.body.error.message);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// LM Studio (closed source: its documentation, lmstudio-ai/docs @ c6854fb).

/**
 * - 1_developer/3_openai-compat/tools.mdx (https://lmstudio.ai/docs/developer/openai-compat/tools):
 *   streamed calls come name first, with `arguments: ''` and `type: 'function'`, then argument
 *   pieces with id and type null; ids are strings of digits; finish_reason "tool_calls"
 *   (api-changelog.md, 0.3.15).
 * - 1_python/1_llm-prediction/image-input.mdx: "JPEG, PNG, and WebP image formats" (GIF is not
 *   documented: treated as refused).
 * - api-changelog.md 0.3.18: stream_options.include_usage.
 */
export function lmStudio(): ServerMode {
  return {
    name: "LM Studio 0.3.x",
    refuse(body) {
      if (imageUrls(body).some((url) => !/^data:image\/(jpeg|png|webp);base64,/.test(url)))
        return { status: 400, body: { error: "Invalid image: only JPEG, PNG and WebP are supported" } };
      return undefined;
    },
    shapeChunks(chunks, body) {
      const { text, calls, finish, usage, envelope } = partsOf(chunks);
      const out: unknown[] = pieces(text).map((piece) => envelope([{ index: 0, delta: { role: "assistant", content: piece }, finish_reason: null }]));
      calls.forEach((call, index) => {
        out.push(
          envelope([
            {
              index: 0,
              delta: { tool_calls: [{ index, id: `${814890118 + index}`, type: "function", function: { name: call.name, arguments: "" } }] },
              finish_reason: null,
            },
          ]),
        );
        for (const piece of pieces(call.arguments))
          out.push(
            envelope([{ index: 0, delta: { tool_calls: [{ index, id: null, type: null, function: { name: null, arguments: piece } }] }, finish_reason: null }]),
          );
      });
      out.push(envelope([{ index: 0, delta: {}, finish_reason: calls.length > 0 ? "tool_calls" : (finish ?? "stop") }]));
      if (body.stream_options?.include_usage && usage) out.push(envelope([], { usage }));
      return asChunks(out);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A server on slow hardware (any of them).

/**
 * Generation at `tokensPerSecond` and a first token after reading the prompt at `promptTokensPerSecond`.
 * Every server above sends a non-streamed answer's headers only when it is done (Ollama
 * server/routes.go @ v0.32.15 L2387-2434; llama.cpp server-context.cpp @ 00dd0816 wait_for_all;
 * vLLM serving_chat.py chat_completion_full_generator), so a long answer's time is all before
 * its first byte; streamed, the first byte comes after the prompt is read.
 */
export function slowHardware(options: { tokensPerSecond: number; promptTokensPerSecond: number }): ServerMode {
  const base = ollama({ contextTokens: 1_000_000 });
  return {
    ...base,
    name: "a slow server (CPU)",
    shapeReply: (reply, body) => ({
      ...reply,
      tokensPerSecond: options.tokensPerSecond,
      firstTokenDelayMs: (fakeTokens(body) / options.promptTokensPerSecond) * 1000,
    }),
  };
}
