import { Buffer } from "node:buffer";

/**
 * A chat request's JSON as UTF-8, the bytes `JSON.stringify(body)` would give, made from pieces
 * kept with the objects they encode. Every turn sends the frozen prompt (about 10 KB), the
 * conversation so far and the tool definitions again; stringified whole, then checked for lone
 * surrogates and encoded by fetch, that cost about 60 µs of CPU a request, most of it on text that
 * had not changed (two-byte text too: the instructions quote Chinese examples). Hand-written because
 * neither the openai SDK nor undici keeps anything between requests: the SDK sends a byte body as it is.
 *
 * Kept by the object: a message or a tool list must never be changed in place once sent (a stored
 * message never is: masking and forgetting make new ones; chat-context.ts keeps one system message
 * per prompt).
 */
export function requestBytes(body: Record<string, unknown>): Uint8Array {
  const pieces: Uint8Array[] = [];
  let first = true;
  // Indexed loops: this runs every request, and V8 compiles them in a fraction of an iterator's time.
  const keys = Object.keys(body);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const value = body[key];
    // As JSON.stringify: a field whose value is undefined (or a function) is left out.
    if (value === undefined || typeof value === "function") continue;
    pieces.push(utf8(`${first ? "{" : ","}${JSON.stringify(key)}:`));
    first = false;
    if (key === "messages" && Array.isArray(value)) {
      pieces.push(OPEN);
      for (let i = 0; i < value.length; i++) {
        if (i > 0) pieces.push(COMMA);
        pieces.push(kept(value[i]));
      }
      pieces.push(CLOSE);
    } else if (key === "tools") pieces.push(kept(value));
    else pieces.push(utf8(JSON.stringify(value) ?? "null"));
  }
  pieces.push(first ? EMPTY : END);
  return Buffer.concat(pieces);
}

const encoder = new TextEncoder();
/** JSON.stringify never gives a lone surrogate (it writes one as \udxxx), so this is fetch's own encoding. */
const utf8 = (text: string): Uint8Array => encoder.encode(text);
const OPEN = utf8("[");
const COMMA = utf8(",");
const CLOSE = utf8("]");
const END = utf8("}");
const EMPTY = utf8("{}");

const encodings = new WeakMap<object, Uint8Array>();
/**
 * The longest message kept, as the session store keeps one (keyv-in-slices.ts): a typed message or
 * an answer. A shared file or an image is encoded each time rather than held twice for the whole
 * session; the system message (the frozen prompt, capped by the context) and the tool list always are.
 */
const KEPT_CHARS = 16_384;

function kept(value: unknown): Uint8Array {
  if (typeof value !== "object" || value === null) return utf8(JSON.stringify(value) ?? "null");
  const known = encodings.get(value);
  if (known) return known;
  const text = JSON.stringify(value);
  const bytes = utf8(text);
  if (text.length <= KEPT_CHARS || Array.isArray(value) || (value as { role?: unknown }).role === "system") encodings.set(value, bytes);
  return bytes;
}
