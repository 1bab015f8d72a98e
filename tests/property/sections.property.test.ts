import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addToSection,
  parseSections,
  removeSection,
  serializeSections,
  type SectionDocument,
} from "../../src/memory/sections.js";
import { RUNS, TIMEOUT } from "./runs.js";

// --- an independent reading of DESIGN.md §1 -----------------------------------------------

/**
 * Whether `text` ends inside a fenced code block: ``` or ~~~ (3+), indented up to three
 * spaces; a backtick fence's info string has no backtick; the block closes on a line of
 * the same mark, at least as long, followed only by whitespace.
 */
function endsInsideFence(text: string): boolean {
  let open: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    const marker = match?.[1];
    if (open === null) {
      if (marker !== undefined && !(marker.startsWith("`") && (match?.[2] ?? "").includes("`"))) open = marker;
    } else if (marker !== undefined && marker[0] === open[0] && marker.length >= open.length && match?.[2]?.trim() === "") {
      open = null;
    }
  }
  return open !== null;
}

const describeDoc = (doc: SectionDocument) =>
  JSON.stringify({ preamble: doc.preamble, sections: doc.sections.map((s) => s.heading + s.body) });

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
  .tuple(
    fc.integer({ min: 0, max: 4 }),
    fc.constantFrom("`", "~"),
    fc.integer({ min: 2, max: 6 }),
    fc.constantFrom("", "", " ", "\t", " x"),
  )
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
  .tuple(
    fenceOpenArb,
    fc.array(fc.oneof(plainLineArb, headingLineArb), { maxLength: 4 }),
    fc.option(fenceCloseArb, { freq: 4 }),
  )
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
const lineTerminators = /[\r\n\u2028\u2029]/;
const validNameArb = (withLineSeparators: boolean) =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...SECTION_NAMES) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 30 }) },
      { weight: 1, arbitrary: fc.constantFrom(" Likes ", "\tNotes", "a  b", "```", "~~~ x", "- item", "中文 名字") },
    )
    .map((name) => name.trim())
    .filter((name) => name !== "" && !/[\r\n#]/.test(name) && (withLineSeparators || !lineTerminators.test(name)));

/** Content without heading lines (a "## x" line in content starts a section by design). */
const contentArb = fc
    .tuple(
      fc.array(fc.oneof({ weight: 5, arbitrary: plainLineArb }, { weight: 1, arbitrary: notAHeadingArb }, { weight: 1, arbitrary: fenceOpenArb }, { weight: 1, arbitrary: fenceCloseArb }), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.constantFrom("\n", "\r\n"),
      fc.constantFrom("", "\n", "  \n\n", "\r\n"),
      fc.constantFrom("", "", " ", "\n"),
    )
    .map(([lines, eol, trail, lead]) => lead + lines.map((line) => (line.startsWith("## ") ? `- ${line}` : line)).join(eol) + trail)
    .filter((content) => content.trim() !== "");

/** Content as the file will hold it: trailing whitespace dropped, line endings the file's own. */
const asWritten = (content: string, doc: SectionDocument) => {
  const eol = serializeSections(doc).includes("\r\n") ? "\r\n" : "\n";
  return content.trimEnd().replace(/\r?\n/g, eol);
};

/** What a reader finds again: the content trimmed, with the file's line endings. */
const normalised = (content: string, doc: SectionDocument) => asWritten(content, doc).trim();

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

/** An add's arguments; `existing` picks one of the file's own section names. */
type Target = string | { existing: number };

const targetArb = (withLineSeparators: boolean): fc.Arbitrary<Target> =>
  fc.oneof(validNameArb(withLineSeparators), fc.nat().map((existing) => ({ existing })));

/** The name to add under, or null when the picked heading is not a name the tool accepts. */
function resolve(doc: SectionDocument, target: Target): string | null {
  if (typeof target === "string") return target;
  const name = doc.sections[target.existing % Math.max(1, doc.sections.length)]?.name.trim();
  return name && !/[\r\n#\u2028\u2029]/.test(name) ? name : null;
}

/** The known bugs (see the it.fails below) an add with these arguments would run into. */
type AddBug = "new-section-in-open-fence" | "line-separator-in-name" | "heading-without-line-break" | "content-opens-fence";

function addBugs(doc: SectionDocument, name: string, content: string): Set<AddBug> {
  const bugs = new Set<AddBug>();
  const matches = doc.sections.filter((s) => s.name === name);
  const target = matches.length === 1 ? matches[0] : undefined;
  const isLast = target !== undefined && target === doc.sections.at(-1);
  if (matches.length === 0 && endsInsideFence(serializeSections(doc))) bugs.add("new-section-in-open-fence");
  if (/[\u2028\u2029]/.test(name)) bugs.add("line-separator-in-name");
  if (isLast && !target.heading.endsWith("\n")) bugs.add("heading-without-line-break");
  if (target !== undefined && !isLast && endsInsideFence(asWritten(content, doc))) bugs.add("content-opens-fence");
  return bugs;
}

/** Checks what an add must leave behind; throws with the reparsed file when it is not so. */
function checkAdd(doc: SectionDocument, name: string, content: string, othersUnchanged: boolean): void {
  const edit = addToSection(doc, name, content);
  if (!edit.ok) {
    // Only duplicates of the name may refuse an add.
    expect(doc.sections.filter((s) => s.name === name).length, edit.error).toBeGreaterThan(1);
    return;
  }
  const written = serializeSections(edit.value.doc);
  const reparsed = parseSections(written);
  const wanted = normalised(content, doc);
  const holders = reparsed.sections.filter((s) => s.name === name && s.body.includes(wanted));
  expect(holders.length, `no section "${name}" holding ${JSON.stringify(wanted)} in ${JSON.stringify(written)}`).toBeGreaterThan(0);
  if (!othersUnchanged) return;

  const isNew = !doc.sections.some((s) => s.name === name);
  const whole = (s: { heading: string; body: string } | undefined) => (s === undefined ? undefined : s.heading + s.body);
  expect(reparsed.sections.length, `section count changed: ${describeDoc(reparsed)}`).toBe(doc.sections.length + (isNew ? 1 : 0));
  doc.sections.forEach((before, i) => {
    const after = whole(reparsed.sections[i]);
    if (before.name === name) return;
    // A new section goes after the last one, which may gain a line break and blank lines.
    if (isNew && i === doc.sections.length - 1) {
      expect(after?.startsWith(whole(before)!), `last section changed: ${describeDoc(reparsed)}`).toBe(true);
      expect(after?.slice(whole(before)!.length).trim()).toBe("");
    } else {
      expect(after, `section ${i} changed: ${describeDoc(reparsed)}`).toBe(whole(before));
    }
  });
  if (doc.sections.length > 0) expect(reparsed.preamble).toBe(doc.preamble);
}

/** Runs checkAdd over generated files, skipping inputs that hit a known bug other than `expected`. */
function addProperty(options: { othersUnchanged: boolean; withLineSeparators?: boolean; expected?: AddBug }) {
  return fc.property(markdownArb, targetArb(options.withLineSeparators ?? false), contentArb, (text, target, content) => {
    const doc = parseSections(text);
    const name = resolve(doc, target);
    fc.pre(name !== null);
    const bugs = addBugs(doc, name, content);
    if (!options.othersUnchanged) bugs.delete("content-opens-fence");
    fc.pre([...bugs].every((bug) => bug === options.expected));
    checkAdd(doc, name, content, options.othersUnchanged);
  });
}

describe("sections: addToSection", () => {
  it(
    "leaves a section of that name holding the content",
    () => fc.assert(addProperty({ othersUnchanged: false }), { numRuns: RUNS }),
    TIMEOUT,
  );

  it(
    "changes no other section (beyond blank lines before a new last one)",
    () => fc.assert(addProperty({ othersUnchanged: true }), { numRuns: RUNS }),
    TIMEOUT,
  );

  // BUG (src/memory/sections.ts addToSection): a new section is appended after a file that
  // ends inside an unclosed code fence, so its "## name" heading is read back as code and
  // the section cannot be found again. Counterexample: "intro\n```\ncode\n", "Likes", "- tea"
  // → "intro\n```\ncode\n\n## Likes\n- tea\n" with no sections.
  it.fails(
    "finds a new section again when the file ends inside an unclosed code fence (bug)",
    () =>
      fc.assert(addProperty({ othersUnchanged: false, expected: "new-section-in-open-fence" }), {
        numRuns: RUNS,
        examples: [["intro\n```\ncode\n", "Likes", "- tea"]],
      }),
    TIMEOUT,
  );

  // BUG (src/memory/sections.ts HEADING, reachable through memory_add: the tool's sectionName
  // only refuses \r and \n): U+2028/U+2029 pass as "one line", but `.` in /^## +(.*?)\s*$/
  // stops at them, so the written "## a\u2028b" is not read back as a heading.
  // Counterexample: "", "a\u2028b", "x" → "## a\u2028b\nx\n" with no sections.
  it.fails(
    "finds the section again for names holding U+2028 or U+2029 (bug)",
    () =>
      fc.assert(
        addProperty({ othersUnchanged: false, withLineSeparators: true, expected: "line-separator-in-name" }),
        { numRuns: RUNS, examples: [["", "a\u2028b", "x"]] },
      ),
    TIMEOUT,
  );

  // BUG (src/memory/sections.ts addToSection, existing-section branch): when the section's
  // heading is the file's last line with no line break (a hand edit, e.g. /memory edit),
  // the content is glued onto the heading line. Counterexample: "## Likes", "Likes", "- tea"
  // → "## Likes- tea\n", one section named "Likes- tea"; the content is lost as body.
  it.fails(
    "keeps the content out of a heading that ends the file without a line break (bug)",
    () =>
      fc.assert(addProperty({ othersUnchanged: false, expected: "heading-without-line-break" }), {
        numRuns: RUNS,
        examples: [["## Likes", { existing: 0 }, "- tea"]],
      }),
    TIMEOUT,
  );

  // BUG (src/memory/sections.ts addToSection, reachable through memory_add): content with an
  // unclosed code fence added to a section that is not the last turns every later heading
  // into code, so those sections vanish from the file's structure (and from later edits).
  // Counterexample: "## A\nx\n## B\ny\n", "A", "```" → "## A\nx\n```\n\n## B\ny\n", sections ["A"].
  it.fails(
    "changes no other section even when the content opens a code fence it does not close (bug)",
    () =>
      fc.assert(addProperty({ othersUnchanged: true, expected: "content-opens-fence" }), {
        numRuns: RUNS,
        examples: [["## A\nx\n## B\ny\n", "A", "```"]],
      }),
    TIMEOUT,
  );
});

/** Removes a unique section picked by `pick`; checks the rest of the file is untouched. */
function removeProperty(options: { expectLeadingSpaceBug: boolean }) {
  return fc.property(markdownArb, fc.nat(), (text, pick) => {
    const doc = parseSections(text);
    const unique = doc.sections.filter((s) => doc.sections.filter((t) => t.name === s.name).length === 1);
    const target = unique[pick % Math.max(1, unique.length)];
    fc.pre(target !== undefined);
    // Known bug (see the it.fails below): a name read with leading whitespace cannot be looked up.
    fc.pre((target.name !== target.name.trim()) === options.expectLeadingSpaceBug);
    const edit = removeSection(doc, target.name);
    expect(edit.ok, edit.ok ? "" : edit.error).toBe(true);
    if (!edit.ok) return;
    const reparsed = parseSections(serializeSections(edit.value.doc));
    expect(reparsed.sections.map((s) => s.name)).not.toContain(target.name);
    expect(reparsed.preamble).toBe(doc.preamble);
    expect(reparsed.sections.map((s) => s.heading + s.body)).toEqual(
      doc.sections.filter((s) => s !== target).map((s) => s.heading + s.body),
    );
  });
}

describe("sections: removeSection", () => {
  it(
    "removes a unique section and leaves the preamble and every other section byte for byte",
    () => fc.assert(removeProperty({ expectLeadingSpaceBug: false }), { numRuns: RUNS }),
    TIMEOUT,
  );

  // BUG (src/memory/sections.ts): HEADING /^## +(.*?)\s*$/ keeps whitespace after the spaces
  // ("## \tLikes" is read as "\tLikes", "## \u3000Likes" as "\u3000Likes"), but findOne trims
  // the name it looks up, so such a section can never be edited or removed, and memory_add
  // "Likes" creates a second one. Counterexample: removeSection(parseSections("## \tLikes\n"),
  // "\tLikes") → error 'there is no section "Likes" (sections: \tLikes)'.
  it.fails(
    "removes a section whose heading has a tab or other whitespace before its name (bug)",
    () =>
      fc.assert(removeProperty({ expectLeadingSpaceBug: true }), { numRuns: RUNS, examples: [["## \tLikes\n", 0]] }),
    TIMEOUT,
  );
});
