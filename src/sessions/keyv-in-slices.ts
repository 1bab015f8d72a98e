import { Buffer } from "node:buffer";
import { parseJsonInSlices } from "../lib/json-in-slices.js";
import { utf8InSlices } from "../lib/text-writes.js";
import { TimeSlices } from "../lib/time-slices.js";
import type { SessionRecord } from "./session-record.js";

/**
 * keyv's encoding of a session record (@keyv/serialize 1.1: JSON, with a string that starts with
 * ":" written with one more, and a Buffer as ":base64:…"), made and read a piece at a time. A
 * record can hold megabytes (every file shared in the session): keyv encodes and decodes it in one
 * block, and node-sqlite3 turns a row of megabytes of text into a string in one block too (90-110 ms
 * for 6 million characters here, 480 ms on a loaded CI machine). Hand-written because keyv offers
 * no incremental codec; keyv reads what it writes (the messages come last), and it reads what keyv writes.
 */

/** keyv's escape: values only, never keys (JSON.stringify's replacer sees values). */
const escapeColons = (_key: string, value: unknown) => (typeof value === "string" && value.startsWith(":") ? `:${value}` : value);

/** A string value that starts with ":" in JSON text (and some that do not: a key, which is only a false alarm). */
const MAY_ESCAPE = /[:,[]":/;
/** Where the frozen prompt and the messages go in the frame's encoding (each record's last two keys). */
const FRAME_TAIL = '"systemPrompt":"","messages":[]}}';
const utf8 = new TextEncoder();
const bytesOf = (text: string): Uint8Array => utf8.encode(text);

/**
 * What keyv.set stores for `{ value: record }`, as UTF-8, with the loop handed back between
 * messages. A turn saves the whole record, so what does not change is encoded once: the frozen
 * prompt (kept with the record) and each message (kept with the message). Only the small frame is
 * encoded at every save; the pieces are copied into one block.
 */
export async function encodeRecord(record: SessionRecord, slices = new TimeSlices()): Promise<Buffer> {
  const { messages, systemPrompt, ...rest } = record;
  // The record without its prompt and messages, then each in the place left for it.
  const value = { value: { ...rest, systemPrompt: "", messages: [] } };
  // keyv's escape changes only a string that starts with ":", which JSON writes as `":` right after
  // `:`, `,` or `[`: without one anywhere, the text without the replacer (called for every value, a
  // third of a save's encoding) is the same.
  const plain = JSON.stringify(value);
  const frame = MAY_ESCAPE.test(plain) ? JSON.stringify(value, escapeColons) : plain;
  // A record read from elsewhere may lack its prompt, or hold something else there.
  if (typeof systemPrompt !== "string" || !frame.endsWith(FRAME_TAIL)) {
    return Buffer.concat(await piecesOf(JSON.stringify({ value: { ...rest, systemPrompt, messages: [] } }, escapeColons), messages, slices));
  }
  const head = `${frame.slice(0, -FRAME_TAIL.length)}"systemPrompt":`;
  return Buffer.concat(await piecesOf(head, messages, slices, promptBytes(record, systemPrompt)));
}

/**
 * The frame up to the messages, the prompt's bytes when given, each message, and the close. A
 * save's new messages (a turn's two) are encoded at once, without a promise: the loop is handed
 * back once about AT_ONCE_CHARS were encoded (a conversation read back from the store, every
 * message new to this process; a message of up to KEPT_ENCODING_CHARS may go over) or at a long
 * message (a shared file), and from there on it is handed back between messages.
 */
function piecesOf(frame: string, messages: SessionRecord["messages"], slices: TimeSlices, prompt?: Uint8Array): Uint8Array[] | Promise<Uint8Array[]> {
  // A record read from elsewhere may hold anything there: what is not a list is refused, as keyv's iteration would.
  if (!Array.isArray(messages)) throw new TypeError("a session record's messages are not a list");
  const pieces: Uint8Array[] = prompt ? [bytesOf(frame), prompt, bytesOf(',"messages":[')] : [bytesOf(frame.slice(0, -"]}}".length))];
  let atOnce = 0;
  // An indexed loop: this runs every save, and V8 compiles it in a fraction of an iterator's time.
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (i > 0) pieces.push(COMMA);
    // A message encoded at an earlier save is only copied.
    const kept = keptOf(message);
    if (kept) {
      pieces.push(kept);
      continue;
    }
    if (atOnce >= AT_ONCE_CHARS) return restInSlices(pieces, messages, i, slices);
    const text = messageJson(message);
    if (text.length > KEPT_ENCODING_CHARS) return restInSlices(pieces, messages, i, slices, text);
    pieces.push(keptEncoding(message, text));
    atOnce += text.length;
  }
  pieces.push(CLOSE);
  return pieces;
}

/** About what a save encodes before it hands the loop back: a turn's new messages, not a whole conversation. */
const AT_ONCE_CHARS = 64 * 1024;

/** piecesOf from message `from` on (its comma already there), the loop handed back between messages. */
async function restInSlices(
  pieces: Uint8Array[],
  messages: SessionRecord["messages"],
  from: number,
  slices: TimeSlices,
  fromText?: string,
): Promise<Uint8Array[]> {
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    if (i > from) pieces.push(COMMA);
    const kept = keptOf(message);
    if (kept) {
      pieces.push(kept);
      continue;
    }
    const text = i === from && fromText !== undefined ? fromText : messageJson(message);
    // A file shared in the conversation is encoded each time, in slices, rather than kept twice in memory.
    pieces.push(text.length > KEPT_ENCODING_CHARS ? await utf8InSlices(text) : keptEncoding(message, text));
    await slices.pause();
  }
  pieces.push(CLOSE);
  return pieces;
}

const COMMA = bytesOf(",");
const CLOSE = bytesOf("]}}");

/** The frozen prompt's encoding, made once a record (a prompt is never changed in place). */
function promptBytes(record: SessionRecord, prompt: string): Uint8Array {
  const kept = prompts.get(record);
  if (kept?.prompt === prompt) return kept.bytes;
  const bytes = bytesOf(JSON.stringify(escapeColons("", prompt)));
  prompts.set(record, { prompt, bytes });
  return bytes;
}

const prompts = new WeakMap<SessionRecord, { prompt: string; bytes: Uint8Array }>();

/**
 * A message as keyv writes it. Without the replacer when no string in it starts with ":" (as for
 * the frame: the same text, without a call for every value); a record read from elsewhere may hold
 * anything in its list, and what is not an object always goes through it.
 */
function messageJson(message: SessionRecord["messages"][number]): string {
  if (typeof message !== "object" || message === null) return JSON.stringify(message, escapeColons) ?? "null";
  // A long message (not kept, so encoded at every save) goes the way its first encoding found.
  const escapes = longEscapes.get(message);
  if (escapes !== undefined) return (escapes ? JSON.stringify(message, escapeColons) : JSON.stringify(message)) ?? "null";
  const plain = JSON.stringify(message) ?? "null";
  const needed = MAY_ESCAPE.test(plain);
  if (plain.length > KEPT_ENCODING_CHARS) longEscapes.set(message, needed);
  return needed ? (JSON.stringify(message, escapeColons) ?? "null") : plain;
}

/** Whether a long message needs keyv's escape, by the message object (never changed in place). */
const longEscapes = new WeakMap<object, boolean>();

/**
 * A message's encoding, made once: a record is saved every turn with every message before it, and
 * the conversation grows a turn at a time. Kept by the message object (a stored message is never
 * changed in place: masking and forgetting make new ones; tests/unit/sessions/keyv-in-slices.test.ts);
 * only objects are kept.
 */
function keptEncoding(message: SessionRecord["messages"][number], text: string): Uint8Array {
  const bytes = bytesOf(text);
  if (typeof message === "object" && message !== null) encodings.set(message, bytes);
  return bytes;
}

/** A message's encoding from an earlier save, if it has one. */
function keptOf(message: SessionRecord["messages"][number]): Uint8Array | undefined {
  return typeof message === "object" && message !== null ? encodings.get(message) : undefined;
}

const encodings = new WeakMap<object, Uint8Array>();
/** The longest encoding kept: a typed message or an answer; a shared file is longer. */
const KEPT_ENCODING_CHARS = 16_384;

/** UTF-8 bytes decoded a quarter-megabyte at a time (the decoder keeps a character split between pieces). */
async function decodeInSlices(bytes: Uint8Array, slices: TimeSlices): Promise<string> {
  const decoder = new TextDecoder("utf-8");
  const pieces: string[] = [];
  const PIECE = 1 << 18;
  for (let start = 0; start < bytes.length; start += PIECE) {
    pieces.push(decoder.decode(bytes.subarray(start, start + PIECE), { stream: true }));
    await slices.pause();
  }
  pieces.push(decoder.decode());
  return pieces.join("");
}

/** keyv's decoding of a value, applied to what JSON gave back. */
function keyvValue(value: unknown): unknown {
  if (typeof value === "string") {
    if (value.startsWith(":base64:")) return Buffer.from(value.slice(8), "base64");
    return value.startsWith(":") ? value.slice(1) : value;
  }
  if (Array.isArray(value)) return value.map(keyvValue);
  if (value && typeof value === "object") {
    // fromEntries defines each key as its own property, "__proto__" included, as JSON.parse does.
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, keyvValue(inner)]));
  }
  return value;
}

/** The record in a stored row (as bytes), or undefined if the row is not one keyv would read back. */
export async function decodeRecord(bytes: Uint8Array, slices = new TimeSlices()): Promise<SessionRecord | undefined> {
  const text = await decodeInSlices(bytes, slices);
  const parsed = await parseJsonInSlices(text, { slices });
  if (!parsed.ok || !parsed.value || typeof parsed.value !== "object") return undefined;
  const { value } = parsed.value as { value?: unknown };
  return value && typeof value === "object" ? (keyvValue(value) as SessionRecord) : undefined;
}
