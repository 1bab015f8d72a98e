import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DISCORD_MESSAGE_LIMIT, splitForDiscord, splitStreaming } from "../../../src/discord/split-message.js";

// --- an independent reading of the rules, used as the oracle ---------------------------

interface OpenFence {
  opening: string;
  marker: string;
}

/** The fenced block still open at the end of `markdown` (CommonMark fence rules), if any. */
function openFenceAtEnd(markdown: string): OpenFence | null {
  let open: OpenFence | null = null;
  for (const line of markdown.split("\n")) {
    if (open === null) {
      const match = /^ {0,3}(`{3,}|~{3,})(.*)$/s.exec(line);
      const marker = match?.[1];
      const info = match?.[2] ?? "";
      if (marker !== undefined && !(marker.startsWith("`") && info.includes("`"))) open = { opening: line, marker };
    } else {
      const marker = /^ {0,3}(`{3,}|~{3,})[ \t\r]*$/.exec(line)?.[1];
      if (marker !== undefined && marker[0] === open.marker[0] && marker.length >= open.marker.length) open = null;
    }
  }
  return open;
}

const SPACE_RUN = /[ \t\r\n]*/y;

function spaceRunAt(text: string, from: number): string {
  SPACE_RUN.lastIndex = from;
  return SPACE_RUN.exec(text)?.[0] ?? "";
}

const throughLastLineBreak = (run: string): string => run.slice(0, run.lastIndexOf("\n") + 1);

/**
 * Undoes splitForDiscord by its documented rule. It strips the fence lines the splitter
 * added (a closing last line when a fence is open before it, then a reopening first line
 * in the next chunk: the opening line as the text shows it up to the cut) and puts back
 * what was dropped, read from `original` where the previous chunk ended: at a cut, the
 * whitespace run there up to and including its last line break, or the whole run if it
 * has none (an empty run is a cut inside a word); blank lines before the first chunk;
 * whitespace after the last.
 */
function rejoin(chunks: readonly string[], original: string): string {
  if (chunks.length === 1 && chunks[0] === original) return original;
  return rejoinFrom(chunks, 0, throughLastLineBreak(spaceRunAt(original, 0)), null, original);
}

/**
 * A chunk ending in "\n```" may end with the block's own closing fence or with one the
 * splitter added; only the chunks after it tell which, so both readings are tried.
 */
function rejoinFrom(chunks: readonly string[], index: number, text: string, reopened: OpenFence | null, original: string): string {
  const chunk = chunks[index];
  if (chunk === undefined) {
    const rest = original.slice(text.length);
    return /^[ \t\r\n]*$/.test(rest) ? text + rest : text;
  }
  let body = chunk;
  if (reopened !== null && body.startsWith(`${reopened.opening}\n`)) body = body.slice(reopened.opening.length + 1);
  const readings: { body: string; closed: OpenFence | null }[] = [{ body, closed: null }];
  const lastLine = body.lastIndexOf("\n");
  const closed = lastLine === -1 ? null : openFenceAtEnd(text + body.slice(0, lastLine));
  if (closed !== null && body.slice(lastLine + 1) === closed.marker) {
    readings.push({ body: body.slice(0, lastLine), closed });
  }

  let attempt = `${text}⟨chunk ${index} does not continue the original⟩`;
  for (const reading of readings.filter((reading) => original.startsWith(reading.body, text.length))) {
    let next = text + reading.body;
    if (index < chunks.length - 1) {
      const run = spaceRunAt(original, next.length);
      next += run.includes("\n") ? throughLastLineBreak(run) : run;
    }
    attempt = rejoinFrom(chunks, index + 1, next, reading.closed, original);
    if (attempt === original) break;
  }
  return attempt;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const words = (count: number, word = "word"): string => Array.from({ length: count }, (_, i) => `${word}${i % 10}`).join(" ");

/** About 4,500 characters: a paragraph, a TypeScript block too long for one message, a paragraph. */
function answerWithCode(): { intro: string; outro: string; text: string } {
  const intro = words(170, "intro"); // 1,189 characters
  const code = Array.from({ length: 70 }, (_, i) => `  const value${i} = compute(${i});`).join("\n");
  const outro = words(165, "outro");
  return { intro, outro, text: `${intro}\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${outro}` };
}

// --- generated Markdown ------------------------------------------------------------------

const wordArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("the", "model", "answer", "Discord", "x", "a", "`code`", "**bold**") },
  { weight: 3, arbitrary: fc.constantFrom("你好世界", "今天天气很好", "代码", "中文没有空格所以很长的一句话") },
  { weight: 2, arbitrary: fc.constantFrom("😀", "👍🏽", "👨‍👩‍👧", "🇯🇵🇫🇷", "❤️", "e\u0301") },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom("a", "汉", "😀", "e\u0301", "👨‍👩‍👧", "🇯🇵"), { minLength: 10, maxLength: 90 }).map((parts) => parts.join("")),
  },
);

/** Fence marks inside a line are text; a cut must not move them to the start of a line. */
const laterWordArb = fc.oneof({ weight: 8, arbitrary: wordArb }, { weight: 1, arbitrary: fc.constantFrom("```js", "~~~", "a```b", "````", "~~strike~~") });

const lineArb = fc
  .tuple(
    fc.constantFrom("", "", "", "- ", "  ", "    ", "> ", "1. "),
    wordArb,
    fc.array(fc.tuple(fc.constantFrom(" ", " ", " ", "  ", "\t"), laterWordArb), { maxLength: 13 }),
  )
  .map(([prefix, first, rest]) => prefix + first + rest.map(([space, word]) => space + word).join(""));

const paragraphArb = fc.array(lineArb, { minLength: 1, maxLength: 6 }).map((lines) => lines.join("\n"));

const codeBlockArb = fc
  .record({
    indent: fc.integer({ min: 0, max: 3 }),
    char: fc.constantFrom("`", "~"),
    length: fc.integer({ min: 3, max: 5 }),
    info: fc.constantFrom("", "ts", "python", "js title", "ts  "),
    lines: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: lineArb },
        { weight: 1, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: fc.constantFrom("```", "~~~", "``", "~~~~ x", "```js", "````", "  ~~~") },
      ),
      { maxLength: 12 },
    ),
    closeIndent: fc.integer({ min: 0, max: 3 }),
    closeExtra: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ indent, char, length, info, lines, closeIndent, closeExtra }) => {
    const opening = " ".repeat(indent) + char.repeat(length) + info;
    // Content that would close the block early is indented into plain code instead.
    const closes = (line: string) => openFenceAtEnd(`${opening}\n${line}`) === null;
    const content = lines.map((line) => (closes(line) ? `    ${line}` : line));
    const closing = " ".repeat(closeIndent) + char.repeat(length + closeExtra);
    return [opening, ...content, closing].join("\n");
  });

const markdownArb = fc
  .tuple(
    fc.constantFrom("", "", "\n\n", "\n \n"),
    fc.array(
      fc.tuple(
        fc.oneof({ weight: 3, arbitrary: paragraphArb }, { weight: 2, arbitrary: codeBlockArb }),
        fc.constantFrom("\n\n", "\n\n", "\n", "\n\n\n", "\n \n"),
      ),
      { minLength: 1, maxLength: 10 },
    ),
    fc.constantFrom("", "", "\n", "  \n"),
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

const limitArb = fc.integer({ min: 50, max: 200 });

// --- tests -------------------------------------------------------------------------------

describe("splitForDiscord: text that fits", () => {
  it("returns nothing for empty or whitespace-only text (Discord refuses blank messages)", () => {
    expect(splitForDiscord("")).toEqual([]);
    expect(splitForDiscord(" \n\t\r\n ")).toEqual([]);
    expect(splitForDiscord(`\n${" ".repeat(5000)}\n`)).toEqual([]);
  });

  it("returns short text as one chunk, unchanged, whitespace included", () => {
    const text = "\n  Hello **there** 👋\n\n```ts\nconst x = 1;\n```\n";
    expect(splitForDiscord(text)).toEqual([text]);
  });

  it("keeps exactly 2000 characters in one message and splits at 2001", () => {
    expect(DISCORD_MESSAGE_LIMIT).toBe(2000);
    expect(splitForDiscord("x".repeat(2000))).toEqual(["x".repeat(2000)]);
    expect(splitForDiscord("x".repeat(2001))).toEqual(["x".repeat(2000), "x"]);
  });

  it("uses a space at exactly the limit, dropping it", () => {
    expect(splitForDiscord(`${"a".repeat(2000)} b`)).toEqual(["a".repeat(2000), "b"]);
  });

  it("rejects a limit too small to make progress", () => {
    for (const limit of [0, 3, 2.5, Number.NaN]) expect(() => splitForDiscord("hello", limit)).toThrow(RangeError);
  });
});

describe("splitForDiscord: where it cuts", () => {
  it("prefers a paragraph break to a later line break", () => {
    const first = words(10, "alpha"); // 69 characters
    const text = `${first}\n\nbeta one\nbeta two\nbeta three\nbeta four`;
    expect(splitForDiscord(text, 100)).toEqual([first, "beta one\nbeta two\nbeta three\nbeta four"]);
  });

  it("prefers a line break to a later space", () => {
    const first = words(10, "alpha");
    const text = `${first}\n${words(10, "beta")}`;
    expect(splitForDiscord(text, 100)).toEqual([first, words(10, "beta")]);
  });

  it("prefers a space to cutting a word", () => {
    const text = `${"a".repeat(60)} ${"b".repeat(60)}`;
    expect(splitForDiscord(text, 100)).toEqual(["a".repeat(60), "b".repeat(60)]);
  });

  it("prefers a line break in the second half of the message to a paragraph break in the first", () => {
    const text = `Sure!\n\n${words(8, "gamma")}\n${words(8, "delta")}`;
    const chunks = splitForDiscord(text, 100);
    expect(chunks[0]).toBe(`Sure!\n\n${words(8, "gamma")}`);
    expect(chunks).toHaveLength(2);
  });

  it("cuts a 5,000-character line without spaces into full messages", () => {
    const text = "abcdefghij".repeat(500);
    const chunks = splitForDiscord(text);
    expect(chunks.map((chunk) => chunk.length)).toEqual([2000, 2000, 1000]);
    expect(chunks.join("")).toBe(text);
  });

  it("never cuts an emoji in half", () => {
    const text = `a${"😀".repeat(2500)}`;
    const chunks = splitForDiscord(text);
    expect(chunks[0]).toHaveLength(1999);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(2000);
      expect(chunk).not.toMatch(LONE_SURROGATE);
    }
    expect(chunks.join("")).toBe(text);
  });

  it("keeps surrogate pairs whole even in one grapheme longer than a message", () => {
    const text = `a${"😀\u200d".repeat(1500)}`; // zero-width joiners make it a single grapheme
    const chunks = splitForDiscord(text);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk).not.toMatch(LONE_SURROGATE);
    expect(chunks.join("")).toBe(text);
  });

  it("keeps emoji sequences, flags and combining accents whole", () => {
    for (const grapheme of ["👨‍👩‍👧‍👦", "🇯🇵", "e\u0301", "👍🏽"]) {
      const text = `x${grapheme.repeat(300)}`;
      const chunks = splitForDiscord(text, 97);
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks.join("")).toBe(text);
      for (const chunk of chunks.slice(1)) expect(chunk.replaceAll(grapheme, "")).toBe("");
    }
  });
});

describe("splitForDiscord: code fences", () => {
  it("splits a 4,500-character answer with a code block into three balanced messages", () => {
    const { intro, outro, text } = answerWithCode();
    expect(text.length).toBeGreaterThan(4400);
    expect(text.length).toBeLessThan(4600);

    const chunks = splitForDiscord(text);
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toBe(intro);
    expect(chunks[1]).toMatch(/^```ts\n {2}const value0 = compute\(0\);\n[^]*\n```$/);
    expect(chunks[2]).toMatch(/^```ts\n {2}const value\d+ = compute\(\d+\);\n/);
    expect(chunks[2]?.endsWith(`\`\`\`\n\n${outro}`)).toBe(true);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(2000);
      expect(openFenceAtEnd(chunk)).toBeNull();
    }
    expect(rejoin(chunks, text)).toBe(text);
  });

  it("closes and reopens ~~~ fences with their own marker and info string", () => {
    const code = Array.from({ length: 12 }, (_, i) => `print(${i})`).join("\n");
    const text = `~~~python\n${code}\n~~~`;
    const chunks = splitForDiscord(text, 60);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.slice(0, -1).every((chunk) => chunk.endsWith("\n~~~"))).toBe(true);
    expect(chunks.slice(1).every((chunk) => chunk.startsWith("~~~python\n"))).toBe(true);
    expect(rejoin(chunks, text)).toBe(text);
  });

  it("does not treat ``` inside a ~~~ block, or a shorter run of the same mark, as its end", () => {
    const inside = Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? "```" : `line ${i} of the example`));
    const fences = [
      ["~~~md", "~~~"],
      ["````md", "````"],
    ] as const;
    for (const [opening, closing] of fences) {
      const text = `${opening}\n${inside.join("\n")}\n${closing}\n\nafter`;
      const chunks = splitForDiscord(text, 70);
      expect(chunks.length).toBeGreaterThan(2);
      for (const chunk of chunks.slice(0, -1)) expect(chunk.endsWith(`\n${closing}`)).toBe(true);
      for (const chunk of chunks.slice(1)) expect(chunk.startsWith(`${opening}\n`)).toBe(true);
      for (const chunk of chunks) expect(openFenceAtEnd(chunk)).toBeNull();
      expect(rejoin(chunks, text)).toBe(text);
    }
  });

  it("never moves ``` from the middle of a line to the start of the next message", () => {
    const text = "alpha beta gamma delta ```javascript-sample and more words after it";
    const chunks = splitForDiscord(text, 30);
    expect(chunks[0]).toBe("alpha beta gamma");
    for (const chunk of chunks) expect(openFenceAtEnd(chunk)).toBeNull();
    expect(rejoin(chunks, text)).toBe(text);
  });

  it("keeps balanced fences when a line that only looks like a fence is longer than a message", () => {
    // Not a fence: the "info string" holds a backtick.
    const text = `\`\`\`js ${"https://example.com/a?b=c ".repeat(3)}\`inline\` code\nafter`;
    const chunks = splitForDiscord(text, 40);
    for (const chunk of chunks) expect(openFenceAtEnd(chunk)).toBeNull();
    expect(chunks.join("").replaceAll(/\s/g, "")).toBe(text.replaceAll(/\s/g, ""));
  });

  it("reopens an indented fence with the same indentation", () => {
    const text = `  \`\`\`js\n${Array.from({ length: 10 }, (_, i) => `  call(${i});`).join("\n")}\n  \`\`\``;
    const chunks = splitForDiscord(text, 50);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.slice(1).every((chunk) => chunk.startsWith("  ```js\n  call("))).toBe(true);
    expect(rejoin(chunks, text)).toBe(text);
  });

  it("never sends an empty code block by cutting just after an opening or before a closing fence", () => {
    const text = `Intro line.\n\`\`\`ts\n${Array.from({ length: 8 }, (_, i) => `f(${i});`).join("\n")}\n\`\`\`\nOutro.`;
    for (let limit = 20; limit <= 80; limit++) {
      for (const chunk of splitForDiscord(text, limit)) {
        expect(chunk).not.toMatch(/```ts\n```/);
        expect(chunk.length).toBeLessThanOrEqual(limit);
      }
    }
  });
});

describe("splitForDiscord: separators", () => {
  it("drops the blank line it cuts at but keeps the next line's indentation", () => {
    const text = `${words(6)}\n\n   \n    indented code`;
    expect(splitForDiscord(text, 40)).toEqual([words(6), "    indented code"]);
  });

  it("drops the whole run of spaces it cuts at", () => {
    expect(splitForDiscord(`${"a".repeat(30)} \t  ${"b".repeat(30)}`, 40)).toEqual(["a".repeat(30), "b".repeat(30)]);
  });

  it("drops blank lines at the start and whitespace at the end once the text needs splitting", () => {
    const text = `\n\n  ${words(6)}\n${words(6)}  \n\n`;
    expect(splitForDiscord(text, 40)).toEqual([`  ${words(6)}`, words(6)]);
  });
});

describe("splitStreaming", () => {
  it("keeps text that fits as the current message", () => {
    expect(splitStreaming("Hel")).toEqual({ done: [], current: "Hel" });
    expect(splitStreaming("")).toEqual({ done: [], current: "" });
  });

  it("returns every chunk but the last as done", () => {
    const text = words(600);
    const chunks = splitForDiscord(text);
    expect(splitStreaming(text)).toEqual({ done: chunks.slice(0, -1), current: chunks.at(-1) });
  });

  it("closes a still-open code block in done messages and reopens it in the current one", () => {
    const text = `\`\`\`ts\n${Array.from({ length: 300 }, (_, i) => `const v${i} = ${i};`).join("\n")}`;
    const { done, current } = splitStreaming(text);
    expect(done.length).toBeGreaterThan(1);
    for (const chunk of done) expect(openFenceAtEnd(chunk)).toBeNull();
    expect(current.startsWith("```ts\n")).toBe(true);
  });

  it("never changes a sent message while an answer streams in, and ends with the full split", () => {
    const { text } = answerWithCode();
    let sent: string[] = [];
    for (let end = 0; end <= text.length; end += 7) {
      const { done } = splitStreaming(text.slice(0, end));
      expect(done.slice(0, sent.length)).toEqual(sent);
      sent = done;
    }
    const { done, current } = splitStreaming(text);
    expect([...done, current]).toEqual(splitForDiscord(text));
  });
});

describe("splitForDiscord: properties over generated Markdown", () => {
  const forAllMarkdown = (check: (text: string, limit: number) => void) => () => fc.assert(fc.property(markdownArb, limitArb, check), { numRuns: 300 });

  it(
    "keeps every chunk within the limit, non-blank, and whole code points",
    forAllMarkdown((text, limit) => {
      const chunks = splitForDiscord(text, limit);
      for (const chunk of chunks) {
        expect(chunk.length).toBeLessThanOrEqual(limit);
        expect(chunk.trim()).not.toBe("");
        expect(chunk).not.toMatch(LONE_SURROGATE);
        if (chunks.length > 1) expect(chunk).toMatch(/[^ \t\r\n]$/);
      }
    }),
  );

  it(
    "balances the fences in every chunk",
    forAllMarkdown((text, limit) => {
      for (const chunk of splitForDiscord(text, limit)) expect(openFenceAtEnd(chunk)).toBeNull();
    }),
  );

  it(
    "loses no text: rejoining by the separator rule gives back the original",
    forAllMarkdown((text, limit) => {
      expect(rejoin(splitForDiscord(text, limit), text)).toBe(text);
    }),
  );

  it("never changes a done chunk as more text streams in", () => {
    fc.assert(
      fc.property(markdownArb, limitArb, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (text, limit, cuts) => {
        const ends = cuts
          .map((cut) => cut % (text.length + 1))
          // A stream grows by whole code points.
          .map((end) => (/[\uD800-\uDBFF]/.test(text.charAt(end - 1)) ? end - 1 : end))
          .sort((a, b) => a - b);
        let previous: string[] = [];
        for (const end of [...ends, text.length]) {
          const { done } = splitStreaming(text.slice(0, end), limit);
          expect(done.slice(0, previous.length)).toEqual(previous);
          previous = done;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("splitForDiscord: speed", () => {
  it("splits 100 KB in well under 100 ms, prose and code or one long unspaced run", () => {
    splitForDiscord("warm up 😀".repeat(300));
    const block = `${words(40)}\n${words(30)}\n\n\`\`\`ts\n${"const x = 1;\n".repeat(20)}\`\`\`\n\n`;
    const prose = block.repeat(Math.ceil(100_000 / block.length)).slice(0, 100_000);
    const unspaced = "今天天气很好😀".repeat(20_000).slice(0, 100_000);
    for (const text of [prose, unspaced]) {
      const started = performance.now();
      const chunks = splitForDiscord(text);
      expect(performance.now() - started).toBeLessThan(100);
      expect(rejoin(chunks, text)).toBe(text);
    }
  });
});
