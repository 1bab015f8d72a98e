/**
 * Secrets that must never be stored: API keys and tokens, private keys, passwords, card
 * numbers, wallet recovery phrases. Hand-written: the npm detectors are either whole scanning
 * tools (secretlint, detect-secrets ports) or entropy guessers that flag ordinary words; a list
 * of well-known shapes, each measured against a corpus of secrets and of ordinary notes
 * (tests/unit/memory/secret-corpus.ts), is both stricter and quieter. The BIP-39 word list is
 * @scure/bip39's, the one wallets use, not a copy.
 *
 * Text is matched as NFKC with default-ignorable characters dropped (full-width digits, a
 * zero-width space inside a key), and a second time with line breaks between two key
 * characters removed (a key wrapped over two lines, or split over two messages: see
 * maskSecretsInParts). Every pattern is linear: each starts where a run of its characters
 * starts (a lookbehind on the run's own class) or after a literal prefix, and every quantifier
 * that could meet another over the same characters is bounded.
 */

import { SHAPES, span, type Kind, type SecretFinding, type SecretSpan } from "./secret-shapes.js";
import { endBeforeWords, joinedView, normalisedView, type View } from "./secret-views.js";

export type { SecretFinding, SecretSpan } from "./secret-shapes.js";
export { SHAPE_IDS, shapePattern } from "./secret-shapes.js";

interface Found {
  start: number;
  end: number;
  kind: Kind;
}

function scanView(view: View, out: Found[]): void {
  const text = view.text;
  const joined = view.joins !== undefined;
  for (const shape of SHAPES) {
    if (joined && shape.singleLine) continue;
    const needs = shape.needs;
    if (needs !== undefined && !(typeof needs === "string" ? text.includes(needs) : typeof needs === "function" ? needs(text) : needs.test(text))) continue;
    const pattern = shape.pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const found = shape.refine ? shape.refine(m, text) : span(m, 0);
      if (found && found[1] > found[0]) {
        const start = found[0];
        const end = endBeforeWords(view, start, found[1]);
        out.push({
          start: view.start(start),
          end: view.end(end - 1),
          kind: shape.kind,
        });
        // What was masked is not scanned again (a PEM body holds many key-like runs).
        if (end > pattern.lastIndex) pattern.lastIndex = end;
      }
      if (m[0].length === 0) pattern.lastIndex++;
    }
  }
}

/** Every secret in `text`, in order, overlapping matches merged and named by the most specific shape. */
export function findSecrets(text: string): SecretSpan[] {
  const found: Found[] = [];
  const view = normalisedView(text);
  scanView(view, found);
  const joined = joinedView(view);
  if (joined) scanView(joined, found);
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Found[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (last && f.start < last.end) {
      if (f.kind.rank < last.kind.rank) last.kind = f.kind;
      last.end = Math.max(last.end, f.end);
    } else {
      merged.push({ ...f });
    }
  }
  return merged.map(({ start, end, kind: { label, kind, zh } }) => ({ start, end, label, kind, zh }));
}

/** The first thing in `text` that looks like a secret, if any. */
export function findSecret(text: string): SecretFinding | undefined {
  const first = findSecrets(text)[0];
  return first && { kind: first.kind, zh: first.zh, label: first.label };
}

/** What a masked secret reads as: no secret shape, no markup, no instruction. */
export function secretPlaceholder(label: string): string {
  return `[secret: ${label}]`;
}

/** The text with every secret replaced by its placeholder (`[secret: OpenAI key]`). */
export function maskSecrets(text: string): string {
  return maskSecretsFound(text).text;
}

/** maskSecrets, and what was masked (to tell the person). */
export function maskSecretsFound(text: string): { text: string; found: SecretSpan[] } {
  const found = findSecrets(text);
  return { text: found.length === 0 ? text : replaceSpans(text, found), found };
}

function replaceSpans(text: string, spans: readonly { start: number; end: number; label: string }[]): string {
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + secretPlaceholder(s.label);
    at = s.end;
  }
  return out + text.slice(at);
}

/** The spans of secrets in the texts read one after another, each cut to the part it touches (offsets in that part). */
function spansInParts(parts: readonly string[]): { start: number; end: number; label: string }[][] {
  const starts: number[] = [];
  let joined = "";
  parts.forEach((part, i) => {
    if (i > 0) joined += "\n";
    starts.push(joined.length);
    joined += part;
  });
  const own: { start: number; end: number; label: string }[][] = parts.map(() => []);
  // Spans come in order: one cursor over the parts, so many spans and many parts cost their sum.
  let i = 0;
  for (const s of findSecrets(joined)) {
    while (i < parts.length && starts[i]! + parts[i]!.length <= s.start) i++;
    for (let k = i; k < parts.length && starts[k]! < s.end; k++) {
      const start = Math.max(s.start, starts[k]!) - starts[k]!;
      const end = Math.min(s.end, starts[k]! + parts[k]!.length) - starts[k]!;
      if (end > start) own[k]!.push({ start, end, label: s.label });
    }
  }
  return own;
}

/** Spans that overlap merged, in order (several scans of one text may find the same secret). */
function merged(spans: { start: number; end: number; label: string }[]): { start: number; end: number; label: string }[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: { start: number; end: number; label: string }[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/**
 * Masks several texts read one after another, so that a key split over two of them is found:
 * they are scanned joined by line breaks, and a secret that spans a break is masked in each part
 * it touches.
 */
export function maskSecretsInParts(parts: readonly string[]): string[] {
  if (parts.length <= 1) return parts.map(maskSecrets);
  return spansInParts(parts).map((own, i) => (own.length === 0 ? parts[i]! : replaceSpans(parts[i]!, merged(own))));
}

/**
 * The pairs of messages one secret may be split over: neighbours, and a speaker's consecutive
 * messages with the other's answer between them. A conversation is scanned pair by pair, so its
 * cost grows with its length, not its square, and can be cut into slices.
 */
function conversationPairs(messages: readonly { speaker: string }[]): [number, number][] {
  const pairs: [number, number][] = [];
  const lastOf = new Map<string, number>();
  messages.forEach((m, i) => {
    if (i > 0) pairs.push([i - 1, i]);
    const previous = lastOf.get(m.speaker);
    if (previous !== undefined && previous !== i - 1) pairs.push([previous, i]);
    lastOf.set(m.speaker, i);
  });
  return pairs;
}

type Span = { start: number; end: number; label: string };

/** A text is scanned in pieces this long, each with this much of the one before (a PEM key is about 3,300 characters). */
const PIECE_CHARS = 32_000;
const OVERLAP_CHARS = 4_000;

/** The secrets of one text, a piece at a time: a step each, so a long text can be cut into slices. */
function* spansInText(text: string, out: Span[]): Generator<void> {
  for (let start = 0; start < text.length; start += PIECE_CHARS) {
    const from = Math.max(0, start - OVERLAP_CHARS);
    for (const s of findSecrets(text.slice(from, start + PIECE_CHARS))) out.push({ start: s.start + from, end: s.end + from, label: s.label });
    yield;
  }
}

/**
 * The masking of a conversation as steps, for a loop that may hand the event loop back between
 * them: each message alone (in pieces), then where two messages meet (the end of one and the
 * start of the other, joined by a line break) for every pair a secret may be split over.
 */
function* conversationSteps(messages: readonly { speaker: string; text: string }[], out: string[]): Generator<void> {
  const spans: Span[][] = messages.map(() => []);
  for (const [i, m] of messages.entries()) yield* spansInText(m.text, spans[i]!);
  for (const [a, b] of conversationPairs(messages)) {
    const first = messages[a]!.text;
    const tail = first.slice(-OVERLAP_CHARS);
    const [inTail, inHead] = spansInParts([tail, messages[b]!.text.slice(0, OVERLAP_CHARS)]);
    const shift = first.length - tail.length;
    spans[a]!.push(...inTail!.map((s) => ({ ...s, start: s.start + shift, end: s.end + shift })));
    spans[b]!.push(...inHead!);
    yield;
  }
  messages.forEach((m, i) => (out[i] = spans[i]!.length === 0 ? m.text : replaceSpans(m.text, merged(spans[i]!))));
}

/**
 * Masks the messages of a conversation: a key or a card number split over two neighbouring
 * messages, or over two of the person's messages with the assistant's answer between them, is
 * masked in both.
 */
export function maskSecretsInConversation(messages: readonly { speaker: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const _ of conversationSteps(messages, out));
  return out;
}

/** maskSecretsInConversation for a long conversation: `pause` runs between pairs (TimeSlices). */
export async function maskSecretsInConversationSliced(messages: readonly { speaker: string; text: string }[], pause: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  for (const _ of conversationSteps(messages, out)) await pause();
  return out;
}

/**
 * Secrets that `after` holds and `before` did not (by their normalised text, counted): what a
 * write would add, a key assembled from two writes included.
 */
export function addedSecret(before: string, after: string): SecretFinding | undefined {
  const seen = new Map<string, number>();
  const key = (text: string, s: SecretSpan) => normalisedView(text.slice(s.start, s.end)).text.replace(/\s+/g, "");
  for (const s of findSecrets(before)) {
    const k = key(before, s);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const s of findSecrets(after)) {
    const k = key(after, s);
    const count = seen.get(k) ?? 0;
    if (count === 0) return { kind: s.kind, zh: s.zh, label: s.label };
    seen.set(k, count - 1);
  }
  return undefined;
}
