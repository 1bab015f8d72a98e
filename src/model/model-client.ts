import OpenAI from "openai";
import type { Embedder } from "../memory/recall/vectors.js";
import type {
  ChatCompletionChunk,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { noTelemetry, type ModelErrorKind, type Telemetry, type TokenUsage } from "../lib/telemetry.js";

export interface ModelErrorDetails {
  /** OPENAI_BASE_URL as configured. */
  baseURL: string;
  /** The HTTP status, when the server answered. */
  status?: number;
}

/**
 * Every failure of the model, as a kind the front ends word (src/present/model-errors.ts).
 * The message is for logs: the kind, the status and the server.
 */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    readonly details: ModelErrorDetails,
    options?: { cause?: unknown },
  ) {
    const status = details.status === undefined ? "" : `, HTTP ${details.status}`;
    super(`model server ${details.baseURL} (OPENAI_BASE_URL): ${kind}${status}`, options);
    this.name = "ModelError";
  }
}

/** A base URL whose path names an API version (`/v1`, `/api/v1`, `/v1beta/openai`): a 404 there is not the missing /v1. */
function hasVersionPath(baseURL: string): boolean {
  try {
    return new URL(baseURL).pathname.split("/").some((segment) => /^v\d/.test(segment));
  } catch {
    return true;
  }
}

/** The person stopped the answer (the request's signal was aborted); not a failure. */
export class StoppedError extends Error {
  constructor() {
    super("stopped by the person");
    this.name = "StoppedError";
  }
}

interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelReply {
  content: string;
  toolCalls: ToolCall[];
  usage: TokenUsage | undefined;
}

export interface ModelClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Whole request, until the first byte of the answer. */
  timeoutMs?: number;
  /** Longest silence allowed inside a stream (the SDK's timeout stops once headers arrive). */
  streamIdleMs?: number;
  maxRetries?: number;
  /** OPENAI_EMBEDDING_MODEL, for recall's semantic half. */
  embeddingModel?: string | undefined;
  /** Told each chat request's outcome and tokens (metrics). */
  telemetry?: Telemetry | undefined;
}

export interface StreamRequest {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionFunctionTool[];
  onDelta?: (text: string) => void;
  /** Aborting it stops the request at once (Stop button): the call rejects with StoppedError. */
  signal?: AbortSignal;
}

/** Chat completions on any OpenAI-compatible server. */
export class ModelClient {
  private readonly client: OpenAI;
  private readonly streamIdleMs: number;
  private readonly telemetry: Telemetry;

  constructor(readonly options: ModelClientOptions) {
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      timeout: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      logLevel: "off",
      // Given explicitly so the SDK never falls back to OPENAI_ORG_ID / OPENAI_PROJECT_ID from the
      // environment, which src/config.ts does not validate.
      organization: null,
      project: null,
      webhookSecret: null,
    });
    this.streamIdleMs = options.streamIdleMs ?? 60_000;
    this.telemetry = options.telemetry ?? noTelemetry;
  }

  get baseURL(): string {
    return this.options.baseURL;
  }

  /** Streams one completion, assembling text and tool-call deltas. */
  async stream(request: StreamRequest): Promise<ModelReply> {
    try {
      const reply = await this.streamOnce(request);
      this.telemetry.modelRequest("ok");
      if (reply.usage) this.telemetry.tokens(reply.usage);
      return reply;
    } catch (error) {
      this.telemetry.modelRequest(error instanceof ModelError ? error.kind : "stopped");
      throw error;
    }
  }

  private async streamOnce(request: StreamRequest): Promise<ModelReply> {
    const controller = new AbortController();
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), this.streamIdleMs);
    };
    const stop = () => controller.abort();
    request.signal?.addEventListener("abort", stop, { once: true });
    try {
      if (request.signal?.aborted) throw new StoppedError();
      touch();
      const stream = await this.client.chat.completions.create(
        {
          model: this.options.model,
          messages: request.messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
        },
        { signal: controller.signal },
      );
      const reply = new ReplyAssembler();
      for await (const chunk of stream) {
        if (request.signal?.aborted) throw new StoppedError();
        touch();
        const text = reply.add(chunk);
        if (text) request.onDelta?.(text);
      }
      if (controller.signal.aborted) throw this.failure("timeout");
      return reply.finish(() => this.failure("bad-response"));
    } catch (error) {
      if (error instanceof StoppedError || request.signal?.aborted) throw new StoppedError();
      if (controller.signal.aborted && !(error instanceof ModelError)) {
        throw this.failure("timeout", undefined, error);
      }
      throw this.toModelError(error);
    } finally {
      clearTimeout(idle);
      request.signal?.removeEventListener("abort", stop);
    }
  }

  /** Embeddings for recall from the same server; undefined when OPENAI_EMBEDDING_MODEL is not set. */
  get embedder(): Embedder | undefined {
    const model = this.options.embeddingModel;
    if (!model) return undefined;
    return {
      model,
      embed: async (texts, signal) => {
        try {
          // Floats, not the SDK's default base64: not every OpenAI-compatible server speaks base64.
          const response = await this.client.embeddings.create(
            { model, input: texts, encoding_format: "float" },
            { ...(signal ? { signal } : {}), maxRetries: 1 },
          );
          return [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        } catch (error) {
          throw this.toModelError(error);
        }
      },
    };
  }

  /** One non-streaming answer without tools (summaries). */
  async complete(messages: ChatCompletionMessageParam[]): Promise<string> {
    try {
      const completion = await this.client.chat.completions.create({ model: this.options.model, messages });
      const content = completion.choices[0]?.message.content;
      if (typeof content !== "string") throw this.failure("bad-response");
      this.telemetry.modelRequest("ok");
      if (completion.usage) {
        const { prompt_tokens, completion_tokens, prompt_tokens_details } = completion.usage;
        this.telemetry.tokens({ promptTokens: prompt_tokens, completionTokens: completion_tokens, cachedTokens: prompt_tokens_details?.cached_tokens ?? 0 });
      }
      return content;
    } catch (error) {
      const failure = this.toModelError(error);
      this.telemetry.modelRequest(failure.kind);
      throw failure;
    }
  }

  /**
   * One answer that must be JSON of a schema (OpenAI's structured outputs, strict). A server that
   * refuses response_format (400: many OpenAI-compatible servers) is asked again without it, the
   * schema then being in the prompt only; the caller parses either way.
   */
  /** How long a whole non-streamed answer may take: twice the request timeout (it covers the first byte only). */
  private get answerDeadlineMs(): number {
    return 2 * (this.options.timeoutMs ?? 60_000);
  }

  async completeJson(messages: ChatCompletionMessageParam[], schema: { name: string; schema: Record<string, unknown> }, options: { signal?: AbortSignal } = {}): Promise<{ content: string; usage: TokenUsage | undefined; structured: boolean }> {
    const ask = async (structured: boolean) => {
      const completion = await this.client.chat.completions.create(
        {
          model: this.options.model,
          messages,
          ...(structured ? { response_format: { type: "json_schema" as const, json_schema: { name: schema.name, strict: true, schema: schema.schema } } } : {}),
        },
        // The SDK's timeout ends once the headers arrive; a server that then trickles bytes would hold
        // the run (and a TIDY_CONCURRENCY slot) for ever: the whole answer has a deadline of its own.
        { signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(this.answerDeadlineMs)]) : AbortSignal.timeout(this.answerDeadlineMs) },
      );
      const content = completion.choices[0]?.message.content;
      if (typeof content !== "string") throw this.failure("bad-response");
      const usage = completion.usage
        ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens, cachedTokens: completion.usage.prompt_tokens_details?.cached_tokens ?? 0 }
        : undefined;
      this.telemetry.modelRequest("ok");
      if (usage) this.telemetry.tokens(usage);
      return { content, usage, structured };
    };
    try {
      return await ask(true);
    } catch (error) {
      const failure = this.toModelError(error);
      if (failure.kind !== "refused") {
        this.telemetry.modelRequest(failure.kind);
        throw failure;
      }
    }
    try {
      return await ask(false);
    } catch (error) {
      const failure = this.toModelError(error);
      this.telemetry.modelRequest(failure.kind);
      throw failure;
    }
  }

  private toModelError(error: unknown): ModelError {
    if (error instanceof ModelError) return error;
    if (error instanceof OpenAI.APIConnectionTimeoutError) return this.failure("timeout", undefined, error);
    if (error instanceof OpenAI.APIConnectionError) return this.failure("unreachable", undefined, error);
    if (error instanceof OpenAI.APIError) {
      const status = error.status;
      const kind: ModelErrorKind =
        status === 401 || status === 403
          ? "auth"
          : status === 429
            ? "rate-limit"
            : status !== undefined && status >= 500
              ? "server"
              : status === 404 && !hasVersionPath(this.options.baseURL)
                ? "wrong-base-url"
                : "refused";
      return this.failure(kind, status, error);
    }
    // A stream cut mid-way (TypeError: terminated) or garbage in it (SyntaxError).
    return this.failure("bad-response", undefined, error);
  }

  private failure(kind: ModelErrorKind, status?: number, cause?: unknown): ModelError {
    const details = { baseURL: this.options.baseURL, ...(status !== undefined ? { status } : {}) };
    return new ModelError(kind, details, cause === undefined ? undefined : { cause });
  }
}

/** Streamed tool calls arrive as fragments keyed by index; this puts them back together. */
class ReplyAssembler {
  private content = "";
  private readonly calls = new Map<number, ToolCall>();
  private usage: TokenUsage | undefined;
  private finished = false;

  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) {
      this.usage = {
        promptTokens: chunk.usage.prompt_tokens,
        completionTokens: chunk.usage.completion_tokens,
        cachedTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
      };
    }
    const choice = chunk.choices[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finished = true;
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = this.calls.get(delta.index) ?? { id: "", name: "", arguments: "" };
      call.id ||= delta.id ?? "";
      call.name ||= delta.function?.name ?? "";
      call.arguments += delta.function?.arguments ?? "";
      this.calls.set(delta.index, call);
    }
    const text = choice.delta.content ?? "";
    this.content += text;
    return text;
  }

  /** A stream that ends without a finish_reason was cut off. */
  finish(cutOff: () => ModelError): ModelReply {
    if (!this.finished) throw cutOff();
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return { content: this.content, toolCalls, usage: this.usage };
  }
}
