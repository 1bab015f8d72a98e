import type { ModelErrorKind, ModelRefusal } from "../lib/telemetry.js";

export interface ModelErrorDetails {
  /** OPENAI_BASE_URL as configured. */
  baseURL: string;
  /** OPENAI_MODEL, as sent. */
  model?: string;
  /** The HTTP status, when the server answered. */
  status?: number;
  /** The server's own words for the failure (serverReason: short, no long quoted text), for the operator. */
  reason?: string;
  /** A refusal recognised from those words (refusals.ts): it cannot change by trying again. */
  refusal?: ModelRefusal;
  /** For a refused "parameter": the request field the server does not take. */
  parameter?: string;
}

/**
 * Every failure of the model, as a kind the front ends word (src/present/model-errors.ts).
 * The message is for logs: the kind, the status, the server and the server's own reason.
 */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    readonly details: ModelErrorDetails,
    options?: { cause?: unknown },
  ) {
    const status = details.status === undefined ? "" : `, HTTP ${details.status}`;
    const reason = details.reason ? `: ${details.reason}` : "";
    super(`model server ${details.baseURL} (OPENAI_BASE_URL): ${kind}${status}${reason}`, options);
    this.name = "ModelError";
  }
}

/** The person stopped the answer (the request's signal was aborted); not a failure. */
export class StoppedError extends Error {
  constructor() {
    super("stopped by the person");
    this.name = "StoppedError";
  }
}

const REASON_CHARS = 240;
/** Quoted text longer than a model's name may be the person's words echoed back: it is left out. */
const LONG_QUOTE_CHARS = 48;

/**
 * The server's error text as the operator's log may hold it: one line, at most 240 characters,
 * control characters dropped, and any quoted run longer than a model name cut out, since a server
 * may echo part of the request (a tool call's arguments, a message) in its error.
 * A loop, not a regular expression: quotes may be unbalanced in any way.
 */
export function serverReason(text: string): string {
  let out = "";
  let quote: string | undefined;
  let quoted = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const visible = code < 0x20 || (code >= 0x7f && code < 0xa0) ? " " : char;
    if (quote === undefined) {
      // Not the apostrophe: "This model's maximum context length …" is no quote.
      if (visible === '"' || visible === "`") {
        quote = visible;
        quoted = "";
      } else out += visible;
    } else if (visible === quote) {
      out += quoted.length > LONG_QUOTE_CHARS ? `${quote}…${quote}` : `${quote}${quoted}${quote}`;
      quote = undefined;
    } else if (quoted.length <= LONG_QUOTE_CHARS) quoted += visible;
    if (out.length > REASON_CHARS * 2) break;
  }
  if (quote !== undefined) out += quoted.length > LONG_QUOTE_CHARS ? `${quote}…` : `${quote}${quoted}`;
  const line = out.replace(/ {2,}/g, " ").trim();
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}
