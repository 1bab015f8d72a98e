/**
 * Secrets that must never be stored in memory. Hand-written: the npm detectors are either
 * whole scanning tools (secretlint, detect-secrets ports) or unmaintained entropy guessers
 * that flag ordinary words; a short list of well-known shapes, each tested against a corpus of
 * normal notes, is both stricter and quieter.
 */

export interface SecretFinding {
  /** What it looks like, for a person: "an OpenAI API key". */
  kind: string;
  /** The same in Chinese. */
  zh: string;
}

interface Shape {
  kind: string;
  zh: string;
  pattern: RegExp;
  check?: (match: string) => boolean;
}

const SHAPES: Shape[] = [
  { kind: "a private key (PEM)", zh: "私钥（PEM）", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: "an OpenAI API key", zh: "OpenAI API 密钥", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/ },
  { kind: "an Anthropic API key", zh: "Anthropic API 密钥", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: "a GitHub token", zh: "GitHub 令牌", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { kind: "a Slack token", zh: "Slack 令牌", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: "a Slack webhook", zh: "Slack webhook", pattern: /hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+/ },
  { kind: "an AWS access key", zh: "AWS 访问密钥", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  { kind: "an AWS secret key", zh: "AWS 私密密钥", pattern: /aws_?secret(?:_access)?_?key\W{0,5}[A-Za-z0-9/+=]{40}\b/i },
  { kind: "a Google API key", zh: "Google API 密钥", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: "a Stripe key", zh: "Stripe 密钥", pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}/ },
  // A Discord bot token: the bot's id in base64, a timestamp part, an HMAC part.
  { kind: "a Discord bot token", zh: "Discord 机器人令牌", pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/ },
  { kind: "a JSON web token", zh: "JSON Web 令牌", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { kind: "a password", zh: "密码", pattern: /(?:\b(?:password|passwd|passcode|pwd|pin)|密码|口令)\s*(?:is|=|:|：|是)\s*\S{4,}/i, check: notPlaceholder },
  { kind: "an API key or token", zh: "API 密钥或令牌", pattern: /\b(?:api[_ -]?key|secret[_ -]?key|access[_ -]?token|auth[_ -]?token|bearer)\s*(?:is|=|:|：)\s*["']?[A-Za-z0-9_\-./+=]{16,}/i },
  { kind: "a payment card number", zh: "银行卡号", pattern: /\b\d(?:[ -]?\d){12,18}\b/, check: isCardNumber },
];

/** Words that follow "password:" in ordinary notes without being one. */
function notPlaceholder(match: string): boolean {
  const value = match.replace(/^.*?(?:is|=|:|：|是)\s*/i, "").toLowerCase();
  return !/^(?:reset|changed?|updated?|manager|policy|protected|required|hint|\*+|x+|\.\.\.+|…|redacted|hidden|<[^>]*>)/.test(value);
}

/** 13–19 digits that pass the Luhn check and are not a date, phone pattern or id with a leading 0. */
function isCardNumber(match: string): boolean {
  const digits = match.replace(/[ -]/g, "");
  if (digits.length < 13 || digits.length > 19 || !/^[2-6]/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The first thing in `text` that looks like a secret, if any. */
export function findSecret(text: string): SecretFinding | undefined {
  for (const shape of SHAPES) {
    const pattern = new RegExp(shape.pattern.source, shape.pattern.flags.includes("g") ? shape.pattern.flags : `${shape.pattern.flags}g`);
    for (const match of text.matchAll(pattern)) {
      if (!shape.check || shape.check(match[0])) return { kind: shape.kind, zh: shape.zh };
    }
  }
  return undefined;
}
