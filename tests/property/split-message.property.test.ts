import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitForDiscord, splitStreaming } from "../../src/discord/split-message.js";
import { RUNS, TIMEOUT } from "./runs.js";

// --- an independent reading of the header comment of split-message.ts ----------------------

interface OpenBlock {
  /** The opening line as written (info string and any "\r" included). */
  opening: string;
  /** The run of ` or ~ that opened it. */
  marker: string;
}

/**
 * The fenced block open after `line` (one line, no "\n") given the one open before it: a run
 * of 3+ ` or ~ after at most three spaces opens a block (a backtick run only when its info
 * string has no backtick); a run of the same mark, at least as long, followed only by
 * spaces, tabs or CR, closes it.
 */
function blockAfterLine(open: OpenBlock | null, line: string): OpenBlock | null {
  let lead = 0;
  while (line[lead] === " ") lead++;
  const mark = line[lead];
  if (lead > 3 || (mark !== "`" && mark !== "~")) return open;
  let run = 0;
  while (line[lead + run] === mark) run++;
  if (run < 3) return open;
  const rest = line.slice(lead + run);
  if (open === null) return mark === "`" && rest.includes("`") ? null : { opening: line, marker: mark.repeat(run) };
  return mark === open.marker[0] && run >= open.marker.length && /^[ \t\r]*$/.test(rest) ? null : open;
}

/** The fenced block open at the end of `text` (its last line may be partial). */
function blockOpenAtEnd(text: string): OpenBlock | null {
  return text.split("\n").reduce(blockAfterLine, null);
}

/** Every block the text opens, to tell whether each can be closed and reopened within the limit. */
function openingsIn(text: string): OpenBlock[] {
  const found: OpenBlock[] = [];
  let open: OpenBlock | null = null;
  for (const line of text.split("\n")) {
    const after = blockAfterLine(open, line);
    if (open === null && after !== null) found.push(after);
    open = after;
  }
  return found;
}

/** "Fence lines take at most half a message": opening line + "\n", then "\n" + marker. */
const reopenable = (block: OpenBlock, limit: number) => block.opening.length + 1 + block.marker.length + 1 <= limit / 2;

const isSeparatorSpace = (char: string | undefined) => char === " " || char === "\t" || char === "\r" || char === "\n";

function spaceRunLength(text: string, from: number): number {
  let end = from;
  while (end < text.length && isSeparatorSpace(text[end])) end++;
  return end - from;
}

/** Where the next chunk's text starts after a cut at `end`, by the separator rule. */
function afterSeparator(text: string, end: number): number {
  const run = text.slice(end, end + spaceRunLength(text, end));
  const lastBreak = run.lastIndexOf("\n");
  return lastBreak === -1 ? end + run.length : end + lastBreak + 1;
}

function contentEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isSeparatorSpace(text[end - 1])) end--;
  return end;
}

/** Lines of the original that open a code block, for telling an added reopening line from text. */
function openingLinesOf(text: string): Set<string> {
  return new Set(text.split("\n").filter((line) => blockAfterLine(null, line) !== null));
}

/**
 * Rejoins chunks by the documented rule, reading the dropped separators back from the
 * original; returns null when they rejoin to it, else why not.
 *
 * What may be stripped: a last line that is a bare fence marker (an added closing line),
 * and then at the start of the next chunk a reopening line + "\n": an opening line of the
 * original "as written up to the cut" (trailing whitespace kept or dropped) with the same
 * marker. A chunk ending in "\n```" may end with the text's own closing fence or an added
 * one; both readings are tried. Whether a fence had to be closed at a cut is left to the
 * balance property: this one is about text.
 */
function whyNotRejoined(chunks: readonly string[], original: string, limit: number): string | null {
  if (contentEnd(original) === 0) return chunks.length === 0 ? null : "blank text gave chunks";
  if (original.length <= limit) return chunks.length === 1 && chunks[0] === original ? null : "text that fits was changed";
  const openings = openingLinesOf(original);
  const isReopening = (line: string, marker: string) =>
    blockAfterLine(null, line)?.marker === marker &&
    (openings.has(line) || [...openings].some((o) => o.startsWith(line) && /^[ \t\r]*$/.test(o.slice(line.length))));
  const leading = original.slice(0, spaceRunLength(original, 0));
  const start = leading.lastIndexOf("\n") + 1;
  let deepest = { index: -1, reason: "no chunks" };

  // Both readings can fit for a while, so remember dead ends: the walk stays polynomial.
  const deadEnds = new Set<string>();
  const walk = (index: number, at: number, closedWith: string | null): boolean => {
    const key = `${index}:${at}:${closedWith ?? ""}`;
    if (deadEnds.has(key)) return false;
    deadEnds.add(key);
    const fail = (reason: string) => {
      if (index >= deepest.index) deepest = { index, reason: `chunk ${index} at offset ${at}: ${reason}` };
      return false;
    };
    const chunk = chunks[index];
    if (chunk === undefined) return fail("ran out of chunks before the end of the text");
    let body = chunk;
    if (closedWith !== null) {
      const firstLine = body.slice(0, Math.max(0, body.indexOf("\n")));
      if (!body.includes("\n") || !isReopening(firstLine, closedWith)) {
        return fail(`does not start by reopening a ${closedWith} block: ${JSON.stringify(body.slice(0, 80))}`);
      }
      body = body.slice(firstLine.length + 1);
    }
    if (index === chunks.length - 1) {
      const rest = original.slice(at, contentEnd(original));
      return body === rest || fail(`last chunk ${JSON.stringify(body.slice(0, 80))}… is not the rest ${JSON.stringify(rest.slice(0, 80))}…`);
    }
    if (isSeparatorSpace(body.at(-1))) return fail("ends in whitespace");
    const readings: { text: string; closed: string | null }[] = [{ text: body, closed: null }];
    const lastBreak = body.lastIndexOf("\n");
    const lastLine = body.slice(lastBreak + 1);
    if (lastBreak !== -1 && /^(?:`{3,}|~{3,})$/.test(lastLine)) readings.push({ text: body.slice(0, lastBreak), closed: lastLine });
    for (const reading of readings) {
      if (reading.text === "" || !original.startsWith(reading.text, at)) continue;
      const next = afterSeparator(original, at + reading.text.length);
      if (next < contentEnd(original) && walk(index + 1, next, reading.closed)) return true;
    }
    return fail(`${JSON.stringify(body.slice(-80))} does not continue the original at this offset`);
  };
  return walk(0, start, null) ? null : deepest.reason;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// --- generated Markdown ------------------------------------------------------------------

const wordArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("the", "model", "answer", "Discord", "a", "I", "`inline`", "**bold**", "_it_", "https://example.com/a?b=c") },
  { weight: 3, arbitrary: fc.constantFrom("你好", "今天天气很好", "代码", "中文没有空格所以一句话可以很长很长") },
  { weight: 2, arbitrary: fc.constantFrom("😀", "👍🏽", "👨‍👩‍👧‍👦", "🇯🇵🇫🇷", "❤️", "e\u0301", "𝒳", "🏳️‍🌈") },
  {
    // Longer than some messages: cut between graphemes.
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom("a", "Z", "汉", "😀", "e\u0301", "👨‍👩‍👧", "🇯🇵", "-", "_"), { minLength: 20, maxLength: 400 })
      .map((parts) => parts.join("")),
  },
);

/** Fence-like runs inside a line are not fences, but would be at the start of a chunk. */
const inlineFenceWordArb = fc.constantFrom("```js", "~~~", "````", "a```b", "x~~~~y");

const lineArb = (words: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.constantFrom("", "", "", "- ", "  ", "    ", "> ", "1. ", "## ", "\t"),
      fc.array(fc.tuple(words, fc.constantFrom(" ", " ", " ", "  ", "\t", " \t ")), { minLength: 1, maxLength: 14 }),
      fc.constantFrom("", "", "", " ", "\r"),
    )
    .map(
      ([prefix, parts, trail]) =>
        prefix +
        parts
          .map(([word, space]) => word + space)
          .join("")
          .trimEnd() +
        trail,
    );

const fenceArb = (words: fc.Arbitrary<string>) =>
  fc
    .record({
      indent: fc.integer({ min: 0, max: 3 }),
      mark: fc.constantFrom("`", "~"),
      length: fc.integer({ min: 3, max: 6 }),
      info: fc.constantFrom("", "", "ts", "python", 'js title="a b"', " 中文 ", "a`b", "diff\r", "x".repeat(40)),
      lines: fc.array(
        fc.oneof(
          { weight: 6, arbitrary: lineArb(words) },
          { weight: 1, arbitrary: fc.constant("") },
          { weight: 1, arbitrary: fc.constantFrom("```", "~~~", "``", "~~~~ x", "```js", "````", "  ~~~", "    ```", "```\r") },
        ),
        { maxLength: 30 },
      ),
      close: fc.option(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom("", "", " ", "\t", "\r")), { freq: 6 }),
    })
    .map(({ indent, mark, length, info, lines, close }) => {
      const opening = " ".repeat(indent) + mark.repeat(length) + info;
      const closing = close === null ? [] : [" ".repeat(close[0]) + mark.repeat(length + close[1]) + close[2]];
      return [opening, ...lines, ...closing].join("\n");
    });

const markdownArb = (words: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.constantFrom("", "", "\n\n", "\n \n", "  "),
      fc.array(
        fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: fc.array(lineArb(words), { minLength: 1, maxLength: 8 }).map((lines) => lines.join("\n")) },
            { weight: 2, arbitrary: fenceArb(words) },
          ),
          fc.constantFrom("\n\n", "\n\n", "\n", "\n\n\n", "\n \n", "\r\n\r\n", "\n\t\n"),
        ),
        { minLength: 1, maxLength: 25 },
      ),
      fc.constantFrom("", "", "\n", "  \n", "\n\n"),
    )
    .map(
      ([lead, blocks, trail]) =>
        lead +
        blocks
          .map(([block, gap]) => block + gap)
          .join("")
          .trimEnd() +
        trail,
    );

/** Mostly small limits (many cuts); sometimes up to Discord's 2000. */
const limitArb = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 40, max: 200 }) }, { weight: 1, arbitrary: fc.integer({ min: 40, max: 2000 }) });

/** Long enough for the limit to matter: the generated text repeated past it. */
const caseArb = (words: fc.Arbitrary<string>) =>
  fc.tuple(markdownArb(words), limitArb, fc.integer({ min: 0, max: 3 })).map(([text, limit, grow]) => {
    let grown = text;
    while (grow > 0 && grown.length < limit * grow) grown += `\n\n${text}`;
    return { text: grown, limit };
  });

/** Words that may be fence-like runs in the middle of a line. */
const proseWithInlineFencesArb = fc.oneof({ weight: 6, arbitrary: wordArb }, { weight: 1, arbitrary: inlineFenceWordArb });

// --- properties ----------------------------------------------------------------------------

/** The first chunk that breaks `rule`, described for the failure message; null if none does. */
function firstBad(chunks: readonly string[], limit: number, broken: (chunk: string, i: number) => string | null): string | null {
  for (const [i, chunk] of chunks.entries()) {
    const problem = broken(chunk, i);
    if (problem !== null) return `chunk ${i} of ${chunks.length} (limit ${limit}) ${problem}: ${JSON.stringify(chunk)}`;
  }
  return null;
}

function checkChunks(text: string, limit: number): void {
  const chunks = splitForDiscord(text, limit);
  const bad = firstBad(chunks, limit, (chunk) =>
    chunk.length > limit ? `is ${chunk.length} long` : chunk.trim() === "" ? "is blank" : LONE_SURROGATE.test(chunk) ? "splits a surrogate pair" : null,
  );
  if (bad !== null) expect.fail(bad);
}

/** Each chunk reads with fences balanced: all but the last close what they open; the last as the text does. */
function checkFences(text: string, limit: number): void {
  // A fence too wide to reopen is documented to be split as plain text.
  fc.pre(openingsIn(text).every((block) => reopenable(block, limit)));
  const chunks = splitForDiscord(text, limit);
  const endsOpen = blockOpenAtEnd(text) !== null;
  const bad = firstBad(chunks, limit, (chunk, i) => {
    const open = blockOpenAtEnd(chunk);
    const expected = i === chunks.length - 1 && endsOpen;
    if ((open !== null) === expected) return null;
    return open === null ? "has no block open at its end, unlike the text" : `leaves ${JSON.stringify(open.opening)} open`;
  });
  if (bad !== null) expect.fail(bad);
}

function checkRejoin(text: string, limit: number): void {
  const chunks = splitForDiscord(text, limit);
  const why = whyNotRejoined(chunks, text, limit);
  if (why !== null) expect.fail(`${why}\nchunks: ${JSON.stringify(chunks)}`);
}

describe("splitForDiscord: properties over generated Markdown", () => {
  it(
    "keeps every chunk within the limit, non-blank and made of whole code points",
    () =>
      fc.assert(
        fc.property(caseArb(proseWithInlineFencesArb), ({ text, limit }) => checkChunks(text, limit)),
        { numRuns: RUNS },
      ),
    TIMEOUT,
  );

  it(
    "balances the code fences in every chunk, fence-like runs inside lines included",
    () =>
      fc.assert(
        fc.property(caseArb(proseWithInlineFencesArb), ({ text, limit }) => checkFences(text, limit)),
        {
          numRuns: RUNS,
          // A bug this found (fixed in the splitter since): a cut just before a fence-like run
          // inside a line made that run start the next chunk, which Discord showed as code.
          examples: [[{ text: `${"x".repeat(35)} \`\`\`js and then some more words\nnext line\n\`\`\`\nend`, limit: 40 }]],
        },
      ),
    TIMEOUT,
  );

  it(
    "loses no text: without the added fence lines, chunks rejoin to the original by the separator rule",
    () =>
      fc.assert(
        fc.property(caseArb(proseWithInlineFencesArb), ({ text, limit }) => checkRejoin(text, limit)),
        { numRuns: RUNS },
      ),
    TIMEOUT,
  );

  it(
    "never changes a done chunk as the text streams in",
    () =>
      fc.assert(
        fc.property(caseArb(proseWithInlineFencesArb), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), ({ text, limit }, cuts) => {
          const full = splitStreaming(text, limit).done;
          for (const cut of cuts) {
            let end = cut % (text.length + 1);
            // Streams grow by whole code points.
            if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
            const partial = splitStreaming(text.slice(0, end), limit).done;
            expect(full.slice(0, partial.length), `prefix of ${end} chars (limit ${limit})`).toEqual(partial);
          }
        }),
        { numRuns: RUNS },
      ),
    TIMEOUT,
  );
});
