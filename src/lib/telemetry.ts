/**
 * The telemetry vocabulary: the words the engine, the model client, the session stores and the
 * memory tools report in, owned down here so that ops/ (metrics) needs nothing above the ground floor.
 */

/** How a model request failed; the front ends word each kind (src/present/model-errors.ts). */
export type ModelErrorKind =
  | "unreachable"
  | "auth"
  | "rate-limit"
  | "server"
  | "bad-response"
  | "timeout"
  | "refused"
  /** A 404 from a base URL with no version in its path: OPENAI_BASE_URL lacks /v1 (Ollama's usual mistake). */
  | "wrong-base-url";

/**
 * A refusal the model server words the same way every time, recognised from its own error text
 * (src/model/refusals.ts): it cannot change by trying again, so it is never retried, and each
 * front end words its fix.
 */
export type ModelRefusal =
  /** The model cannot call tools (Ollama: "does not support tools"; LM Studio). */
  | "no-tools"
  /** The server refuses tools while streaming (llama.cpp before ggml-org/llama.cpp#12379). */
  | "tools-with-stream"
  /** llama.cpp started without --jinja: no tools at all. */
  | "tools-need-jinja"
  /** vLLM started without --enable-auto-tool-choice --tool-call-parser. */
  | "tools-need-parser"
  /** The model cannot see images (no vision, no projector). */
  | "no-vision"
  /** The server could not read one image (its format or its encoding). */
  | "bad-image"
  /** The request is longer than the model's context. */
  | "context"
  /** The chat template takes one system message, at the start. */
  | "system-message"
  /** The chat template refused the conversation otherwise (raise_exception: roles that do not alternate…). */
  | "template"
  /** The server could not parse a tool call's arguments in the history. */
  | "tool-arguments"
  /** The server does not take this request parameter (parallel_tool_calls, stream_options, response_format). */
  | "parameter";

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

/** What became of one memory write the model asked for. */
export type MemoryWriteResult = "saved" | "unchanged" | "pending" | "over-cap" | "unsafe" | "secret" | "other";

/** Where a stored session is in its life. */
export type SessionStatus = "open" | "closing" | "pending-summary" | "closed";

export type TurnOutcome = "ok" | "stopped" | "error";

/** How one model request ended: answered, stopped by the person, or a ModelError's kind. */
export type ModelOutcome = "ok" | "stopped" | ModelErrorKind;

/** The operations of a tidy-up's plan (memory/tidy) and the checks that drop one: metrics labels, owned here. */
export const TIDY_KINDS = ["merge", "replace", "remove", "move"] as const;
export const DROP_REASONS = ["invalid", "soul", "not-found", "person-written", "quote", "secret", "unsafe", "relative-date", "bounded-loss"] as const;

/** How a tidy-up run ended (engine/tidy): changes made, proposals made, nothing to change, nothing new, or why it failed. */
export type TidyRunOutcome = "done" | "proposed" | "nothing" | "no-news" | "failed-model" | "failed-not-a-plan" | "failed-over-cap" | "failed-changed";

/**
 * What the engine, the model client and the memory tools report as they work. Called on the
 * turn's path, so an implementation only counts (no I/O, no awaiting); the values are fixed
 * words, never a person's id or text.
 */
export interface Telemetry {
  /** A finished turn: AgentKit's own time and the time spent waiting on the model, in ms. */
  turn(outcome: TurnOutcome, ownMs: number, modelMs: number): void;
  /** One model request (a turn's round or a summary), with its final outcome after the SDK's retries. */
  modelRequest(outcome: ModelOutcome): void;
  tokens(usage: TokenUsage): void;
  /** One memory write the model asked for, and what became of it. */
  memoryWrite(result: MemoryWriteResult): void;
  /** One tidy-up run: its outcome, the operations it applied by kind, and those code dropped by the check that dropped them. */
  tidyRun?(outcome: TidyRunOutcome, applied: Readonly<Record<string, number>>, dropped: Readonly<Record<string, number>>): void;
}

/** What runs when metrics are off. */
export const noTelemetry: Telemetry = {
  turn() {},
  modelRequest() {},
  tokens() {},
  memoryWrite() {},
};
