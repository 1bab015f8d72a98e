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
/** Quoted text longer than a model's name may be someone's words echoed back: it is left out. */
const LONG_QUOTE_CHARS = 48;
/** Where a server starts repeating what it was given (llama.cpp's "at pos N:", "last read:", pydantic's "input_value="). */
const ECHO_MARKERS = ["last read:", " at pos ", "input_value=", "input:", "got:", " but got"];

/**
 * A server's error text without what it echoes of the request or the model's output: the text
 * after an echo marker, and quoted runs longer than a name ("…", `…`, and '…' opened after a space
 * or a bracket, so "model's" stays) become `…`. A loop, not a regular expression: quotes may be
 * unbalanced in any way. Linear: each quote looks for its closing mark once from where it is.
 */
export function withoutEchoes(text: string): string {
  const lower = text.toLowerCase();
  const echoes = ECHO_MARKERS.map((marker) => ({ marker, at: lower.indexOf(marker) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at)[0];
  const cut = echoes ? `${text.slice(0, echoes.at)}${echoes.marker.trimEnd()} …` : text;
  let out = "";
  // The next place of each quote mark at or after i: found once, then kept while i is before it.
  const next = new Map<string, number>();
  const closing = (mark: string, from: number) => {
    const known = next.get(mark);
    if (known !== undefined && (known >= from || known === -1)) return known;
    const found = cut.indexOf(mark, from);
    next.set(mark, found);
    return found;
  };
  for (let i = 0; i < cut.length; i++) {
    const char = cut[i]!;
    const before = i === 0 ? " " : cut[i - 1]!;
    const opens = char === '"' || char === "`" || (char === "'" && " ([:=,".includes(before));
    const close = opens ? closing(char, i + 1) : -1;
    if (close > i) {
      out += close - i - 1 > LONG_QUOTE_CHARS ? `${char}…${char}` : cut.slice(i, close + 1);
      i = close;
      continue;
    }
    out += char;
  }
  return out;
}

/**
 * The server's error text as the operator's log may hold it: one line, at most 240 characters,
 * control characters dropped, echoes left out (withoutEchoes).
 */
export function serverReason(text: string): string {
  let line = "";
  for (const char of withoutEchoes(text.slice(0, 16_384))) {
    const code = char.codePointAt(0)!;
    line += code < 0x20 || (code >= 0x7f && code < 0xa0) ? " " : char;
  }
  line = line.replace(/ {2,}/g, " ").trim();
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}
