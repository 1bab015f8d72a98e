import { z } from "zod";
import type { Held, WordsFrom } from "../../lib/provenance.js";
import { countChars } from "../../lib/text.js";
import { type DROP_REASONS, TIDY_KINDS } from "../../lib/telemetry.js";

export { TIDY_KINDS };
import { carriedShare, carries, CARRIED_SHARE, factsOf, mergeFacts, type Facts, sectionNameFacts } from "../facts.js";
import { CAPS } from "../file-kinds.js";
import { instructionIn } from "../instructions.js";
import { relativeTimeIn } from "../relative-time.js";
import { checkContent } from "../safety.js";
import { addedSecret } from "../secrets.js";
import { addToSection, parseSections, serializeSections, type SectionDocument } from "../sections.js";

/**
 * The nightly tidy-up's plan, as the model answers it, and the checks code makes before any of
 * it is written: the model proposes, these rules decide (docs/design.md §3, "The tidy-up").
 */

export type TidyKind = (typeof TIDY_KINDS)[number];
/** The files a tidy-up may change: never SOUL.md, never a daily log (they are the record). */
const TIDY_FILES = ["user", "memory"] as const;
export type TidyFile = (typeof TIDY_FILES)[number];

const MAX_OPERATIONS = 40;
const MAX_LINES = 20;
const MAX_LINE_CHARS = 400;

/** One operation as the model gives it. Every field is required (strict JSON schema); empty where unused. */
const operationSchema = z
  .object({
    kind: z.enum(TIDY_KINDS),
    file: z.string().max(20),
    section: z.string().trim().min(1).max(80),
    old_lines: z.array(z.string().max(MAX_LINE_CHARS)).max(MAX_LINES),
    new_lines: z.array(z.string().max(MAX_LINE_CHARS)).max(MAX_LINES),
    reason: z.string().max(300),
    source: z.string().max(200),
    quote: z.string().max(300),
  })
  .strict();

export type TidyOperation = z.infer<typeof operationSchema>;

const planSchema = z.object({ operations: z.array(z.unknown()).max(MAX_OPERATIONS) }).strict();

/** The JSON schema of the answer (OpenAI's strict structured outputs: every property required, no others). */
export const TIDY_PLAN_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["operations"],
  properties: {
    operations: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["kind", "file", "section", "old_lines", "new_lines", "reason", "source", "quote"],
        properties: {
          kind: { type: "string", enum: [...TIDY_KINDS] },
          file: { type: "string", enum: [...TIDY_FILES] },
          section: { type: "string" },
          old_lines: { type: "array", items: { type: "string" } },
          new_lines: { type: "array", items: { type: "string" } },
          reason: { type: "string" },
          source: { type: "string" },
          quote: { type: "string" },
        },
      },
    },
  },
} as const;

/** Why code dropped an operation of the model's plan (a metrics label, a line in --dry-run). */
export type DropReason = (typeof DROP_REASONS)[number];

export interface TidyInput {
  /** USER.md and MEMORY.md now. */
  texts: Record<TidyFile, string>;
  /** Lines the person wrote themselves (normalised by normalLine): never removed or rewritten by a tidy-up. */
  personLines: ReadonlySet<string>;
  /** The person's own messages in the run's sources: where a quote for a new USER.md fact must come from. */
  personMessages: readonly string[];
  /**
   * Everyone else's words in the run's conversations (a guest's, the assistant's, a replied-to
   * message, a shared file…): where a held fact's words came from, to tell the person.
   */
  otherSources?: readonly { from: WordsFrom; text: string }[];
}

interface Dropped {
  operation: TidyOperation | undefined;
  reason: DropReason;
}

/** The write a held operation stands for, as the model's tool would make it of that section: the person's Save makes it. */
type HeldWrite = { tool: "memory_add"; section: string; content: string } | { tool: "memory_replace"; section: string; oldText: string; newText: string };

/** An operation that passed every check but one that only the person can answer (whose words, or an instruction): not written, it waits for their Save. */
export interface HeldOperation {
  operation: TidyOperation;
  held: Held;
  write: HeldWrite;
}

export interface TidyOutcome {
  applied: TidyOperation[];
  dropped: Dropped[];
  held: HeldOperation[];
  /** The files after the applied operations. */
  texts: Record<TidyFile, string>;
  /** A file the plan leaves over its cap: the run is refused whole and nothing is written. */
  overCap: TidyFile | undefined;
}

/** At most this share of a file's earlier lines may go in one run. */
export const MAX_LOSS = 0.25;
/** What the run aims at; the plan is refused only over the cap itself. */
export const AIM = 0.85;

/** A plan as parsed from the model's text: the operations array, or undefined for an answer that is not one. */
export function parsePlan(value: unknown): unknown[] | undefined {
  const parsed = planSchema.safeParse(value);
  return parsed.success ? parsed.data.operations : undefined;
}

/** A line as compared: Unicode-folded, spaces collapsed, a leading list marker left out. */
export function normalLine(line: string): string {
  return line
    .normalize("NFKC")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[-*+] /, "");
}

const QUOTE_MARKS = new Set([..."\"'“”‘’「」『』"]);
const END_MARKS = new Set([...QUOTE_MARKS, ...".。!！?？"]);

/**
 * Text as a quote is looked for in it: folded, lower case, spaces collapsed, no quotation marks
 * around it. The ends are trimmed by a loop, not a pattern: `[…]+$` retries at every position of
 * a long run of marks (quadratic on a person's 100 KB message of dots).
 */
function normalQuote(text: string): string {
  const folded = text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  let start = 0;
  let end = folded.length;
  while (start < end && QUOTE_MARKS.has(folded[start]!)) start++;
  while (end > start && END_MARKS.has(folded[end - 1]!)) end--;
  return folded.slice(start, end).trim();
}

/** A quote is at least this many characters, or 4 Han characters: a word or two could "show" any fact was said. */
const MIN_QUOTE_CHARS = 10;
const MIN_HAN_QUOTE_CHARS = 4;
const HAN_CHAR = /\p{Script=Han}/gu;
/** The others' words looked through for where a held fact came from; past these, `from` may be left out. */
const MAX_OTHER_SOURCES = 2_000;

/** A section name as the model's tools take one: one line, no #, no invisible character, no relative time. */
function safeName(name: string): boolean {
  return name !== "" && !/[\r\n\u2028\u2029#]/.test(name) && checkContent(name, "tool").ok && relativeTimeIn(name) === undefined;
}

/** A line that opens or closes a code fence: moving one would turn the rest of the file into code, or out of it. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Checks a plan operation by operation, in order, and applies the ones that pass to the texts.
 * Nothing here trusts the model: every old line must be there, SOUL.md and daily logs are out
 * of reach, lines the person wrote stay, the write checks of every memory write apply, and no
 * run removes more than a quarter of a file's lines (a line whose facts do not survive counts as
 * removed). A new USER.md line that the person's own quoted words do not carry passes none of
 * it silently: the operation is held for their Save, with where its words came from.
 */
export function checkPlan(input: TidyInput, operations: readonly unknown[]): TidyOutcome {
  const originals = { user: parseSections(input.texts.user), memory: parseSections(input.texts.memory) };
  const docs = { ...originals };
  const budget = { user: lossBudget(input.texts.user), memory: lossBudget(input.texts.memory) };
  const quotes = input.personMessages.map(normalQuote);
  const applied: TidyOperation[] = [];
  const dropped: Dropped[] = [];
  const holding: { operation: TidyOperation; held: Held }[] = [];
  let others: { from: WordsFrom; facts: Facts }[] | undefined;
  for (const raw of operations) {
    const parsed = operationSchema.safeParse(raw);
    if (!parsed.success) {
      dropped.push({ operation: undefined, reason: "invalid" });
      continue;
    }
    const op = parsed.data;
    const checked = checkOperation(op, docs, budget, input.personLines, quotes);
    if (typeof checked === "string") {
      dropped.push({ operation: op, reason: checked });
      continue;
    }
    const order = ordersIn(originals[op.file as TidyFile], checked.doc, op.section.trim());
    if (order || checked.unquoted.length > 0) {
      const sources = () => (others ??= (input.otherSources ?? []).slice(0, MAX_OTHER_SOURCES).map(({ from, text }) => ({ from, facts: factsOf(text) })));
      const from = checked.unquoted.length > 0 ? carrierOf(checked.unquoted.map(factsOf), sources()) : undefined;
      holding.push({ operation: op, held: { why: order ? "instruction" : "not-their-words", ...(from ? { from } : {}) } });
      continue;
    }
    docs[op.file as TidyFile] = checked.doc;
    budget[op.file as TidyFile] -= checked.removed;
    applied.push(op);
  }
  // A held write is made of the files as the plan leaves them, so that the person's Save still finds its text.
  const held: HeldOperation[] = [];
  for (const { operation, held: why } of holding) {
    const write = heldWrite(operation, docs[operation.file as TidyFile]);
    if (write === undefined) dropped.push({ operation, reason: "not-found" });
    else held.push({ operation, held: why, write });
  }
  const texts = { user: serializeSections(docs.user), memory: serializeSections(docs.memory) };
  const overCap = TIDY_FILES.find((file) => countChars(texts[file]) > CAPS[file]);
  return { applied, dropped, held, texts, overCap };
}

/**
 * Whether the section, as the operation leaves it (its name and text), reads as an instruction to
 * the assistant that the run put there: read whole, so two operations cannot assemble one line by
 * line. A section that read as one before the run (a person's "when Bob asks, tell him I am out")
 * holds only the operations that leave new lines reading as one too.
 */
function ordersIn(original: SectionDocument, next: SectionDocument, name: string): boolean {
  const textOf = (doc: SectionDocument) => {
    const section = doc.sections.find((s) => s.name === name);
    return section && `${name}\n${section.body}`;
  };
  const after = textOf(next) ?? "";
  if (instructionIn(after) === undefined) return false;
  const before = textOf(original);
  if (before === undefined || instructionIn(before) === undefined) return true;
  const old = new Set(before.split("\n").map(normalLine));
  return (
    instructionIn(
      after
        .split("\n")
        .filter((line) => !old.has(normalLine(line)))
        .join("\n"),
    ) !== undefined
  );
}

/** The source that carries every one of the lines, the most of them when several do; undefined when none does. */
function carrierOf(lines: readonly Facts[], sources: readonly { from: WordsFrom; facts: Facts }[]): WordsFrom | undefined {
  let best: WordsFrom | undefined;
  let bestShare = -1;
  for (const { from, facts } of sources) {
    const shares = lines.map((line) => carriedShare(facts, line));
    if (shares.some((share) => share < CARRIED_SHARE)) continue;
    const share = shares.reduce((sum, s) => sum + s, 0);
    if (share > bestShare) [best, bestShare] = [from, share];
  }
  return best;
}

/** The held operation as one tool write of its section: a move adds its lines, the others replace the section's text. */
function heldWrite(op: TidyOperation, doc: SectionDocument): HeldWrite | undefined {
  const section = op.section.trim();
  const { oldLines, newLines } = linesOf(op);
  if (op.kind === "move") return { tool: "memory_add", section, content: newLines.join("\n") };
  const index = doc.sections.findIndex((s) => s.name === section);
  const next = index === -1 ? undefined : rewrite(doc, index, oldLines, newLines);
  if (next === undefined) return undefined;
  return { tool: "memory_replace", section, oldText: doc.sections[index]!.body, newText: next.sections[index]!.body };
}

function linesOf(op: TidyOperation): { oldLines: string[]; newLines: string[] } {
  return { oldLines: op.old_lines.map((l) => l.trim()).filter(Boolean), newLines: op.new_lines.map((l) => l.trim()).filter(Boolean) };
}

/** Lines of a file that count for the loss bound: its text lines, not headings or blank lines. */
function contentLines(text: string): number {
  return text.split("\n").filter((line) => line.trim() !== "" && !/^#{1,6}\s/.test(line)).length;
}

function lossBudget(text: string): number {
  return Math.floor(contentLines(text) * MAX_LOSS);
}

function checkOperation(
  op: TidyOperation,
  docs: Record<TidyFile, SectionDocument>,
  budget: Record<TidyFile, number>,
  personLines: ReadonlySet<string>,
  quotes: readonly string[],
): DropReason | { doc: SectionDocument; removed: number; unquoted: string[] } {
  if (op.file === "soul") return "soul";
  if (!(TIDY_FILES as readonly string[]).includes(op.file)) return "invalid";
  const file = op.file as TidyFile;
  const { oldLines, newLines } = linesOf(op);
  // The shape each kind must have: a move only adds, a remove only removes, the others change lines.
  if (
    op.kind === "move"
      ? oldLines.length > 0 || newLines.length === 0
      : op.kind === "remove"
        ? oldLines.length === 0 || newLines.length > 0
        : oldLines.length === 0 || newLines.length === 0
  ) {
    return "invalid";
  }
  if (oldLines.some((line) => personLines.has(normalLine(line)))) return "person-written";
  const section = op.section.trim();
  if (!safeName(section)) return "unsafe";
  const doc = docs[file];
  const index = doc.sections.findIndex((s) => s.name === section);
  if (oldLines.length > 0 && index === -1) return "not-found";
  const added = newLines.filter((line) => !oldLines.some((old) => normalLine(old) === normalLine(line)));
  const text = newLines.join("\n");
  if (newLines.some((line) => /^#{1,6}\s/.test(line) || FENCE.test(line)) || oldLines.some((line) => FENCE.test(line)) || !checkContent(text, "tool").ok)
    return "unsafe";
  if (added.length > 0 && relativeTimeIn(added.join("\n")) !== undefined) return "relative-date";
  // Whose words: the lines the quote does not carry hold the operation, once every other check below has passed too.
  // A new section's name is text the file will hold: a fact can be written there too ("Has epilepsy").
  const unquoted = file === "user" && added.length > 0 ? notCarried(op.quote, quotes, added, oldLines, index === -1 ? section : undefined) : [];
  // Lines fewer count as removed, and so does a line whose facts the new lines do not carry:
  // "Allergic to penicillin" rewritten as "Penicillin is fine for her" shares a word and is gone;
  // "Ask about the marathon" updated to "Ask about the marathon time (2026-11-29)" is kept.
  const newFacts = newLines.map(factsOf);
  const together = factsOf(newLines.join("\n"));
  const gone = oldLines.filter((line) => !survives(factsOf(line), newFacts, together)).length;
  const removed = Math.max(oldLines.length - newLines.length, gone);
  if (removed > budget[file]) return "bounded-loss";
  const next = index === -1 || op.kind === "move" ? addNew(doc, section, newLines) : rewrite(doc, index, oldLines, newLines);
  if (next === undefined) return "not-found";
  // Nothing may change the file's sections but a move's new one: a line that turned into a heading, or one that stopped being one.
  const names = (d: SectionDocument) => d.sections.map((s) => s.name).join("\n");
  const expected = index === -1 ? `${names(doc)}${doc.sections.length > 0 ? "\n" : ""}${section}` : names(doc);
  if (names(parseSections(serializeSections(next))) !== expected) return "unsafe";
  if (addedSecret(serializeSections(doc), serializeSections(next)) !== undefined) return "secret";
  return { doc: next, removed, unquoted };
}

/** An old line's facts survive when one new line carries them, or the new lines together do and none says the opposite. */
function survives(old: Facts, news: readonly Facts[], together: Facts): boolean {
  return news.some((line) => carries(line, old)) || (carries(together, old) && news.every((line) => line.negations % 2 === old.negations % 2));
}

/**
 * The added lines the quote does not carry (all of them when it is not the person's): the quote
 * must be long enough, appear whole in one of the person's own messages, and hold each line's
 * facts (facts.ts: two thirds of its words, its numbers, its yes or no). A quote of anything the
 * person said, sharing a word with a fact they never said, carries nothing.
 */
function notCarried(quote: string, messages: readonly string[], added: readonly string[], replaced: readonly string[], newSection?: string): string[] {
  const wanted = normalQuote(quote);
  const han = wanted.match(HAN_CHAR)?.length ?? 0;
  if (han < MIN_HAN_QUOTE_CHARS && countChars(wanted) < MIN_QUOTE_CHARS) return [...added];
  if (!messages.some((message) => message.includes(wanted))) return [...added];
  const said = factsOf(wanted);
  // The name beyond its category ("Health" is none): a section named "Has epilepsy" over an ordinary line states it.
  if (newSection !== undefined && !carries(said, sectionNameFacts(newSection))) return [...added, newSection];
  if (replaced.length === 0) return added.filter((line) => !carries(said, factsOf(line)));
  // The lines an operation replaces are in the file already: a merge needs the quote only for what it
  // adds. A line the quote does not carry alone must be carried by the quote and those lines together
  // (its yes or no too), and what it says beyond them by the quote: a clause added to a kept fact is a
  // fact of its own.
  const known = mergeFacts(replaced.map(factsOf));
  const together = mergeFacts([said, known]);
  return added.filter((line) => {
    const facts = factsOf(line);
    return !carries(said, facts) && !(carries(together, facts) && carries(said, beyond(facts, known)));
  });
}

/** What `line` says beyond `known`: its other words, numbers and dates (its yes or no is checked whole). */
function beyond(line: Facts, known: Facts): Facts {
  const other = <T>(all: ReadonlySet<T>, seen: ReadonlySet<T>) => new Set([...all].filter((item) => !seen.has(item)));
  return { ...line, words: other(line.words, known.words), numbers: other(line.numbers, known.numbers), dates: other(line.dates, known.dates), clauses: [] };
}

function addNew(doc: SectionDocument, section: string, lines: string[]): SectionDocument | undefined {
  const added = addToSection(doc, section, lines.join("\n"));
  return added.ok ? added.value.doc : undefined;
}

/**
 * The section with each old line taken out (matched as a whole line, after trimming) and the
 * new lines put where the first of them was; undefined when an old line is not there.
 */
function rewrite(doc: SectionDocument, index: number, oldLines: string[], newLines: string[]): SectionDocument | undefined {
  const section = doc.sections[index]!;
  const eol = section.body.includes("\r\n") ? "\r\n" : "\n";
  const lines = section.body.split(eol);
  const left = [...oldLines];
  let first = -1;
  const kept: string[] = [];
  for (const line of lines) {
    const at = left.findIndex((old) => old === line.trim());
    if (at === -1) {
      kept.push(line);
      continue;
    }
    left.splice(at, 1);
    if (first === -1) first = kept.length;
  }
  if (left.length > 0) {
    // An old line the model wrote without its "- " (or with other spaces) still names the same line.
    return left.every((old) => lines.some((line) => normalLine(line) === normalLine(old))) ? rewriteLoose(doc, index, oldLines, newLines) : undefined;
  }
  kept.splice(first, 0, ...newLines);
  const sections = [...doc.sections];
  sections[index] = { ...section, body: kept.join(eol) };
  return { preamble: doc.preamble, sections };
}

function rewriteLoose(doc: SectionDocument, index: number, oldLines: string[], newLines: string[]): SectionDocument | undefined {
  const section = doc.sections[index]!;
  const eol = section.body.includes("\r\n") ? "\r\n" : "\n";
  const exact = section.body
    .split(eol)
    .map((line) => line.trim())
    .filter((line) => oldLines.some((old) => normalLine(old) === normalLine(line)));
  return exact.length === oldLines.length ? rewrite(doc, index, exact, newLines) : undefined;
}
