/**
 * Decides whether text is safe to store in memory or inject into the system prompt.
 * Memory is data written partly from conversation (DESIGN.md §2), so the model's writes
 * are held to more than a person's own edits.
 */

/** "tool": writes by the model (control characters AND injection phrases are refused).
 *  "person": a person's own edits (control characters only).
 *  "persona": SOUL.md at injection time: control characters and tags of our own prompt blocks,
 *  which persona text never needs but which would let the file close its block. */
export type SafetyLevel = "tool" | "person" | "persona";
export type SafetyVerdict = { ok: true } | { ok: false; reason: string };

export function checkContent(text: string, level: SafetyLevel): SafetyVerdict {
  const control = CONTROL.exec(text);
  if (control) {
    const at = [...text.slice(0, control.index)].length + 1;
    return { ok: false, reason: `contains an invisible or bidirectional control character: ${nameOf(control[0])} at character ${at}` };
  }
  if (level === "persona") {
    const tag = PROMPT_TAGS.exec(text);
    if (tag) return { ok: false, reason: `contains a tag of the system prompt's own blocks: "${quote(tag[0])}"` };
  }
  if (level === "tool") {
    // NFKC folds look-alike spellings such as full-width "ＩＧＮＯＲＥ" into the words the patterns know.
    const folded = text.normalize("NFKC");
    for (const pattern of INJECTION) {
      const found = pattern.exec(folded);
      if (found) return { ok: false, reason: `contains a prompt-injection phrase: "${quote(found[0])}"` };
    }
  }
  return { ok: true };
}

/** The text without the control characters checkContent refuses (for model text we keep anyway, like summaries). */
/**
 * What the model sees instead of blocked text. It names the kind of problem only: quoting an
 * injection phrase would inject it.
 */
export function blockedNotice(reason: string): string {
  const control = /U\+[0-9A-F]{4,5}[A-Z -]*/.exec(reason);
  return `[blocked: ${control ? `invisible or control character ${control[0].trim()}` : "possible prompt injection"}; see /memory view]`;
}

export function stripControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL.source, "gu"), "");
}

// Invisible formatting, bidi controls, C0/C1 controls (not tab, LF, CR), line/paragraph separators,
// tag characters; and a zero-width joiner unless it joins two emoji (👨‍👩‍👧, 🏳️‍🌈, 👩🏽‍💻).
const CONTROL = new RegExp(
  String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200C\u200E\u200F` +
    String.raw`\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]` +
    String.raw`|(?<!\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D|\u200D(?!\p{Extended_Pictographic})`,
  "u",
);

const CONTROL_NAMES: Record<number, string> = {
  0x00: "NULL", 0x08: "BACKSPACE", 0x1b: "ESCAPE", 0x7f: "DELETE", 0xad: "SOFT HYPHEN",
  0x061c: "ARABIC LETTER MARK", 0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE", 0x200c: "ZERO WIDTH NON-JOINER", 0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK", 0x200f: "RIGHT-TO-LEFT MARK",
  0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR",
  0x202a: "LEFT-TO-RIGHT EMBEDDING", 0x202b: "RIGHT-TO-LEFT EMBEDDING", 0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE", 0x202e: "RIGHT-TO-LEFT OVERRIDE", 0x2060: "WORD JOINER",
  0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE", 0xfeff: "ZERO WIDTH NO-BREAK SPACE",
};

function nameOf(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  const name = CONTROL_NAMES[code] ?? (code >= 0xe0000 ? "TAG CHARACTER" : undefined);
  return name === undefined ? hex : `${hex} ${name}`;
}

/** Single line, no angle brackets (the reason is itself shown in the prompt), about 60 chars. */
function quote(found: string): string {
  const text = found.replace(/\s+/gu, " ").replace(/^[\s.!?:;。！？：；]+/u, "").trim();
  const safe = text.replaceAll("<", "‹").replaceAll(">", "›");
  const chars = [...safe];
  return chars.length <= 60 ? safe : `${chars.slice(0, 59).join("")}…`;
}

/**
 * Case-insensitive, multi-line pattern in which a space stands for a run of whitespace or
 * punctuation and "~" for an optional one. Every repeat is bounded, so matching stays linear.
 */
const phrase = (source: string): RegExp =>
  new RegExp(source.replaceAll(" ", String.raw`[\s\p{P}]{1,6}`).replaceAll("~", String.raw`[\s\p{P}]{0,6}`), "imu");

const VERB = "(?:ignore|disregard|forget|override|bypass)";
const EARLIER = "(?:previous|prior|above|earlier|preceding|original|initial)";
const RULES = "(?:instructions?|rules|prompts?|directions|directives|guidelines|guardrails|restrictions|system prompt)";
const REVEAL = "(?:reveal|print|show|display|repeat|leak|output|dump|expose|disclose|recite|tell|give|send|share|paste|write out|what (?:is|are|s|was|were))";
const CN_EARLIER = "(?:之前|以上|前面|上面|先前|此前|所有|全部|你的|原来|原有)";

// Our own prompt blocks (opening or closing, any case), a <system> tag, chat-template tokens.
const PROMPT_TAGS = phrase(
  String.raw`<~/?~(?:agent[\s_-]?identity|user[\s_-]?profile|agent[\s_-]?notes|recent[\s_-]?activity)\b|<~/?~system(?:[\s_-]?prompt)?~>|<\|[a-z_]{1,40}\|>`,
);

const INJECTION: readonly RegExp[] = [
  // Override earlier instructions: needs an "earlier" word, or all/any/your, so "ignore the typo" passes.
  phrase(String.raw`\b${VERB} (?:(?:all|any|the|your|of|these|those) ){0,3}${EARLIER} ${RULES}\b`),
  phrase(String.raw`\b${VERB} (?:your|all|any) (?:(?:of|the|your|these|those) ){0,2}(?:${EARLIER} )?${RULES}\b`),
  phrase(String.raw`\b${VERB} (?:the |your )?(?:system (?:prompt|message)|guardrails|safety (?:rules|guidelines|filters?))\b`),
  phrase(String.raw`\b(?:ignore|disregard|forget) (?:(?:all|everything|anything|the|of) ){0,2}(?:above|before this|you (?:were|have been|ve been) told)\b`),
  // Role switch: "you are now DAN / in developer mode / no longer bound …", not "You are Mochi".
  phrase(String.raw`\b(?:you (?:are|re) now|you will now be|from now on you (?:are|re|will be)) (?:(?:in|a|an|the|operating in|entering) ){0,2}` +
    String.raw`(?:DAN|developer mode|dev mode|jailbroken|jailbreak mode|god mode|unrestricted|unfiltered|uncensored|free from|no longer (?:bound|restricted|limited|an ai|an assistant|required)|not bound)\b`),
  // Mode switch given as a command (sentence start or "please"), so "how to enable developer mode" passes.
  phrase(String.raw`(?:^|[.!?:;]|\bplease\b)~(?:enable|activate|enter|turn on|switch (?:on|to)|unlock) (?:the )?(?:developer|dev|DAN|jailbreak|god|unrestricted) mode\b`),
  // No-restrictions role play.
  phrase(String.raw`\b(?:act|behave|respond|answer|pretend|operate)(?: as if| as though| like)? (?:that )?you (?:have|had|are|were) (?:no|zero|without|free (?:of|from)|not bound by) (?:any )?` +
    String.raw`(?:restrictions|rules|limits|limitations|filters|guidelines|boundaries|censorship|content polic(?:y|ies)|ethical guidelines|safety guidelines)\b`),
  PROMPT_TAGS,
  // A replacement system prompt.
  phrase(String.raw`\b(?:new|updated|revised|real|actual|true) system (?:prompt|message|instructions)\b|\bsystem (?:prompt|message)~[:：]`),
  // Requests to reveal the prompt or secrets; compounds like "API key rotation" or "password reset" pass.
  phrase(String.raw`\b${REVEAL} (?:(?:me|us|all|the|your|of|back|out|verbatim|exactly|full|entire|whole|complete|contents?|text) ){0,4}` +
    String.raw`(?:system (?:prompt|message|instructions)|(?:hidden|secret|internal|initial|original|developer) (?:prompt|instructions|rules)|your (?:instructions|prompt|rules|guidelines|directives|config(?:uration)?)` +
    String.raw`|(?:(?:openai|discord|anthropic) )?(?:api|secret|private|access) keys?|(?:access|auth|api|bot|bearer|discord|session) tokens?|(?:your|the) token|(?:your|the|all|any) (?:passwords?|secrets|credentials)` +
    String.raw`|environment variables|\.env)\b(?!~(?:reset|rotation|manager|policy|strength|field|feature|generator|change|requirements|flow|form|page|usage|limit|count))`),
  // Chinese: ignore / disregard / forget the earlier instructions (bare 规则/提示 need a qualifier: "忽略提示" can mean a hint).
  phrase(String.raw`(?:忽略|无视)~(?:${CN_EARLIER}~的?~(?:所有|全部)?~(?:指令|指示|规则|提示词?|设定|命令|限制)|(?:系统)?(?:指令|指示)|系统提示词?)`),
  phrase(String.raw`忘记~(?:之前|以上|前面|所有|你之前|你)~的?~(?:所有)?~(?:指令|指示|规则|设定|提示词?|身份)`),
  // Chinese: reveal the system prompt, instructions or secrets.
  phrase(String.raw`(?:泄露|泄漏|透露|显示|输出|打印|展示|告诉我|给我看|发给我|重复)~(?:一下|出)?~(?:你的)?~` +
    String.raw`(?:系统提示词?|系统指令|系统消息|初始指令|隐藏的?(?:提示词?|指令)|你的(?:指令|提示词|规则|设定)|密钥|API~key|密码|令牌)`),
  // Chinese: role and mode switch ("进入开发者模式" only as a command), and a replacement system prompt.
  phrase(String.raw`你现在(?:是|处于|已经?进入了?|进入了?)~(?:一个|一位)?~(?:不受(?:任何)?限制|没有(?:任何)?限制|无限制|DAN|开发者模式|越狱)`),
  phrase(String.raw`(?:(?:^|[。！？!?.：:；;])~(?:现在|立即|立刻|马上)?|请)~(?:进入|开启|启用|打开)~(?:开发者|DAN|越狱|无限制)~模式`),
  phrase(String.raw`新的?~系统~(?:提示词|(?:提示|指令|消息)(?=~[:：]))|系统提示词~[:：]`),
];
