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
 * A rough count of tokens, for budgets only (never billing): a Han, kana, Hangul or full-width
 * character, or one outside the Basic Multilingual Plane (emoji), counts one token; other text one
 * token per 3.5 characters. The tokenizers of GPT-4o, Llama 3 and Qwen give about that for English,
 * and fewer for Chinese, so a budget made of it errs on the safe side.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x2e80 && code <= 0xd7af) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xffef)) wide++;
    else if (code >= 0xd800 && code <= 0xdbff) {
      wide++;
      i++;
    } else other++;
  }
  return wide + Math.ceil(other / 3.5);
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
  let keep = firstTry(text, tokens);
  while (keep > 0 && estimateTokens(text.slice(0, keep)) > tokens) keep = Math.floor(keep * 0.8);
  return `${text.slice(0, offPair(text, keep, false))}…`;
}

/** The end of a text within about `tokens` tokens, a cut marked with `…`. */
export function keepEnd(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  let keep = firstTry(text, tokens);
  while (keep > 0 && estimateTokens(text.slice(text.length - keep)) > tokens) keep = Math.floor(keep * 0.8);
  return `…${text.slice(offPair(text, text.length - keep, true))}`;
}
