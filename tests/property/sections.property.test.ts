import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addToSection, parseSections, removeSection, serializeSections, type SectionDocument } from "../../src/memory/sections.js";
import { RUNS, TIMEOUT } from "./runs.js";

// --- an independent reading of DESIGN.md §1 -----------------------------------------------

/**
 * The marker of the fenced code block open at the end of `text`, or null: ``` or ~~~ (3+),
 * indented up to three spaces; a backtick fence's info string has no backtick; the block
 * closes on a line of the same mark, at least as long, followed only by whitespace.
 */
function openFence(text: string): string | null {
  let open: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/s.exec(line);
    const marker = match?.[1];
    if (open === null) {
      if (marker !== undefined && !(marker.startsWith("`") && (match?.[2] ?? "").includes("`"))) open = marker;
    } else if (marker !== undefined && marker[0] === open[0] && marker.length >= open.length && match?.[2]?.trim() === "") {
      open = null;
    }
  }
  return open;
}

/** A body from its first `###`…`######` heading outside a fence on (CommonMark's ATX rule), or "". */
function fromFirstSubsection(body: string): string {
  const lines = body.split("\n");
  let offset = 0;
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const inCode = openFence(lines.slice(0, i).join("\n")) !== null;
    if (!inCode && /^ {0,3}#{3,6}([ \t]|$)/.test(line)) return body.slice(offset);
    offset += raw.length + 1;
  }
  return "";
}

const describeDoc = (doc: SectionDocument) => JSON.stringify({ preamble: doc.preamble, sections: doc.sections.map((s) => s.heading + s.body) });

// --- generators ---------------------------------------------------------------------------

/** Any UTF-16 code unit, lone surrogates included: files edited by hand can hold anything. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.string({ unit: anyCodeUnit, maxLength: 200 }),
  fc.string({ unit: fc.constantFrom("#", "# ", "## ", "`", "~", " ", "\n", "\r", "\r\n", "a", "中", "😀"), maxLength: 200 }),
);

const SECTION_NAMES = ["Likes", "Notes", "Preferences", "偏好", "🐱 Cats", "A", "a", "Work & School"] as const;

const wordArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("tea", "coffee", "- likes cats", "Mochi", "you are kind", "`code`", "**bold**") },
  { weight: 3, arbitrary: fc.constantFrom("你好世界", "今天天气很好", "😀", "👨‍👩‍👧", "🇯🇵", "e\u0301", "👍🏽") },
  { weight: 2, arbitrary: fc.constantFrom("#", "##", "###", "```", "~~~", "``", "\t", "\r", "  ") },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }) },
);

const plainLineArb = fc.array(wordArb, { maxLength: 6 }).map((words) => words.join(" "));

const headingLineArb = fc
  .tuple(
    fc.constantFrom("## ", "## ", "##  ", "## \t"),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SECTION_NAMES) }, { weight: 1, arbitrary: plainLineArb }),
    fc.constantFrom("", "", " ", "  \t"),
  )
  .map(([mark, name, trail]) => mark + name + trail);

const notAHeadingArb = fc.constantFrom("### Sub", "#### Deeper", "# Title", "##NoSpace", "## ", " ## indented", "##", "\t## tab");

const fenceOpenArb = fc
  .tuple(
    fc.integer({ min: 0, max: 4 }),
    fc.constantFrom("`", "~"),
    fc.integer({ min: 3, max: 5 }),
    fc.constantFrom("", "", "ts", "js title", "a`b", " 中文", "~~~"),
  )
  .map(([indent, mark, length, info]) => " ".repeat(indent) + mark.repeat(length) + info);

const fenceCloseArb = fc
  .tuple(fc.integer({ min: 0, max: 4 }), fc.constantFrom("`", "~"), fc.integer({ min: 2, max: 6 }), fc.constantFrom("", "", " ", "\t", " x"))
  .map(([indent, mark, length, trail]) => " ".repeat(indent) + mark.repeat(length) + trail);

const docLineArb = fc.oneof(
  { weight: 6, arbitrary: plainLineArb },
  { weight: 3, arbitrary: headingLineArb },
  { weight: 1, arbitrary: notAHeadingArb },
  { weight: 2, arbitrary: fenceOpenArb },
  { weight: 2, arbitrary: fenceCloseArb },
  { weight: 2, arbitrary: fc.constant("") },
);

/** A fenced block holding heading-like lines, closed or not. */
const fencedBlockArb = fc
  .tuple(fenceOpenArb, fc.array(fc.oneof(plainLineArb, headingLineArb), { maxLength: 4 }), fc.option(fenceCloseArb, { freq: 4 }))
  .map(([open, lines, close]) => [open, ...lines, ...(close === null ? [] : [close])]);

/** Markdown-like memory files: LF, CRLF or a mix, with or without a final line break. */
const markdownArb = fc
  .tuple(
    fc.array(fc.oneof({ weight: 5, arbitrary: docLineArb.map((line) => [line]) }, { weight: 1, arbitrary: fencedBlockArb }), {
      maxLength: 25,
    }),
    fc.constantFrom("lf", "lf", "crlf", "mixed"),
    fc.boolean(),
    fc.infiniteStream(fc.boolean()),
  )
  .map(([blocks, endings, finalBreak, coin]) => {
    const lines = blocks.flat();
    const eol = () => (endings === "lf" ? "\n" : endings === "crlf" ? "\r\n" : coin.next().value ? "\r\n" : "\n");
    const text = lines.map((line) => line + eol()).join("");
    return finalBreak || lines.length === 0 ? text : text.replace(/\r?\n$/, "");
  });

/** A section name as the tool accepts it: one line, no #, trimmed, not empty. */
const validNameArb = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SECTION_NAMES) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom(" Likes ", "\tNotes", "a  b", "```", "~~~ x", "- item", "中文 名字", "a\u2028b") },
  )
  .map((name) => name.trim())
  .filter((name) => name !== "" && !/[\r\n#]/.test(name));

/** Content without heading lines (a "## x" line in content starts a section by design). */
const contentArb = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 5, arbitrary: plainLineArb },
        { weight: 1, arbitrary: notAHeadingArb },
        { weight: 1, arbitrary: fenceOpenArb },
        { weight: 1, arbitrary: fenceCloseArb },
      ),
      { minLength: 1, maxLength: 6 },
    ),
    fc.constantFrom("\n", "\r\n"),
    fc.constantFrom("", "\n", "  \n\n", "\r\n"),
    fc.constantFrom("", "", " ", "\n"),
  )
  .map(([lines, eol, trail, lead]) => lead + lines.map((line) => (line.startsWith("## ") ? `- ${line}` : line)).join(eol) + trail)
  .filter((content) => content.trim() !== "");

/** What a reader finds again: the content trimmed, with the file's line endings. */
const normalised = (content: string, doc: SectionDocument) => {
  const eol = serializeSections(doc).includes("\r\n") ? "\r\n" : "\n";
  return content.trim().replace(/\r?\n/g, eol);
};

// --- properties ---------------------------------------------------------------------------

describe("sections: parse then serialise", () => {
  it(
    "gives back the same bytes for any string, lone surrogates included",
    () => {
      fc.assert(
        fc.property(anyString, (text) => {
          expect(serializeSections(parseSections(text))).toBe(text);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "gives back the same bytes for Markdown-like files (headings, fences, CRLF, emoji, Chinese)",
    () => {
      fc.assert(
        fc.property(markdownArb, (text) => {
          expect(serializeSections(parseSections(text))).toBe(text);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

/** An add's target; `existing` picks one of the file's own section names. */
type Target = string | { existing: number };

const targetArb: fc.Arbitrary<Target> = fc.oneof(
  validNameArb,
  fc.nat().map((existing) => ({ existing })),
);

/** The name to add under, or null when the picked heading is not a name the tool accepts. */
function resolve(doc: SectionDocument, target: Target): string | null {
  if (typeof target === "string") return target;
  const name = doc.sections[target.existing % Math.max(1, doc.sections.length)]?.name.trim();
  return name && !/[\r\n#]/.test(name) ? name : null;
}

const whole = (section: { heading: string; body: string } | undefined) => (section ? section.heading + section.body : undefined);

/**
 * What a part before a new section may gain: blank lines, and the closing line of a fence
 * the file left open (else the new heading would be code).
 */
function checkGrown(before: string, after: string | undefined, where: string): void {
  expect(after?.startsWith(before), `${where}: the old text is not kept`).toBe(true);
  const added = (after ?? "").slice(before.length).trim();
  expect(added === "" || added === openFence(before), `${where}: gained ${JSON.stringify(added)}`).toBe(true);
}

/**
 * After an add succeeds, the reparsed file has a section of that name holding the content;
 * every other section keeps its bytes, but for what the last part gains before a new section.
 */
function checkAdd(text: string, target: Target, content: string): void {
  const doc = parseSections(text);
  const name = resolve(doc, target);
  fc.pre(name !== null);
  const edit = addToSection(doc, name, content);
  if (!edit.ok) {
    // Only duplicates of the name may refuse an add.
    expect(doc.sections.filter((s) => s.name === name).length, edit.error).toBeGreaterThan(1);
    return;
  }
  const written = serializeSections(edit.value.doc);
  const reparsed = parseSections(written);
  const shown = describeDoc(reparsed);
  const wanted = normalised(content, doc);
  const holders = reparsed.sections.filter((s) => s.name === name && s.body.includes(wanted));
  expect(holders.length, `no section "${name}" holding ${JSON.stringify(wanted)} in ${shown}`).toBeGreaterThan(0);

  const isNew = !doc.sections.some((s) => s.name === name);
  if (!isNew && edit.value.changed) {
    // The section's `###` subsections stay last, whole: the content ends the section's own text.
    const index = doc.sections.findIndex((s) => s.name === name);
    const subsections = fromFirstSubsection(doc.sections[index]!.body);
    const body = reparsed.sections[index]?.body ?? "";
    expect(body.endsWith(subsections), `subsections of "${name}" not kept last in ${shown}`).toBe(true);
    expect(body.slice(0, body.length - subsections.length).includes(wanted), `content not before the subsections in ${shown}`).toBe(true);
  }
  expect(reparsed.sections.length, `section count changed: ${shown}`).toBe(doc.sections.length + (isNew ? 1 : 0));
  doc.sections.forEach((before, i) => {
    if (before.name === name) return;
    const after = whole(reparsed.sections[i]);
    if (isNew && i === doc.sections.length - 1) checkGrown(whole(before)!, after, `last section in ${shown}`);
    else expect(after, `section ${i} changed: ${shown}`).toBe(whole(before));
  });
  if (isNew && doc.sections.length === 0) checkGrown(doc.preamble, reparsed.preamble, `preamble in ${shown}`);
  else expect(reparsed.preamble, `preamble changed: ${shown}`).toBe(doc.preamble);
}

describe("sections: addToSection", () => {
  it(
    "leaves a section of that name holding the content, and every other section as it was",
    () =>
      fc.assert(fc.property(markdownArb, targetArb, contentArb, checkAdd), {
        numRuns: RUNS,
        // Bugs these found (fixed in 506bbb2): a new section after an unclosed fence was read
        // as code; U+2028 in a name broke its heading; content was glued to a heading that
        // ended the file; content opening a fence swallowed every later section.
        examples: [
          ["intro\n```\ncode\n", "Likes", "- tea"],
          ["", "a\u2028b", "x"],
          ["## Likes", { existing: 0 }, "- tea"],
          ["## A\nx\n## B\ny\n", "A", "```"],
          ["## A\nx\n\n### Sub\ny\n## B\n", "A", "- z"],
          ["## A\n```\n### code\n```\n### Sub\n", "A", "- z"],
        ],
      }),
    TIMEOUT,
  );
});

describe("sections: removeSection", () => {
  it(
    "removes a unique section and leaves the preamble and every other section byte for byte",
    () =>
      fc.assert(
        fc.property(markdownArb, fc.nat(), (text, pick) => {
          const doc = parseSections(text);
          const unique = doc.sections.filter((s) => doc.sections.filter((t) => t.name === s.name).length === 1);
          const target = unique[pick % Math.max(1, unique.length)];
          fc.pre(target !== undefined);
          const edit = removeSection(doc, target.name);
          expect(edit.ok, edit.ok ? "" : edit.error).toBe(true);
          if (!edit.ok) return;
          const reparsed = parseSections(serializeSections(edit.value.doc));
          expect(reparsed.sections.map((s) => s.name)).not.toContain(target.name);
          expect(reparsed.preamble).toBe(doc.preamble);
          expect(reparsed.sections.map(whole)).toEqual(doc.sections.filter((s) => s !== target).map(whole));
        }),
        // A bug this found (fixed in 506bbb2): "## \tLikes" was read as "\tLikes", which no lookup matched.
        { numRuns: RUNS, examples: [["## \tLikes\n", 0]] },
      ),
    TIMEOUT,
  );
});
