import { fenceAfterLine } from "../lib/text.js";
/**
 * Splits a long Markdown answer into chunks that each fit one Discord message.
 *
 * Where a chunk ends: at the last blank line that fits, else line break, else space,
 * but any of these in the second half of the message beats a better kind in the first
 * half. A line break that would leave an empty code block comes next; only a word longer
 * than a message is cut inside, between graphemes. A cut inside a line never leaves
 * either part reading as a fence line: not in a line that starts like a fence, and not
 * where the rest of the line, starting the next chunk, would begin with ``` or ~~~.
 *
 * Separators (what rejoining relies on): a cut falls at the start of a run of
 * whitespace (space, tab, CR, LF) and that run is dropped, except the spaces and tabs
 * after its last line break, which indent the next line and so begin the next chunk.
 * A cut inside an over-long word drops nothing. So every chunk ends in a
 * non-whitespace character. When the text needs more than one chunk, blank lines at
 * its start and whitespace at its end are dropped by the same rule; text that fits is
 * returned unchanged.
 *
 * Code fences (``` or ~~~, indented up to three spaces) that a cut falls inside are
 * closed at the end of the chunk with "\n" + the opening marker and reopened at the
 * start of the next with the opening line + "\n", both counted in the limit. The
 * opening line is reopened as written up to the cut: indentation and info string
 * included, trailing whitespace too unless the cut comes right after it and drops it.
 * A fence whose opening line and marker would take more than half a message is split
 * as plain text instead, and indentation wider than a message is dropped.
 */

/** The most characters Discord accepts in one message's content. */
export const DISCORD_MESSAGE_LIMIT = 2000;

/** Fence lines take at most half a message, so this leaves room for one emoji. */
const MIN_LIMIT = 4;

/** Longest prefix that decides whether a line starts like a fence: 3 spaces + 3 marks. */
const FENCE_PREFIX_LENGTH = 6;

const FENCE_START = /^ {0,3}(?:`{3}|~{3})/;

/** How far back from the end of a message a cut inside a long word looks for graphemes. */
const GRAPHEME_LOOKBACK = 256;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

interface Fence {
  /** The opening line as written, info string included; reopening repeats it. */
  readonly opening: string;
  /** The run of ` or ~ that opened the block; repeating it closes the block. */
  readonly marker: string;
}

interface Line {
  readonly start: number;
  /** Index of the "\n" that ends the line, or the text's length. */
  readonly end: number;
  readonly fenceBefore: Fence | null;
  readonly fenceAfter: Fence | null;
  readonly opensFence: boolean;
  /** Cutting inside such a line could leave half of it reading as a fence. */
  readonly startsLikeFence: boolean;
}

interface Doc {
  readonly text: string;
  readonly limit: number;
  readonly lines: readonly Line[];
}

interface Cut {
  /** Where this chunk's text ends. */
  readonly end: number;
  /** Where the next chunk's text starts, after the dropped separator. */
  readonly next: number;
  /** The fence still open at `end`: closed in this chunk, reopened in the next. */
  readonly fence: Fence | null;
}

/** "fence-edge" is a line break just inside a code block, which leaves an empty block. */
type Boundary = "paragraph" | "line" | "space" | "fence-edge";
const PREFERENCE = ["paragraph", "line", "space"] as const;

/** Splits Markdown into chunks that each fit one Discord message. */
export function splitForDiscord(text: string, limit: number = DISCORD_MESSAGE_LIMIT): string[] {
  if (!Number.isInteger(limit) || limit < MIN_LIMIT) {
    throw new RangeError(`splitForDiscord needs an integer limit of at least ${MIN_LIMIT}, got ${limit}.`);
  }
  const end = contentEnd(text);
  if (end === 0) return [];
  if (text.length <= limit) return [text];

  const doc: Doc = { text, limit, lines: readLines(text) };
  const chunks: string[] = [];
  const leading = runOfSpace(text, 0);
  let start = leading.lineBreaks === 0 ? 0 : leading.lastLineBreak + 1;
  let reopen: Fence | null = null;
  for (;;) {
    const opening = reopen === null ? "" : `${reopen.opening}\n`;
    if (opening.length + end - start <= limit) {
      chunks.push(opening + text.slice(start, end));
      return chunks;
    }
    const cut = findCut(doc, { start, reopen, openingLength: opening.length, last: start + limit - opening.length });
    if (cut === null) {
      // Only indentation wider than a whole message gets here; it cannot be sent.
      const indentEnd = runOfSpace(text, start).end;
      if (indentEnd === start) throw new Error(`splitForDiscord found no cut at ${start}; this is a bug.`);
      start = indentEnd;
      continue;
    }
    const closing = cut.fence === null ? "" : `\n${cut.fence.marker}`;
    chunks.push(opening + text.slice(start, cut.end) + closing);
    start = cut.next;
    reopen = cut.fence;
  }
}

/**
 * Splits what has streamed so far: all chunks but the last are final; the last may still grow.
 *
 * `done` is every chunk of `splitForDiscord(text)` but the last, and appending text never
 * changes it: a chunk is cut only when non-whitespace text lies a message's length past
 * its start, and where it is cut depends only on the text up to that character. This
 * assumes text grows by whole code points, as decoded streams do.
 */
export function splitStreaming(text: string, limit: number = DISCORD_MESSAGE_LIMIT): { done: string[]; current: string } {
  const chunks = splitForDiscord(text, limit);
  return { done: chunks.slice(0, -1), current: chunks.at(-1) ?? "" };
}

/** Where a chunk starts and how far it may reach. */
interface CutWindow {
  readonly start: number;
  /** The fence reopened at the start of the chunk, if any. */
  readonly reopen: Fence | null;
  readonly openingLength: number;
  /** No cut lies beyond this. */
  readonly last: number;
}

function findCut(doc: Doc, window: CutWindow): Cut | null {
  const { start, last } = window;
  const best = new Map<Boundary, Cut>();
  const { text, lines } = doc;
  let lineIndex = lineIndexAt(lines, start);
  for (let at = start + 1; at <= last; at++) {
    if (isSpace(text[at - 1]) || !isSpace(text[at])) continue;
    const run = runOfSpace(text, at);
    while ((lines[lineIndex]?.end ?? Infinity) < at) lineIndex++;
    const line = lines[lineIndex];
    const found = line && cutAtSpace(doc, window, line, at, run);
    if (found && fits(doc, window, found.cut)) best.set(found.boundary, found.cut);
    at = run.end;
  }
  const preferred = PREFERENCE.map((boundary) => best.get(boundary));
  return (
    preferred.find((cut) => cut !== undefined && cut.end - start >= (last - start) / 2) ??
    preferred.find((cut) => cut !== undefined) ??
    best.get("fence-edge") ??
    cutInsideWord(doc, window) ??
    forceCut(doc, window)
  );
}

interface SpaceRun {
  /** Index of the first non-whitespace character after the run, or the text's length. */
  readonly end: number;
  readonly lineBreaks: number;
  readonly lastLineBreak: number;
}

function cutAtSpace(doc: Doc, window: CutWindow, line: Line, at: number, run: SpaceRun): { boundary: Boundary; cut: Cut } | null {
  if (run.lineBreaks === 0) {
    if (startsLikeFence(line, window) || mayStartFence(doc.text, run.end, window.last)) return null;
    return { boundary: "space", cut: { end: at, next: run.end, fence: reopenable(line.fenceBefore, doc.limit) } };
  }
  const fence = line.fenceAfter;
  const indent = run.end - (run.lastLineBreak + 1);
  // Right after an opening fence, or right before what may be the closing one, a cut
  // would send an empty code block.
  const beforeClosing = fence !== null && indent <= 3 && doc.text[run.end] === fence.marker[0];
  const boundary = line.opensFence || beforeClosing ? "fence-edge" : run.lineBreaks >= 2 ? "paragraph" : "line";
  // Right after the opening line, reopen it as this chunk ends it: without trailing spaces.
  const reopen = fence !== null && line.opensFence ? { ...fence, opening: doc.text.slice(line.start, at) } : fence;
  return { boundary, cut: { end: at, next: run.lastLineBreak + 1, fence: reopenable(reopen, doc.limit) } };
}

/** A word longer than a message: cut between graphemes, never inside a fence-like line. */
function cutInsideWord(doc: Doc, window: CutWindow): Cut | null {
  const { text, lines } = doc;
  const { start, last } = window;
  // Segmenting is slow on long strings, so only look back a little: far enough for any
  // real emoji sequence, and to the start of a run of flags (paired from its start).
  let from = Math.max(start, last - GRAPHEME_LOOKBACK);
  if (from > start && splitsSurrogatePair(text, from)) from--;
  while (from - 2 >= start && isRegionalIndicator(text, from - 2)) from -= 2;
  // One character past `last` decides whether `last` itself is a grapheme boundary.
  const segments = graphemes.segment(text.slice(from, Math.min(text.length, last + 2)));
  const boundaries = Array.from(segments, (segment) => from + segment.index);
  // The slice's own start is no boundary of the text unless it is the chunk's start.
  for (let i = boundaries.length - 1; i >= 1; i--) {
    const at = boundaries[i] ?? start;
    if (at > last || isSpace(text[at - 1]) || isSpace(text[at]) || mayStartFence(text, at, last)) continue;
    const line = lines[lineIndexAt(lines, at)];
    // Past the first six characters the line's fence look is settled by text before the cut.
    if (!line || startsLikeFence(line, window) || at - Math.max(line.start, start) < FENCE_PREFIX_LENGTH) continue;
    const cut = { end: at, next: at, fence: reopenable(line.fenceBefore, doc.limit) };
    if (fits(doc, window, cut)) return cut;
  }
  return null;
}

/** Last resort when nothing above applies: any cut that keeps surrogate pairs whole. */
function forceCut(doc: Doc, window: CutWindow): Cut | null {
  const { text, lines } = doc;
  const { start, last } = window;
  let outOfStep: Cut | null = null;
  for (let at = last; at > start; at--) {
    const line = lines[lineIndexAt(lines, at)];
    if (!line || isSpace(text[at - 1]) || splitsSurrogatePair(text, at)) continue;
    const run = runOfSpace(text, at);
    const next = run.lineBreaks === 0 ? run.end : run.lastLineBreak + 1;
    // Inside a line, neither the part left in this chunk nor the part moved to the next
    // should read as a fence, or the chunks disagree with the text about where code is.
    const nextReadsAsFence = run.lineBreaks === 0 && mayStartFence(text, next, last);
    // Such a cut can only be the one kept out of step, and the first is kept: the line's fence
    // is not read again for it (a line of a megabyte of backticks read it at every character).
    if (nextReadsAsFence && outOfStep !== null) continue;
    // The line as this chunk shows it: from the chunk's start if the chunk began inside it.
    const before = line.start < start ? window.reopen : line.fenceBefore;
    const fence = fenceStep(text.slice(Math.max(line.start, start), at), before);
    const cut = { end: at, next, fence: reopenable(fence, doc.limit) };
    if (!fits(doc, window, cut)) continue;
    if (run.lineBreaks > 0 || (fence === before && !nextReadsAsFence)) return cut;
    outOfStep ??= cut;
  }
  return outOfStep;
}

/** A chunk that starts inside a line shows the rest of it, which never starts like a fence. */
function startsLikeFence(line: Line, window: CutWindow): boolean {
  return line.startsLikeFence && line.start >= window.start;
}

function fits(doc: Doc, window: CutWindow, cut: Cut): boolean {
  const closingLength = cut.fence === null ? 0 : 1 + cut.fence.marker.length;
  return window.openingLength + (cut.end - window.start) + closingLength <= doc.limit;
}

function reopenable(fence: Fence | null, limit: number): Fence | null {
  if (fence === null) return null;
  return fence.opening.length + fence.marker.length + 2 <= limit / 2 ? fence : null;
}

/** The fence open after a line: the one before it, a new one the line opens, or none. */
function fenceStep(content: string, before: Fence | null): Fence | null {
  const marker = fenceAfterLine(content, before?.marker ?? null);
  return marker === null ? null : (before ?? { opening: content, marker });
}

function readLines(text: string): Line[] {
  const lines: Line[] = [];
  let fence: Fence | null = null;
  for (let start = 0; ; ) {
    const lineBreak = text.indexOf("\n", start);
    const end = lineBreak === -1 ? text.length : lineBreak;
    const content = text.slice(start, end);
    const fenceBefore = fence;
    fence = fenceStep(content, fenceBefore);
    lines.push({
      start,
      end,
      fenceBefore,
      fenceAfter: fence,
      opensFence: fenceBefore === null && fence !== null,
      startsLikeFence: FENCE_START.test(content),
    });
    if (lineBreak === -1) return lines;
    start = lineBreak + 1;
  }
}

function lineIndexAt(lines: readonly Line[], position: number): number {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lines[middle]?.start ?? Infinity) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

function runOfSpace(text: string, from: number): SpaceRun {
  let end = from;
  let lineBreaks = 0;
  let lastLineBreak = -1;
  for (; end < text.length && isSpace(text[end]); end++) {
    if (text[end] === "\n") {
      lineBreaks++;
      lastLineBreak = end;
    }
  }
  return { end, lineBreaks, lastLineBreak };
}

function contentEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1])) end--;
  return end;
}

/**
 * Whether text at `at`, moved to the start of a line by a cut inside its line, may read
 * as a fence there. Marks running on past `last` count as a fence: text beyond it may not
 * have streamed in yet, and the answer must not change when it does.
 */
function mayStartFence(text: string, at: number, last: number): boolean {
  const mark = text[at];
  if (mark !== "`" && mark !== "~") return false;
  const known = Math.max(at, last);
  let run = 1;
  while (run < 3 && at + run <= known && text[at + run] === mark) run++;
  return run === 3 || at + run > known;
}

function isSpace(char: string | undefined): boolean {
  return char === " " || char === "\n" || char === "\t" || char === "\r";
}

/** Flags are pairs of regional indicators, U+1F1E6 to U+1F1FF. */
function isRegionalIndicator(text: string, at: number): boolean {
  const low = text.charCodeAt(at + 1);
  return text.charCodeAt(at) === 0xd83c && low >= 0xdde6 && low <= 0xddff;
}

function splitsSurrogatePair(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
