import OpenAI from "openai";
import type { Embedder } from "../memory/recall/vectors.js";
import type { ChatCompletionChunk, ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { noTelemetry, type ModelErrorKind, type Telemetry, type TokenUsage } from "../lib/telemetry.js";
import { ModelError, StoppedError, serverReason } from "./model-error.js";
import { refusalOf } from "./refusals.js";
import { ReplyAssembler, usageOf, type ModelReply } from "./reply-assembler.js";
import { traitsOf, type ServerTraits } from "./server-traits.js";
import { convertImages, hasImages, withoutImages } from "./portable-images.js";
import { refusalAwareFetch } from "./error-bodies.js";
import { modelFetch } from "./model-fetch.js";
import { requestBytes } from "./request-bytes.js";

/** A base URL whose path names an API version (`/v1`, `/api/v1`, `/v1beta/openai`): a 404 there is not the missing /v1. */
function hasVersionPath(baseURL: string): boolean {
  try {
    return new URL(baseURL).pathname.split("/").some((segment) => /^v\d/.test(segment));
  } catch {
    return true;
  }
}

export interface ModelClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** A turn's request, until the first token of the answer (OPENAI_TIMEOUT_SECONDS). */
  timeoutMs?: number;
  /** Longest silence allowed inside a stream (the SDK's timeout stops once headers arrive). */
  streamIdleMs?: number;
  /**
   * A long request (summary, condensing, tidy-up), until its first token (OPENAI_LONG_TIMEOUT_SECONDS):
   * on slow hardware a long prompt takes minutes to read. The whole answer may take three times this.
   */
  longTimeoutMs?: number;
  maxRetries?: number;
  /** OPENAI_EMBEDDING_MODEL, for recall's semantic half. */
  embeddingModel?: string | undefined;
  /** Told each chat request's outcome and tokens (metrics). */
  telemetry?: Telemetry | undefined;
  /** Told of every refusal the client worked around: learned for the process (once), or for that request alone (the operator's log). */
  onNotice?: ((notice: ServerNotice) => void) | undefined;
}

/** What the client does instead of failing, after a refusal it recognised. */
export type ServerAction = "without-tools" | "without-streaming" | "images-as-png" | "without-images" | "without-parameter" | "without-schema";

export interface ServerNotice {
  action: ServerAction;
  /** The refusal that taught it, with the server's own words. */
  error: ModelError;
  /** "process": learned for every later request (told once); "request": that request alone went without. */
  scope: "process" | "request";
}

export interface StreamRequest {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionFunctionTool[];
  onDelta?: (text: string) => void;
  /** Aborting it stops the request at once (Stop button): the call rejects with StoppedError. */
  signal?: AbortSignal;
}

export interface TurnReply extends ModelReply {
  /** Tools were asked for, but this model or server takes none: the answer could not save to memory. */
  toolsLeftOut?: boolean;
  /** Images were left out: the model cannot see them, or one could not be converted. */
  imagesLeftOut?: boolean;
}

export interface LongAnswer {
  content: string;
  usage: TokenUsage | undefined;
  /** Asked with the schema (structured outputs); false when the server did not take it. */
  structured: boolean;
}

/** What a request is made of besides its messages: what a probe repeats. */
interface Shape {
  tools?: ChatCompletionFunctionTool[] | undefined;
  streaming: boolean;
  parallelToolCalls: boolean;
  streamOptions: boolean;
}

/** What a probe repeats of a refused request: its shape, and whether it carried images or a schema. */
interface Probe extends Shape {
  vision?: boolean;
  schema?: { name: string; schema: Record<string, unknown> } | undefined;
}

/** The traits a refusal can switch off, for the process or for one request. */
type Switch = "tools" | "streamWithTools" | "images" | "parallelToolCalls" | "streamOptions";

interface Ask extends Shape {
  messages: ChatCompletionMessageParam[];
  firstTokenMs: number;
  deadlineMs?: number;
  schema?: { name: string; schema: Record<string, unknown> } | undefined;
  /** A probe's: one token is enough to know the request was taken. */
  maxTokens?: number;
  onDelta?: ((text: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** A 1×1 PNG: what a probe of a model's vision carries instead of anyone's image. */
const ONE_PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** How many times one round may be sent again after a refusal it learned from (tools, streaming, images, a parameter). */
const MAX_DEGRADATIONS = 4;

/** Chat completions on any OpenAI-compatible server: OpenAI, Ollama, llama.cpp, vLLM, LM Studio. */
export class ModelClient {
  private readonly client: OpenAI;
  private readonly streamIdleMs: number;
  private readonly timeoutMs: number;
  private readonly longTimeoutMs: number;
  private readonly telemetry: Telemetry;
  private readonly traits: ServerTraits;

  constructor(readonly options: ModelClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.longTimeoutMs = options.longTimeoutMs ?? Math.max(600_000, this.timeoutMs);
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      // The client's own timers end a request (firstTokenMs, streamIdleMs); the SDK's is a backstop.
      timeout: this.longTimeoutMs * 3,
      maxRetries: options.maxRetries ?? 2,
      logLevel: "off",
      // Reads each error answer once: the server's reason survives any body shape, and a refusal that cannot change is not retried.
      fetch: refusalAwareFetch(modelFetch()),
      // Given explicitly so the SDK never falls back to OPENAI_ORG_ID / OPENAI_PROJECT_ID from the
      // environment, which src/config.ts does not validate.
      organization: null,
      project: null,
      webhookSecret: null,
    });
    this.streamIdleMs = options.streamIdleMs ?? 60_000;
    this.telemetry = options.telemetry ?? noTelemetry;
    this.traits = traitsOf(options.baseURL, options.model);
  }

  get baseURL(): string {
    return this.options.baseURL;
  }

  /**
   * Streams one round of a turn, assembling text and tool-call deltas. A refusal the client knows
   * is worked around and the round sent again: without tools, without streaming, with images as
   * PNG or without them, without a parameter; the reply says what was left out.
   */
  async stream(request: StreamRequest): Promise<TurnReply> {
    const wantsTools = (request.tools?.length ?? 0) > 0;
    let messages = request.messages;
    let imagesLeftOut = false;
    const dropImages = () => {
      messages = withoutImages(messages);
      imagesLeftOut = true;
    };
    const convert = async (types: readonly string[]) => {
      const portable = await convertImages(messages, types);
      messages = portable.messages;
      if (portable.leftOut > 0) imagesLeftOut = true;
    };
    // What this request alone goes without, after a refusal a probe showed was about its own content.
    const off = new Set<Switch>();
    const on = (trait: Switch) => this.traits[trait] && !off.has(trait);
    if (hasImages(messages)) {
      if (!on("images")) dropImages();
      else await convert(this.traits.webpAsPng ? ["image/gif", "image/webp"] : ["image/gif"]);
    }
    // Once the person has seen text, the round is not sent again: they would see it twice.
    let shown = false;
    const onDelta = (text: string) => {
      shown = true;
      request.onDelta?.(text);
    };
    for (let degraded = 0; ; degraded++) {
      const tools = wantsTools && on("tools") ? request.tools : undefined;
      const sent: Shape = {
        tools,
        streaming: tools === undefined || on("streamWithTools"),
        parallelToolCalls: on("parallelToolCalls"),
        streamOptions: on("streamOptions"),
      };
      try {
        const reply = await this.ask({
          ...sent,
          messages,
          firstTokenMs: sent.streaming ? this.timeoutMs : this.longTimeoutMs,
          onDelta,
          signal: request.signal,
        });
        this.counted("ok", reply.usage);
        return { ...reply, ...(wantsTools && !tools ? { toolsLeftOut: true } : {}), ...(imagesLeftOut ? { imagesLeftOut: true } : {}) };
      } catch (error) {
        this.counted(error instanceof ModelError ? error.kind : "stopped");
        if (!(error instanceof ModelError) || shown || degraded >= MAX_DEGRADATIONS) throw error;
        const { refusal, parameter } = error.details;
        const images = hasImages(messages);
        // Without a switch: for every later request when a probe of the same shape is refused the same way, else for this one.
        const without = async (action: ServerAction, trait: Switch, shape: Probe) => {
          if (await this.confirmed(error, shape)) this.learned(action, { [trait]: false }, error);
          else {
            off.add(trait);
            this.forThisRequest(action, error);
          }
        };
        if ((refusal === "no-tools" || refusal === "tools-need-jinja" || refusal === "tools-need-parser") && tools)
          await without("without-tools", "tools", sent);
        else if (refusal === "tools-with-stream" && tools && sent.streaming) await without("without-streaming", "streamWithTools", sent);
        else if (refusal === "parameter" && parameter === "parallel_tool_calls" && tools && sent.parallelToolCalls)
          await without("without-parameter", "parallelToolCalls", sent);
        else if (refusal === "parameter" && parameter === "stream_options" && sent.streaming && sent.streamOptions)
          await without("without-parameter", "streamOptions", sent);
        else if (refusal === "no-vision" && images) {
          await without("without-images", "images", { ...sent, vision: true });
          dropImages();
        } else if (refusal === "bad-image" && images) {
          // One image the server could not read: a WebP first (Ollama before 0.10.0, stb_image), then every
          // image as PNG, then none. Sending WebP as PNG takes nothing from anyone: learned without a probe.
          if (hasImages(messages, ["image/webp"]) && !this.traits.webpAsPng) {
            await convert(["image/webp"]);
            this.learned("images-as-png", { webpAsPng: true }, error);
          } else if (hasImages(messages, ["image/jpeg", "image/webp"])) {
            await convert(["image/jpeg", "image/webp"]);
            this.forThisRequest("images-as-png", error);
          } else {
            dropImages();
            this.forThisRequest("without-images", error);
          }
        } else throw error;
      }
    }
  }

  /**
   * Whether a refusal is the server's and not this request's: a request of the same shape (the
   * same tools, streaming and parameters, a 1×1 PNG for vision, a schema) with nothing of anyone's
   * in it ("ping") is refused the same way. Only then is a trait learned for every request of the
   * process, so no one's words (echoed in a server's error) can take anything away from everyone.
   */
  private async confirmed(error: ModelError, shape: Probe): Promise<boolean> {
    const content: ChatCompletionMessageParam["content"] = shape.vision
      ? [
          { type: "text", text: "ping" },
          { type: "image_url", image_url: { url: ONE_PIXEL_PNG } },
        ]
      : "ping";
    try {
      const reply = await this.ask({
        ...shape,
        messages: [
          { role: "system", content: "Answer with one word." },
          { role: "user", content },
        ],
        firstTokenMs: this.timeoutMs,
        maxTokens: 1,
      });
      this.counted("ok", reply.usage);
      return false;
    } catch (probe) {
      this.counted(probe instanceof ModelError ? probe.kind : "stopped");
      return probe instanceof ModelError && probe.details.refusal === error.details.refusal && probe.details.parameter === error.details.parameter;
    }
  }

  /** A trait learned for every request of the process to this server and model, told to the operator the first time. */
  private learned(action: ServerAction, change: Partial<ServerTraits>, error: ModelError): void {
    const traits = this.traits;
    // Two turns refused at once both send again; only the first tells.
    const news = Object.entries(change).some(([trait, value]) => traits[trait as keyof ServerTraits] !== value);
    Object.assign(traits, change);
    if (news) this.options.onNotice?.({ action, error, scope: "process" });
  }

  /** What one request did without after a refusal that was about it alone: every refused request reaches the operator's log. */
  private forThisRequest(action: ServerAction, error: ModelError): void {
    this.options.onNotice?.({ action, error, scope: "request" });
  }

  /**
   * One long answer without tools (the summary, condensing, the tidy-up), streamed so that its
   * headers arrive at once, with OPENAI_LONG_TIMEOUT_SECONDS for the first token. With a schema it
   * is asked as structured output (strict); a server that refuses response_format (by name) is asked again
   * without it (the schema is in the prompt too), and the caller parses either way. A time-out is
   * a time-out: never taken for a refusal, never followed by a second request.
   */
  async complete(
    messages: ChatCompletionMessageParam[],
    options: { schema?: { name: string; schema: Record<string, unknown> }; signal?: AbortSignal } = {},
  ): Promise<LongAnswer> {
    const run = async (structured: boolean): Promise<LongAnswer> => {
      try {
        const reply = await this.ask({
          messages,
          streaming: true,
          parallelToolCalls: false,
          streamOptions: this.traits.streamOptions,
          firstTokenMs: this.longTimeoutMs,
          deadlineMs: this.longTimeoutMs * 3,
          schema: structured ? options.schema : undefined,
          signal: options.signal,
        });
        this.counted("ok", reply.usage);
        return { content: reply.content, usage: reply.usage, structured };
      } catch (error) {
        this.counted(error instanceof ModelError ? error.kind : "stopped");
        throw error;
      }
    };
    if (!options.schema || !this.traits.jsonSchema) return run(false);
    try {
      return await run(true);
    } catch (error) {
      // Only a refusal that names the schema (response_format, json_schema): not a time-out, not a model not found.
      if (!(error instanceof ModelError) || error.details.refusal !== "parameter" || error.details.parameter !== "response_format") throw error;
      if (await this.confirmed(error, { streaming: true, parallelToolCalls: false, streamOptions: this.traits.streamOptions, schema: options.schema }))
        this.learned("without-schema", { jsonSchema: false }, error);
      else this.forThisRequest("without-schema", error);
    }
    return run(false);
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

  private counted(outcome: ModelErrorKind | "ok" | "stopped", usage?: TokenUsage): void {
    this.telemetry.modelRequest(outcome);
    if (usage) this.telemetry.tokens(usage);
  }

  /** One request: streamed or whole, ended by the first-token timer, the silence timer, the deadline or the person's Stop. */
  private async ask(request: Ask): Promise<ModelReply> {
    const controller = new AbortController();
    let timedOut = false;
    let silence: NodeJS.Timeout | undefined;
    let silenceMs = 0;
    const expire = () => {
      timedOut = true;
      controller.abort();
    };
    // Every chunk of a stream restarts the wait: the same timer started again (refresh), not a new one.
    const wait = (ms: number) => {
      if (silence && ms === silenceMs) {
        silence.refresh();
        return;
      }
      clearTimeout(silence);
      silenceMs = ms;
      silence = setTimeout(expire, ms);
    };
    const deadline = request.deadlineMs === undefined ? undefined : setTimeout(expire, request.deadlineMs);
    const stop = () => controller.abort();
    request.signal?.addEventListener("abort", stop, { once: true });
    try {
      if (request.signal?.aborted) throw new StoppedError();
      wait(request.firstTokenMs);
      const body = {
        model: this.options.model,
        messages: request.messages,
        ...(request.tools ? { tools: request.tools, ...(request.parallelToolCalls ? { parallel_tool_calls: true } : {}) } : {}),
        ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
        ...(request.schema
          ? { response_format: { type: "json_schema" as const, json_schema: { name: request.schema.name, strict: true, schema: request.schema.schema } } }
          : {}),
      };
      // The body as bytes made from what earlier requests encoded (request-bytes.ts); the SDK sends them as they are.
      const sent = (params: Record<string, unknown>) => ({
        signal: controller.signal,
        body: requestBytes(params),
        headers: { "content-type": "application/json" },
      });
      if (!request.streaming) {
        const params = { ...body, stream: false as const };
        const completion = await this.client.chat.completions.create(params, sent(params));
        const message = completion.choices?.[0]?.message;
        if (!message) throw this.failure("bad-response");
        const reply = ReplyAssembler.whole(message, completion.usage ? usageOf(completion.usage) : undefined);
        if (reply.content) request.onDelta?.(reply.content);
        return reply;
      }
      const params = { ...body, stream: true as const, ...(request.streamOptions ? { stream_options: { include_usage: true } } : {}) };
      const reply = await this.read(await this.client.chat.completions.create(params, sent(params)), request, () => wait(this.streamIdleMs));
      if (timedOut) throw this.failure("timeout");
      return reply.finish(() => this.failure("bad-response"));
    } catch (error) {
      if (error instanceof StoppedError || request.signal?.aborted) throw new StoppedError();
      if (timedOut && !(error instanceof ModelError)) throw this.failure("timeout", error);
      throw this.toModelError(error);
    } finally {
      clearTimeout(silence);
      clearTimeout(deadline);
      request.signal?.removeEventListener("abort", stop);
    }
  }

  /**
   * A stream's chunks into one reply, the wait started again at each. Apart from ask(): the loop is
   * the hot part of a request, and V8 optimizes it alone rather than with the whole request around it
   * (a third of the compile time ask() took).
   */
  private async read(stream: AsyncIterable<ChatCompletionChunk>, request: Ask, chunkCame: () => void): Promise<ReplyAssembler> {
    const reply = new ReplyAssembler();
    for await (const chunk of stream) {
      if (request.signal?.aborted) throw new StoppedError();
      chunkCame();
      const text = reply.add(chunk);
      if (text) request.onDelta?.(text);
    }
    return reply;
  }

  private toModelError(error: unknown): ModelError {
    if (error instanceof ModelError) return error;
    if (error instanceof OpenAI.APIConnectionTimeoutError) return this.failure("timeout", error);
    if (error instanceof OpenAI.APIUserAbortError) return this.failure("timeout", error);
    if (error instanceof OpenAI.APIConnectionError) return this.failure("unreachable", error);
    if (error instanceof OpenAI.APIError) {
      const status = error.status as number | undefined;
      const body = (typeof error.error === "object" && error.error !== null ? error.error : {}) as { message?: unknown; type?: unknown; code?: unknown };
      const message = typeof body.message === "string" ? body.message : error.message;
      const recognised = refusalOf({ ...body, message });
      const kind: ModelErrorKind = recognised
        ? "refused"
        : status === 408
          ? "timeout"
          : status === 401 || status === 403
            ? "auth"
            : status === 429
              ? "rate-limit"
              : // No status: an error event inside a stream that had begun.
                status === undefined || status >= 500
                ? "server"
                : // A redirect model-fetch.ts did not follow: the address is the one to change.
                  (status === 404 && !hasVersionPath(this.options.baseURL)) || (status >= 300 && status < 400)
                  ? "wrong-base-url"
                  : "refused";
      return new ModelError(
        kind,
        {
          baseURL: this.options.baseURL,
          model: this.options.model,
          ...(status !== undefined ? { status } : {}),
          ...(message ? { reason: serverReason(message) } : {}),
          ...(recognised ? { refusal: recognised.refusal, ...(recognised.parameter ? { parameter: recognised.parameter } : {}) } : {}),
        },
        { cause: error },
      );
    }
    // A stream cut mid-way (TypeError: terminated) or garbage in it (SyntaxError).
    return this.failure("bad-response", error);
  }

  private failure(kind: ModelErrorKind, cause?: unknown): ModelError {
    return new ModelError(kind, { baseURL: this.options.baseURL, model: this.options.model }, cause === undefined ? undefined : { cause });
  }
}
