/**
 * Tokens, as AgentKit budgets them: an estimate for fitting requests into a model's context
 * (OPENAI_CONTEXT_TOKENS), never for billing. Hand-written: a real tokenizer is per model, and
 * the servers people run do not say which one they use.
 */

/** The context assumed for a server that is not OpenAI's when OPENAI_CONTEXT_TOKENS is not set. */
export const DEFAULT_CONTEXT_TOKENS = 32_768;
/** The context of OpenAI's models (gpt-4o, gpt-4o-mini, gpt-4.1 take at least this). */
export const OPENAI_CONTEXT_TOKENS = 128_000;

/**
 * A rough count of tokens, for budgets only (never billing), erring high: a Han, kana, Hangul or
 * full-width character, and any other letter outside Latin (Cyrillic, Greek, Devanagari, Thai…),
 * counts one token; an emoji or other character outside the Basic Multilingual Plane two; ASCII
 * punctuation half a token (JSON is mostly punctuation); letters and digits one token per 3.5
 * characters, but past the 16th in a run without a break (base64, hex, a key) one per 1.5. The
 * tokenizers of GPT-4o, Llama 3 and Qwen give about that or fewer.
 */
export function estimateTokens(text: string): number {
  let whole = 0;
  let plain = 0;
  let dense = 0;
  let halves = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      const alphanumeric = (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
      if (alphanumeric) {
        run++;
        if (run > 16) dense++;
        else plain++;
      } else {
        run = 0;
        if (code === 0x20 || code === 0x0a || code === 0x09) plain++;
        else halves++;
      }
      continue;
    }
    run = 0;
    if (code <= 0x24f) plain++;
    else if (code >= 0xd800 && code <= 0xdbff) {
      whole += 2;
      i++;
    } else whole++;
  }
  return whole + Math.ceil(plain / 3.5) + Math.ceil(dense / 1.5) + Math.ceil(halves / 2);
}

/** How many characters to try first when cutting to a number of tokens: never more than the text. */
function firstTry(text: string, tokens: number): number {
  return Math.min(text.length, Math.ceil(tokens * 3.5));
}

/** Not inside a surrogate pair: a cut at `at` moves off a low surrogate. */
function offPair(text: string, at: number, forward: boolean): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + (forward ? 1 : -1) : at;
}

/** The start of a text within about `tokens` tokens, a cut marked with `…`. */
export function keepStart(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  if (tokens <= 0) return "…";
  let keep = firstTry(text, tokens);
  while (keep > 0 && estimateTokens(text.slice(0, keep)) > tokens) keep = Math.floor(keep * 0.8);
  return `${text.slice(0, offPair(text, keep, false))}…`;
}

/** The end of a text within about `tokens` tokens, a cut marked with `…`. */
export function keepEnd(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  if (tokens <= 0) return "…";
  let keep = firstTry(text, tokens);
  while (keep > 0 && estimateTokens(text.slice(text.length - keep)) > tokens) keep = Math.floor(keep * 0.8);
  return `…${text.slice(offPair(text, text.length - keep, true))}`;
}
