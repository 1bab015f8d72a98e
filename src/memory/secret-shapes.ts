/**
 * The well-known shapes of secrets (memory/secrets.ts scans text with them): what each kind is
 * called, its pattern, and the refiner that trims or refuses a match. Every pattern is linear: each
 * starts where a run of its characters starts (a lookbehind on the run's own class) or after a
 * literal prefix, and every quantifier that could meet another over the same characters is bounded.
 */

import { wordlist as BIP39_ENGLISH } from "@scure/bip39/wordlists/english.js";
import { isBlank, isKeyChar, PLAIN_WORD } from "./secret-views.js";

export interface SecretFinding {
  /** What it looks like, for a person and the model: "an OpenAI API key". */
  kind: string;
  /** The same in Chinese. */
  zh: string;
  /** A short English name, as the placeholder shows it: "OpenAI key". */
  label: string;
}

/** Where a secret is, in the text that was scanned (UTF-16 offsets). */
export interface SecretSpan extends SecretFinding {
  start: number;
  end: number;
}

export interface Kind extends SecretFinding {
  /** Lower is more specific; when two matches overlap, the more specific names them. */
  rank: number;
}

const kind = (label: string, en: string, zh: string, rank = 0): Kind => ({ label, kind: en, zh, rank });

const KINDS = {
  pem: kind("private key", "a private key", "私钥"),
  openai: kind("OpenAI key", "an OpenAI API key", "OpenAI API 密钥"),
  anthropic: kind("Anthropic key", "an Anthropic API key", "Anthropic API 密钥"),
  github: kind("GitHub token", "a GitHub token", "GitHub 令牌"),
  gitlab: kind("GitLab token", "a GitLab token", "GitLab 令牌"),
  slack: kind("Slack token", "a Slack token", "Slack 令牌"),
  slackHook: kind("Slack webhook", "a Slack webhook", "Slack webhook 地址"),
  pypi: kind("PyPI token", "a PyPI token", "PyPI 令牌"),
  dockerHub: kind("Docker Hub token", "a Docker Hub access token", "Docker Hub 访问令牌"),
  vault: kind("Vault token", "a HashiCorp Vault token", "HashiCorp Vault 令牌"),
  discordHook: kind("Discord webhook", "a Discord webhook", "Discord webhook 地址"),
  awsAccess: kind("AWS access key", "an AWS access key", "AWS 访问密钥"),
  awsSecret: kind("AWS secret key", "an AWS secret key", "AWS 私密密钥"),
  google: kind("Google API key", "a Google API key", "Google API 密钥"),
  googleOauth: kind("Google OAuth secret", "a Google OAuth secret or token", "Google OAuth 密钥或令牌"),
  stripe: kind("Stripe key", "a Stripe key", "Stripe 密钥"),
  npm: kind("npm token", "an npm token", "npm 令牌"),
  huggingFace: kind("Hugging Face token", "a Hugging Face token", "Hugging Face 令牌"),
  sendgrid: kind("SendGrid key", "a SendGrid API key", "SendGrid API 密钥"),
  telegram: kind("Telegram bot token", "a Telegram bot token", "Telegram 机器人令牌"),
  azureKey: kind("Azure key", "an Azure storage or service key", "Azure 存储或服务密钥"),
  azureSas: kind("Azure SAS signature", "an Azure SAS signature", "Azure SAS 签名"),
  azureClient: kind("Azure client secret", "an Azure client secret", "Azure 客户端密钥"),
  discordBot: kind("Discord bot token", "a Discord bot token", "Discord 机器人令牌"),
  jwt: kind("JSON web token", "a JSON web token", "JSON Web 令牌"),
  otherService: kind("API key", "an API key or token", "API 密钥或令牌"),
  bearer: kind("bearer token", "a bearer token", "Bearer 令牌", 1),
  basic: kind("basic auth credentials", "basic auth credentials", "Basic 认证凭据", 1),
  password: kind("password", "a password", "密码", 2),
  pin: kind("PIN", "a PIN", "PIN 码", 2),
  labelled: kind("API key", "an API key or token", "API 密钥或令牌", 2),
  card: kind("card number", "a payment card number", "银行卡号"),
  recoveryPhrase: kind("recovery phrase", "a wallet recovery phrase", "钱包助记词"),
} satisfies Record<string, Kind>;

/** A match of a shape: the span to mask (view offsets), or undefined when the check says no. */
type Refine = (match: RegExpExecArray, view: string) => [number, number] | undefined;

interface Shape {
  id: string;
  kind: Kind;
  pattern: RegExp;
  /** Default: the whole match. */
  refine?: Refine;
  /** Text without this cannot hold the shape: the pattern is not run at all (most notes skip most shapes). */
  needs?: string | RegExp | ((text: string) => boolean);
  /**
   * A value after a label ("password: …"): it ends with its line. Only keys of a known shape are
   * looked for across a wrapped line, or the next line's first word would be taken (and masked)
   * as the rest of a password.
   */
  singleLine?: boolean;
}

// The characters of most key formats (base64url); a lookbehind on them makes a pattern start
// only where such a run starts, so each run is scanned a bounded number of times.
const RUN = "A-Za-z0-9_\\-";
const NOT_AFTER_RUN = `(?<![${RUN}])`;

/** Placeholders people write instead of a key: YOUR_API_KEY_HERE, xxxx, <token>, EXAMPLE. */
const PLACEHOLDER = /your|example|placeholder|redacted|dummy|changeme|insert|replace|here|x{4}|\*{3}|\.{3}|…|[<>{}$]/i;

/**
 * A key rather than words or a placeholder: letters and digits (or mixed case), enough distinct
 * characters, not words joined by dashes (a URL slug such as sk-learn-tutorial-2024).
 */
function looksRandom(whole: string, minLength = 16, needDigit = true): boolean {
  if (whole.length < minLength) return false;
  // Keys are at most a few hundred characters; judging the start keeps a megabyte run cheap.
  const token = whole.slice(0, 256);
  if (PLACEHOLDER.test(token)) return false;
  let digits = 0;
  let upper = 0;
  let lower = 0;
  const distinct = new Set<string>();
  for (const char of token) {
    if (char >= "0" && char <= "9") digits++;
    else if (char >= "A" && char <= "Z") upper++;
    else if (char >= "a" && char <= "z") lower++;
    distinct.add(char);
  }
  if (upper + lower === 0) return false;
  if (needDigit ? digits === 0 : digits === 0 && (upper < 3 || lower < 3)) return false;
  if (distinct.size < Math.min(10, Math.ceil(token.length / 3))) return false;
  const parts = token.split(/[-_./]+/).filter(Boolean);
  return !(parts.length >= 3 && parts.every((part) => /^(?:[a-z]+|[A-Z][a-z]+|\d+)$/.test(part)));
}

/** The whole match (or group 1) when it looks random. */
const randomGroup =
  (minLength = 16, needDigit = true): Refine =>
  (m) => {
    const [start, end] = span(m);
    return looksRandom(m[1] ?? m[0], minLength, needDigit) ? [start, end] : undefined;
  };

/** The span of group 1 when there is one (needs the `d` flag), else of the whole match. */
export function span(m: RegExpExecArray, groupIndex = 1): [number, number] {
  const group = m.indices?.[groupIndex];
  return group ? [group[0], group[1]] : [m.index, m.index + m[0].length];
}

/** Characters a URL value or a quoted value often ends with that are not part of it. */
const TRAILING = /[.,;:!?)\]}'"`’”>]+$/;

const trimEnd = (start: number, value: string): [number, number] => [start, start + value.replace(TRAILING, "").length];

/** Chinese "is" after 密码: 是, 为, a colon, "changed to" (and Japanese は); adverbs such as 一直 may come between, nouns may not (密码管理器是…). */
const ZH_VERB = "(?:一直|也|都|还|就|总|已经|应该|好像|大概|其实|仍然|依然|现在|目前)?[ \\t]*(?:是|为|為|は|:|=|改成了?|改为|设为|设成|设置为|换成了?)[ \\t]*";

export const SHAPES: Shape[] = [
  // A PEM private key: the header, then its base64 body up to the END line (see refinePem).
  { id: "pem", kind: KINDS.pem, pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g, refine: refinePem },
  // Its body alone, pasted without the BEGIN line: known by the bytes it starts with (see refinePemBody).
  { id: "pem-body", kind: KINDS.pem, pattern: /(?<![A-Za-z0-9+/=])(?:M[A-Za-z0-9+/]{23}|b3BlbnNzaC1rZXktdjE)/g, refine: refinePemBody },
  { id: "putty", kind: KINDS.pem, pattern: /PuTTY-User-Key-File-\d: [^\n]{0,80}/g, refine: refineKeyFileLines },
  { id: "anthropic", kind: KINDS.anthropic, pattern: new RegExp(`${NOT_AFTER_RUN}sk-ant-(?:[a-z]{2,8}\\d{2}-)?([${RUN}]{20,})`, "g"), refine: randomGroup(20) },
  {
    id: "openai",
    kind: KINDS.openai,
    pattern: new RegExp(`${NOT_AFTER_RUN}sk-(?!ant-)(?:(?:proj|svcacct|admin|None)-)?([${RUN}]{20,})`, "g"),
    refine: randomGroup(20),
  },
  {
    id: "github",
    kind: KINDS.github,
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_([A-Za-z0-9]{36,255})|github_pat_([A-Za-z0-9_]{40,255}))/g,
    refine: (m) => (looksRandom(m[1] ?? m[2] ?? "", 30) ? span(m, 0) : undefined),
  },
  {
    id: "gitlab",
    kind: KINDS.gitlab,
    pattern: new RegExp(`${NOT_AFTER_RUN}(?:gl(?:pat|dt|rt|ptt|soat|ft|imt|agent|oas|cbt)-|GR1348941)([${RUN}.]{20,})`, "g"),
    refine: randomGroup(20),
  },
  {
    id: "slack",
    kind: KINDS.slack,
    pattern: new RegExp(`${NOT_AFTER_RUN}(?:xox[abposre]|xapp)-([A-Za-z0-9-]{10,})`, "g"),
    refine: (m) => ((m[1]!.match(/\d/g)?.length ?? 0) >= 6 && !PLACEHOLDER.test(m[1]!) ? span(m, 0) : undefined),
  },
  { id: "slack-webhook", kind: KINDS.slackHook, pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/]{20,})/dg, refine: (m) => span(m) },
  { id: "discord-webhook", kind: KINDS.discordHook, pattern: /discord(?:app)?\.com\/api\/webhooks\/\d{16,21}\/([A-Za-z0-9_-]{40,})/dg, refine: (m) => span(m) },
  {
    id: "aws-access",
    kind: KINDS.awsAccess,
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g,
    refine: (m) => (PLACEHOLDER.test(m[0]) ? undefined : span(m, 0)),
  },
  {
    id: "aws-secret",
    singleLine: true,
    kind: KINDS.awsSecret,
    pattern: /aws[_ .-]?secret(?:[_ .-]?access)?[_ .-]?key["']?[ \t]{0,3}(?:=|:|is)[ \t]{0,3}["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    refine: randomGroup(40),
  },
  // The secret key with no label of its own, next to its access key id.
  {
    id: "aws-pair",
    kind: KINDS.awsSecret,
    needs: (text) => text.includes("AKIA") || text.includes("ASIA") || /\baws\b/i.test(text),
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    refine: refineAwsPair,
  },
  { id: "google", kind: KINDS.google, pattern: new RegExp(`${NOT_AFTER_RUN}AIza[${RUN}]{35}(?![${RUN}])`, "g"), refine: (m) => span(m, 0) },
  {
    id: "google-oauth",
    kind: KINDS.googleOauth,
    pattern: new RegExp(`${NOT_AFTER_RUN}(?:GOCSPX-[${RUN}]{24,40}|ya29\\.[${RUN}]{40,}|1//0[${RUN}]{40,})`, "g"),
    refine: randomGroup(28),
  },
  {
    id: "stripe",
    kind: KINDS.stripe,
    pattern: /(?<![A-Za-z0-9_])(?:(?:sk|rk|pk)_live_|(?:sk|rk)_test_|whsec_)([A-Za-z0-9]{20,255})/g,
    refine: randomGroup(20),
  },
  { id: "npm", kind: KINDS.npm, pattern: /(?<![A-Za-z0-9_])npm_([A-Za-z0-9]{36})(?![A-Za-z0-9])/g, refine: randomGroup(36) },
  {
    id: "pypi",
    kind: KINDS.pypi,
    pattern: new RegExp(`${NOT_AFTER_RUN}pypi-(AgE[${RUN}]{50,})`, "g"),
    refine: (m) => (looksRandom(m[1]!, 50) ? span(m, 0) : undefined),
  },
  {
    id: "docker-hub",
    kind: KINDS.dockerHub,
    pattern: new RegExp(`${NOT_AFTER_RUN}dckr_(?:pat|oat)_([${RUN}]{24,})`, "g"),
    refine: (m) => (looksRandom(m[1]!, 24, false) ? span(m, 0) : undefined),
  },
  {
    id: "vault",
    kind: KINDS.vault,
    pattern: new RegExp(`(?<![${RUN}.])hv[sbr]\\.([${RUN}]{24,})`, "g"),
    refine: (m) => (looksRandom(m[1]!, 24, false) ? span(m, 0) : undefined),
  },
  // The tokens before Vault 1.10 (s.…, b.…, r.…) are too plain to stand alone: only after the word vault or token on their line.
  {
    id: "vault-legacy",
    kind: KINDS.vault,
    needs: /vault|token/i,
    pattern: /(?<![A-Za-z0-9_.-])[sbr]\.([A-Za-z0-9]{24})(?![A-Za-z0-9_.-])/g,
    refine: refineVaultLegacy,
  },
  {
    id: "hugging-face",
    kind: KINDS.huggingFace,
    pattern: /(?<![A-Za-z0-9_])(?:hf_|api_org_)([A-Za-z0-9]{30,40})(?![A-Za-z0-9])/g,
    refine: randomGroup(30, false),
  },
  {
    id: "sendgrid",
    kind: KINDS.sendgrid,
    pattern: new RegExp(`(?<![${RUN}.])SG\\.([${RUN}]{16,32})\\.[${RUN}]{30,64}(?![${RUN}])`, "g"),
    refine: randomGroup(16, false),
  },
  {
    id: "telegram",
    kind: KINDS.telegram,
    needs: ":",
    pattern: new RegExp(`(?<!\\d)\\d{8,10}:([${RUN}]{35})(?![${RUN}])`, "g"),
    refine: randomGroup(35, false),
  },
  {
    id: "azure-key",
    kind: KINDS.azureKey,
    pattern: /(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([A-Za-z0-9+/]{30,}={0,2})/dg,
    refine: randomGroup(30),
  },
  { id: "azure-sas", kind: KINDS.azureSas, pattern: /[?&]sig=([A-Za-z0-9%+/=]{30,})/dg, refine: randomGroup(30) },
  {
    id: "azure-client",
    kind: KINDS.azureClient,
    needs: "Q~",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    refine: (m) => span(m, 0),
  },
  {
    id: "other-service",
    kind: KINDS.otherService,
    pattern:
      /(?<![A-Za-z0-9_])(?:shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|dop_v1_[a-f0-9]{64}|SK[0-9a-f]{32}|key-[0-9a-f]{32}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43})(?![A-Za-z0-9_])/g,
    refine: randomGroup(32),
  },
  // A Discord bot token: the bot's id in base64, a timestamp part, an HMAC part.
  {
    id: "discord-bot",
    kind: KINDS.discordBot,
    needs: ".",
    pattern: new RegExp(`(?<![${RUN}.])[MNO][${RUN}]{23,27}\\.[${RUN}]{6}\\.([${RUN}]{27,40})(?![${RUN}])`, "g"),
    refine: randomGroup(27),
  },
  { id: "jwt", kind: KINDS.jwt, pattern: new RegExp(`${NOT_AFTER_RUN}eyJ[${RUN}]{8,}\\.eyJ[${RUN}]{8,}\\.[${RUN}]{8,}`, "g"), refine: (m) => span(m, 0) },
  { id: "bearer", singleLine: true, kind: KINDS.bearer, pattern: /\bbearer[ \t]{1,8}([A-Za-z0-9._~+/=-]{20,})/dgi, refine: randomGroup(20) },
  {
    id: "basic",
    singleLine: true,
    kind: KINDS.basic,
    pattern: /\bauthorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?basic[ \t]{1,8}([A-Za-z0-9+/]{8,}={0,2})/dgi,
    refine: (m) => span(m),
  },
  // user:password@ in a URL; only the password is masked, the host stays readable.
  { id: "url-password", singleLine: true, kind: KINDS.password, pattern: /:\/\/[^\s:/?#@"'<>]{0,100}:([^\s/?#@"'<>]{1,200})@/dg, refine: refinePasswordValue },
  { id: "url-param", singleLine: true, kind: KINDS.labelled, needs: "=", pattern: /[?&]([A-Za-z_-]{2,30})=([^&\s#"'<>]{8,300})/dg, refine: refineUrlParam },
  {
    id: "password",
    singleLine: true,
    kind: KINDS.password,
    pattern:
      /(?<![A-Za-z])(pass(?:word|wd|code|phrase)s?|pass|pwd|pw)(?![A-Za-z])["']?(?:[ \t]+(?:for|to|of|on|at)[ \t]{1,3}[^\n:=]{1,80}?)?[ \t]*(?:(is|was|are)(?![A-Za-z])(?:[ \t]*:)?|:=|[:=]|=>)[ \t]*(?:\n[ \t]*)?(["'`“‘]?)([!-:<-~]{4,64})/dgi,
    refine: refinePassword,
  },
  {
    // Spanish, French and German labels (mdp: mot de passe). With no list of these languages' plain
    // words, a value must look like no word at all (or be quoted): "la contraseña es incorrecta" is not one.
    id: "password-intl",
    singleLine: true,
    kind: KINDS.password,
    pattern:
      /(?<![A-Za-z\u00c0-\u024f])(?:contrase(?:ñ|n)as?|claves?|mots? de passe|mdp|(?:passw|kennw)(?:o|ö)rt(?:e|er)?)(?![A-Za-z\u00c0-\u024f])["']?(?:[ \t]{1,3}[^\n:=]{1,40}?)?[ \t]{0,3}(?:(?<![A-Za-z\u00c0-\u024f])(es|era|est|était|etait|c['’]est|ist|war|lautet)(?![A-Za-z\u00c0-\u024f])(?:[ \t]{0,3}:)?|[:=])[ \t]{0,3}(["'`“‘«„]?)([!-:<-~]{4,64})/dgi,
    refine: refinePasswordIntl,
  },
  {
    id: "pin",
    singleLine: true,
    kind: KINDS.pin,
    pattern:
      /(?<![A-Za-z])pin(?:[ _-]?code)?s?(?![A-Za-z])["']?(?:[ \t]+(?:for|to|of|on|at)[ \t]{1,3}[^\n:=]{1,40}?)?[ \t]*(?:is|was|:|=)[ \t]*["']?(\d{4,12})(?![\d])/dgi,
    refine: (m) => span(m),
  },
  {
    id: "password-zh",
    singleLine: true,
    kind: KINDS.password,
    pattern: new RegExp(`(?:密码|密碼|口令|暗码|パスワード)${ZH_VERB}(["'\`“‘「]?)([!-:<-~]{4,64})?`, "dg"),
    refine: refinePasswordZh,
  },
  {
    // No verb at all ("邮箱密码 Tr0ub4dor3", "取款密码 482913"): only a value that is plainly not a word.
    id: "password-zh-bare",
    singleLine: true,
    kind: KINDS.password,
    pattern: /(?:密码|密碼|口令|パスワード)[ \t]+([!-~]{6,64})/dg,
    refine: (m) => {
      const value = m[1]!.replace(TRAILING_AFTER_COLON, "");
      const plain = /^\d{6,12}$/.test(value) || (/\d/.test(value) && /[A-Za-z]/.test(value));
      return plain && acceptablePassword(value) ? [m.indices![1]![0], m.indices![1]![0] + value.length] : undefined;
    },
  },
  { id: "pin-zh", singleLine: true, kind: KINDS.pin, pattern: new RegExp(`(?:PIN ?码|暗証番号)${ZH_VERB}(\\d{4,12})(?!\\d)`, "dgi"), refine: (m) => span(m) },
  {
    // Matched from the label's last word (a literal), the words before it checked after (refineLabelled).
    id: "labelled",
    singleLine: true,
    kind: KINDS.labelled,
    needs: /key|token|secret|密钥|秘钥|令牌/i,
    pattern: /(?:key|token|secret|密钥|秘钥|令牌)(?![A-Za-z])["']?[ \t]*(?:is|=|:|是|为|=>)[ \t]*["'`]?([A-Za-z0-9_\-./+=~]{16,300})/dgi,
    refine: refineLabelled,
  },
  // A whole run of two or more short words with short gaps (spaces, commas, "2." of a numbered list), each run read once
  // (asking for twelve in the pattern would read a run again from each of its words); refineRecoveryPhrase looks for twelve of the BIP-39 list in it.
  {
    id: "recovery-phrase",
    kind: KINDS.recoveryPhrase,
    pattern: /(?<![A-Za-z])[A-Za-z][a-z]{2,7}(?:[^A-Za-z]{1,12}[A-Za-z][a-z]{2,7})+(?![A-Za-z])/g,
    refine: refineRecoveryPhrase,
  },
  { id: "card", kind: KINDS.card, pattern: /(?<![\d])\d{4,19}(?:[ ._/-]\d{1,19}){0,8}(?![\d])/g, refine: refineCard },
];

/** Shape ids, for the tests that run each pattern on its worst input. */
export const SHAPE_IDS: readonly string[] = SHAPES.map((s) => s.id);

/** The regular expression of a shape (a copy), for those tests. */
export function shapePattern(id: string): RegExp {
  const shape = SHAPES.find((s) => s.id === id);
  if (!shape) throw new Error(`no shape ${id}`);
  return new RegExp(shape.pattern.source, shape.pattern.flags);
}

function refineAwsPair(m: RegExpExecArray, view: string): [number, number] | undefined {
  const before = view.slice(Math.max(0, m.index - 80), m.index);
  if (!/(?:AKIA|ASIA)[A-Z0-9]{16}|aws/i.test(before) || !/[/+]/.test(m[0]) || !looksRandom(m[0], 40)) return undefined;
  return span(m, 0);
}

/** The whole label that ends where a labelled match starts: api key, secret_key, client-secret, access token, 密钥… */
const LABEL_BEFORE =
  /(?:^|[^A-Za-z])(?:api[_ .-]?|secret[_ .-]?|client[_ .-]?|app[_ .-]?|access[_ .-]?|auth[_ .-]?|refresh[_ .-]?|bot[_ .-]?|session[_ .-]?|private[_ .-]?|subscription[_ .-]?|x-api-|_?auth)?$/i;

/** A legacy Vault token (s.…) only after "vault" or "token" earlier on its line. */
function refineVaultLegacy(m: RegExpExecArray, view: string): [number, number] | undefined {
  const before = view.slice(Math.max(0, m.index - 60), m.index);
  return /(?:vault|token)[^\n]*$/i.test(before) && looksRandom(m[1]!, 24, false) ? span(m, 0) : undefined;
}

function refineLabelled(m: RegExpExecArray, view: string): [number, number] | undefined {
  const word = m[0].slice(0, 6).toLowerCase();
  const before = view.slice(Math.max(0, m.index - 16), m.index);
  // A bare "key" is a label only with a word before it (api key, secret_key); "token", "secret" and the Chinese words stand alone.
  if (word.startsWith("key")) {
    if (!/(?:api|secret|subscription|private|x-api)[_ .-]?$/i.test(before)) return undefined;
  } else if (/^[a-z]/.test(word) && !LABEL_BEFORE.test(before)) return undefined;
  return randomGroup(16)(m, view);
}

// ── PEM and PuTTY key files ────────────────────────────────────────────────────────────────

/** The header, the base64 body (also with escaped \n, as in a JSON key file) and the END line if there is one. */
function refinePem(m: RegExpExecArray, view: string): [number, number] {
  let at = m.index + m[0].length;
  for (; at < view.length; at++) {
    const code = view.charCodeAt(at);
    if (code === 45 /* - */ && view.startsWith("-----", at)) break;
    if (!(isKeyChar(code) || code === 32 || code === 9 || code === 10 || code === 13 || code === 58 || code === 44 || code === 46 || code === 92)) break;
  }
  const end = /^-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/.exec(view.slice(at, at + 80));
  if (end) at += end[0].length;
  return [m.index, at];
}

const PEM_FOOTER = /^-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/;

/**
 * A private key's DER starts with a sequence, then its version (0 or 1: PKCS#1, PKCS#8 and SEC1
 * keys), or for an encrypted PKCS#8 key the PBES2 or PKCS#12 algorithm. A certificate or a public
 * key holds a sequence or a long integer there, so their bodies (MIID…, MIIBIjAN…) are not keys.
 */
function privateKeyDer(start: string): boolean {
  const der = Buffer.from(start.slice(0, 24), "base64");
  if (der[0] !== 0x30 || der[1]! > 0x82) return false;
  const at = der[1]! < 0x80 ? 2 : 2 + der[1]! - 0x80;
  if (der[at] === 0x02 && der[at + 1] === 0x01 && der[at + 2]! <= 1) return true;
  if (der[at] !== 0x30) return false;
  const algorithm = der.subarray(at + 2, at + 13).toString("hex");
  return algorithm.startsWith("06092a864886f70d01050d") || algorithm.startsWith("060a2a864886f70d010c01");
}

const isBase64Char = (code: number) => isKeyChar(code) && code !== 95 && code !== 45;

/**
 * A key body without its BEGIN line: base64 lines (also with escaped \n, as in a JSON key file)
 * while each before is a full line of 40 or more, and the END line if there is one. At least 60
 * characters (an Ed25519 key is 64): the first bytes alone, quoted in a note, are no key.
 */
function refinePemBody(m: RegExpExecArray, view: string): [number, number] | undefined {
  if (m[0].startsWith("M") && !privateKeyDer(m[0])) return undefined;
  let lineStart = m.index;
  let end = m.index;
  let count = 0;
  for (;;) {
    let at = lineStart;
    while (at < view.length && isBase64Char(view.charCodeAt(at))) at++;
    // A line that goes on with other text after its base64 ("thanks for looking") is words, not more key.
    const ended = at >= view.length || /^(?:\r?\n|\\n|["'`,])/.test(view.slice(at, at + 2));
    if (lineStart > m.index && (!ended || PLAIN_WORD.test(view.slice(lineStart, at)))) break;
    count += at - lineStart;
    end = at;
    let next = at;
    if (view.startsWith("\\n", next)) next += 2;
    else if (view.startsWith("\r\n", next)) next += 2;
    else if (view.startsWith("\n", next)) next += 1;
    else break;
    while (next < view.length && isBlank(view.charCodeAt(next))) next++;
    const footer = PEM_FOOTER.exec(view.slice(next, next + 80));
    if (footer) {
      end = next + footer[0].length;
      break;
    }
    if (at - lineStart < 40) break;
    lineStart = next;
  }
  return count >= 60 ? [m.index, end] : undefined;
}

/** A PuTTY key: its header and every following "Name: value" or base64 line. */
function refineKeyFileLines(m: RegExpExecArray, view: string): [number, number] {
  let end = m.index + m[0].length;
  for (;;) {
    if (view[end] !== "\n") break;
    const next = view.indexOf("\n", end + 1);
    const line = view.slice(end + 1, next < 0 ? view.length : next);
    if (line.length > 200 || !/^(?:[A-Za-z-]{1,40}: ?[^\n]*|[A-Za-z0-9+/=]+)$/.test(line)) break;
    end += 1 + line.length;
  }
  return [m.index, end];
}

// ── passwords ──────────────────────────────────────────────────────────────────────────────

/** Words that follow "password:" or "password is" in ordinary notes without being one. */
const NOT_PASSWORDS = new Set(
  (
    "reset changed change updated update expired expire wrong incorrect correct invalid valid required optional needed " +
    "missing unknown forgotten forgot hidden protected saved stored set same different empty blank none null nil undefined " +
    "true false string text secret private strong weak long short good bad simple hard easy manager managers policy hint " +
    "unchanged locked unlocked disabled enabled sensitive case-sensitive mandatory compromised leaked ok okay fine here there " +
    "below above elsewhere somewhere something nothing written stolen known new old temporary default generated random redacted masked"
  ).split(" "),
);

/** Templates and code, not values: ${X}, <x>, %X%, {{x}}, [x], $X, os.environ[...], getPassword(). */
const NOT_A_VALUE = /^(?:[[<{$%*(]|(?:os|process|env|config|settings|self|this|req|request)\.|getenv)|\(|\[/i;

function passwordValue(raw: string): string {
  return raw.replace(TRAILING, "");
}

function acceptablePassword(value: string): boolean {
  if (value.length < 4 || NOT_A_VALUE.test(value)) return false;
  const lower = value.toLowerCase();
  if (NOT_PASSWORDS.has(lower) || /^(?:x+|\*+|\.+|password\d?|passwd|pass|pwd|secret|changeme|example|test|your[_-]?password|mypassword)$/.test(lower))
    return false;
  return !/^your[_-]|[_-]here$|^replace|^insert/i.test(value);
}

/** A password told in a sentence ("is", "was") is a word unless it has digits, symbols, odd capitals or quotes. */
function unlikeAWord(value: string): boolean {
  return /\d/.test(value) || /[^A-Za-z'’-]/.test(value) || /[a-z][A-Z]/.test(value) || /^[A-Z]{2,}[a-z]/.test(value);
}

/** Small words of a sentence about a password ("the passphrase is on the sticker"), never of a passphrase. */
const SENTENCE_WORDS = new Set(
  (
    "a an the and or but nor so to of in on at by for from with without into onto about as than then that this these those " +
    "it its is are was were be been being has have had do does did not no never my your his her our their me you he she we " +
    "they them us who what which when where how why there here too very also still just only now again already yet ever " +
    "even much more most less least some any all each every both either neither same such other another enough quite " +
    "really rather please see ask check use try must should can could will would may might shall last next ago today " +
    "yesterday tomorrow week month year day days weeks months years time times word words characters letters digits numbers symbols"
  ).split(" "),
);

/**
 * A passphrase of plain words ("correct horse battery staple", also joined by dashes or dots):
 * three to eight words that end the clause, none of a sentence's small words, and at most one
 * word that describes a password (correct, long) and only among four or more.
 */
function plainWordsPhrase(view: string, start: number): [number, number] | undefined {
  const phrase = /^[A-Za-z]{2,20}(?:[ .-][A-Za-z]{2,20}){2,7}(?=[ \t]*(?:[.,;!?)]|\r?\n|$))/.exec(view.slice(start, start + 200));
  if (!phrase) return undefined;
  const words = phrase[0].toLowerCase().split(/[ .-]/);
  if (words.some((word) => SENTENCE_WORDS.has(word))) return undefined;
  const describing = words.filter((word) => NOT_PASSWORDS.has(word)).length;
  return describing === 0 || (describing === 1 && words.length >= 4) ? [start, start + phrase[0].length] : undefined;
}

/** After "password:" a final ! or ? is usually part of it; after "password is" it ends the sentence. */
const TRAILING_AFTER_COLON = /[.,;:)\]}'"`’”>]+$/;

/** The quote that closes each opening one. */
const CLOSING: Record<string, string> = { '"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "「": "」", "«": "»", "„": "“" };

/** A quoted value runs to its closing quote on the same line ("purple monkey dishwasher"), at most 100 characters. */
function quotedValue(view: string, quote: string, start: number): [number, number] | undefined {
  const close = CLOSING[quote];
  if (!close) return undefined;
  const limit = Math.min(view.length, start + 100);
  for (let i = start; i < limit; i++) {
    const char = view[i]!;
    if (char === "\n") return undefined;
    if (char === close) return i - start >= 4 ? [start, i] : undefined;
  }
  return undefined;
}

function refinePassword(m: RegExpExecArray, view: string): [number, number] | undefined {
  const raw = m[4]!;
  const start = m.indices![4]![0];
  const prose = m[2] !== undefined;
  // "pass" alone is a password only before ":" or "=" (DB_PASS=…, pass: …), not in prose, and
  // only a value that is no word: a bus pass: monthly, a boarding pass: seat 12F.
  const barePass = /^pass$/i.test(m[1]!);
  if (barePass && prose) return undefined;
  if (m[3] !== "") {
    const quoted = quotedValue(view, m[3]!, start);
    if (quoted && acceptablePassword(view.slice(quoted[0], quoted[1]))) return quoted;
  }
  // A value alone on the next line ("my wifi password is:" ⏎ "Tr0ub4dor&3") must not read as a word.
  const nextLine = m[0].includes("\n");
  if (!barePass && !nextLine && m[3] === "" && /^[A-Za-z]/.test(raw)) {
    const phrase = plainWordsPhrase(view, start);
    if (phrase) return phrase;
  }
  const value = prose ? passwordValue(raw) : raw.replace(TRAILING_AFTER_COLON, "");
  if (!acceptablePassword(passwordValue(value))) return undefined;
  const quoted = m[3] !== "";
  if ((prose || barePass || nextLine) && !quoted && !unlikeAWord(value)) return undefined;
  return [start, start + value.length];
}

function refinePasswordIntl(m: RegExpExecArray, view: string): [number, number] | undefined {
  const raw = m[3]!;
  const start = m.indices![3]![0];
  if (m[2] !== "") {
    const quoted = quotedValue(view, m[2]!, start);
    if (quoted && acceptablePassword(view.slice(quoted[0], quoted[1]))) return quoted;
  }
  // Cut at a letter the value's characters leave out (oublié, geändert): a word.
  if (/^[^\x00-\x7f]/.test(view.slice(start + raw.length, start + raw.length + 1)) && /[A-Za-z]$/.test(raw)) return undefined;
  const value = m[1] !== undefined ? passwordValue(raw) : raw.replace(TRAILING_AFTER_COLON, "");
  return acceptablePassword(value) && unlikeAWord(value) ? [start, start + value.length] : undefined;
}

function refinePasswordZh(m: RegExpExecArray, view: string): [number, number] | undefined {
  if (m[1] !== "") {
    const start = m.index + m[0].length - (m[2]?.length ?? 0);
    const quoted = quotedValue(view, m[1]!, start);
    if (quoted && acceptablePassword(view.slice(quoted[0], quoted[1]))) return quoted;
  }
  if (m[2] === undefined) return undefined;
  const raw = m[2];
  const value = raw.replace(TRAILING_AFTER_COLON, "");
  return acceptablePassword(passwordValue(value)) ? [m.indices![2]![0], m.indices![2]![0] + value.length] : undefined;
}

function refinePasswordValue(m: RegExpExecArray): [number, number] | undefined {
  const value = decodeURIComponentSafe(m[1]!);
  return acceptablePassword(value) ? span(m) : undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query parameters that carry credentials. */
const SECRET_PARAMS = new Set([
  "key",
  "apikey",
  "api_key",
  "api-key",
  "token",
  "access_token",
  "auth",
  "auth_token",
  "id_token",
  "refresh_token",
  "secret",
  "client_secret",
  "password",
  "passwd",
  "pwd",
  "pass",
  "signature",
  "x-amz-signature",
  "x-goog-signature",
  "private_token",
]);

function refineUrlParam(m: RegExpExecArray): [number, number] | undefined {
  const name = m[1]!.toLowerCase();
  if (!SECRET_PARAMS.has(name)) return undefined;
  const raw = m[2]!;
  const value = passwordValue(raw);
  const start = m.indices![2]![0];
  if (/^(?:password|passwd|pwd|pass)$/.test(name)) return acceptablePassword(decodeURIComponentSafe(value)) ? trimEnd(start, raw) : undefined;
  return looksRandom(value, 16) ? trimEnd(start, raw) : undefined;
}

// ── wallet recovery phrases ────────────────────────────────────────────────────────────────

const BIP39 = new Set(BIP39_ENGLISH);

/** Words that name a recovery phrase when they come just before one ("seed" alone is a gardener's word too). */
const PHRASE_LABEL =
  /(?:seed|recovery|backup|secret|wallet)[ _-]?(?:phrase|words?)|(?:recovery|wallet)[ _-]?seed|mnemonic|\bseed[ \t]*[:=]|助记词|助記詞|恢复词|シードフレーズ|リカバリーフレーズ|復元フレーズ/i;

/**
 * Twelve or more words of the BIP-39 list in a row: a recovery phrase when a label comes just
 * before it, when it is a numbered list from 1, or when the words are all small and one space
 * apart. Most of the list is ordinary English, but prose breaks a run with words it leaves out
 * (the, a, to, and, is) and with punctuation; a list of groceries with commas is no phrase.
 */
function refineRecoveryPhrase(m: RegExpExecArray, view: string): [number, number] | undefined {
  // Twelve words of three letters and the gaps between them: most runs of prose are shorter, and hold no twelve listed words in a row.
  if (m[0].length < 12 * 4 - 1 || longestListedStreak(m[0]) < 12) return undefined;
  const words: { start: number; end: number; listed: boolean }[] = [];
  const word = /[A-Za-z]+/g;
  for (let w = word.exec(m[0]); w !== null; w = word.exec(m[0])) {
    words.push({ start: m.index + w.index, end: m.index + w.index + w[0].length, listed: BIP39.has(w[0].toLowerCase()) });
  }
  let found: [number, number] | undefined;
  for (let first = 0; first < words.length; ) {
    let last = first;
    while (last < words.length && words[last]!.listed) last++;
    // The label's own words may be on the list ("seed phrase: …"): the phrase may start up to three words in.
    for (let from = first; from <= Math.min(first + 3, last - 12); from++) {
      if (isRecoveryPhrase(view, words.slice(from, last))) {
        found = [found?.[0] ?? words[from]!.start, words[last - 1]!.end];
        break;
      }
    }
    first = last + 1;
  }
  return found;
}

function longestListedStreak(run: string): number {
  const word = /[A-Za-z]+/g;
  let longest = 0;
  let streak = 0;
  for (let w = word.exec(run); w !== null; w = word.exec(run)) {
    streak = BIP39.has(w[0].toLowerCase()) ? streak + 1 : 0;
    if (streak > longest) longest = streak;
  }
  return longest;
}

const NUMBERED_GAP = /^[ \t]*(?:\r?\n[ \t]*)?(\d{1,2})[.):]?[ \t]+$/;

function isRecoveryPhrase(view: string, words: readonly { start: number; end: number }[]): boolean {
  const start = words[0]!.start;
  if (PHRASE_LABEL.test(view.slice(Math.max(0, start - 40), start))) return true;
  const gaps = words.slice(1).map((w, i) => view.slice(words[i]!.end, w.start));
  // A numbered list from 1 (1. tent 2. asset …, or one a line).
  if (/(?<!\d)1[.):]?[ \t]*$/.test(view.slice(Math.max(0, start - 6), start)) && gaps.every((gap, i) => Number(NUMBERED_GAP.exec(gap)?.[1]) === i + 2))
    return true;
  return gaps.every((gap) => gap === " ") && words.every((w) => /^[a-z]+$/.test(view.slice(w.start, w.end)));
}

// ── card numbers ───────────────────────────────────────────────────────────────────────────

/** Card numbers are written in fours (Amex and Diners 4-6-5 / 4-6-4; a group may be two fours run together), or all together. */
function cardLayout(sizes: number[]): boolean {
  if (sizes.length === 1) return true;
  const key = sizes.join("-");
  if (key === "4-6-5" || key === "4-6-4") return true;
  const last = sizes.at(-1)!;
  return sizes.slice(0, -1).every((s) => s % 4 === 0) && (last <= 4 || last % 4 === 0);
}

/** The issuer ranges of Visa, Mastercard, Amex, Discover, JCB, Diners and UnionPay, with their lengths. */
function issuedNumber(digits: string): boolean {
  const n = digits.length;
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  const six = Number(digits.slice(0, 6));
  if (digits[0] === "4") return n === 13 || n === 16 || n === 19;
  if (two >= 51 && two <= 55) return n === 16;
  if (four >= 2221 && four <= 2720) return n === 16;
  if (two === 34 || two === 37) return n === 15;
  if (two === 36 || two === 38 || (four >= 3000 && four <= 3059)) return n === 14 || n === 16;
  if (four >= 3528 && four <= 3589) return n >= 16 && n <= 19;
  if (four === 6011 || two === 65 || (six >= 644000 && six <= 649999)) return n >= 16 && n <= 19;
  if (two === 62 || two === 81) return n >= 16 && n <= 19;
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const CARD_WORDS = /(?:card|visa|master ?card|amex|american express|discover|jcb|unionpay|debit|credit|\bcc\b|\bpan\b|卡)[^\n]{0,30}$/i;
const NOT_CARD_WORDS =
  /(?:order|invoice|tracking|ref(?:erence)?|account|acct|iban|isbn|sku|ean|upc|serial|ticket|booking|订单|单号|发票|编号|参考号|流水号|账号)[^\n]{0,25}$/i;
/** An expiry (MM/YY) or a security code after the number. */
const AFTER_CARD =
  /^[ \t,;:/-]{0,6}(?:(?:exp(?:iry|ires|iration)?\.?|valid(?: thru| through)?|有效期(?:至)?)[ \t:]{0,3})?(?:(?:0[1-9]|1[0-2]) ?\/ ?(?:\d{4}|\d{2})(?!\d)|(?:cvv2?|cvc2?|csc|cvn|security code|安全码)[ \t:]{0,3}\d{3,4}(?!\d))/i;

/** A 13–19 digit number that is a card: right layout, issuer and Luhn check, and card context when written all together. */
function refineCard(m: RegExpExecArray, view: string): [number, number] | undefined {
  const parts = m[0].split(/[ ._/-]/);
  if (m[0].length - (parts.length - 1) < 13) return undefined;
  const starts: number[] = [];
  let at = m.index;
  for (const part of parts) {
    starts.push(at);
    at += part.length + 1;
  }
  for (let first = 0; first < parts.length; first++) {
    let digits = "";
    const sizes: number[] = [];
    for (let last = first; last < parts.length; last++) {
      digits += parts[last]!;
      sizes.push(parts[last]!.length);
      if (digits.length > 19) break;
      if (digits.length < 13 || !luhn(digits) || !cardLayout(sizes) || !issuedNumber(digits)) continue;
      const start = starts[first]!;
      let end = starts[last]! + parts[last]!.length;
      const before = view.slice(Math.max(0, start - 40), start);
      const after = AFTER_CARD.exec(view.slice(end, end + 40));
      const next = parts[last + 1];
      const codeAfter = sizes.length === 1 && next !== undefined && /^\d{3,4}$/.test(next) && view[end] === " ";
      if (NOT_CARD_WORDS.test(before) && after === null) continue;
      if (sizes.length === 1 && after === null && !codeAfter && !CARD_WORDS.test(before)) continue;
      if (after) end += after[0].length;
      else if (codeAfter) end = starts[last + 1]! + next.length;
      return [start, end];
    }
  }
  return undefined;
}
