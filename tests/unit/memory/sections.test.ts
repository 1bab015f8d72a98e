import { describe, expect, it } from "vitest";
import { addToSection, parseSections, removeSection, replaceInSection, serializeSections } from "../../../src/memory/sections.js";
import { countChars } from "../../../src/lib/text.js";
import { expectLinear } from "../../helpers/linear-time.js";

const roundTrip = (text: string) => serializeSections(parseSections(text));

describe("parseSections", () => {
  it("round-trips a hand-written file byte for byte (preamble, fence with ##, CRLF, emoji)", () => {
    const text = "Preamble line 🐱\r\n\r\n## Likes\r\n- cats 😺\r\n\r\n```md\r\n## not a heading\r\n```\r\n### sub\r\n## 工作\r\n写代码";
    expect(roundTrip(text)).toBe(text);
    const doc = parseSections(text);
    expect(doc.preamble).toBe("Preamble line 🐱\r\n\r\n");
    expect(doc.sections.map((s) => s.name)).toEqual(["Likes", "工作"]);
  });

  it("round-trips with and without a trailing newline, and the empty file", () => {
    for (const text of ["", "\n", "## A\nx", "## A\nx\n", "## A\n\n\n", "no sections\n"]) {
      expect(roundTrip(text)).toBe(text);
    }
  });

  it("treats ## inside ~~~ and longer ``` fences as body until the fence closes", () => {
    const text = "## A\n~~~\n## inside\n```\n## still inside\n~~~\n## B\n````\n```\n## in\n````\n## C\n";
    expect(parseSections(text).sections.map((s) => s.name)).toEqual(["A", "B", "C"]);
    expect(roundTrip(text)).toBe(text);
  });

  it("treats ### and #### headings as body", () => {
    const doc = parseSections("## A\n### deeper\n#### deeper still\n");
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0]?.body).toBe("### deeper\n#### deeper still\n");
  });

  it("finds sections by their exact trimmed name", () => {
    const doc = parseSections("##   Spaced name   \nbody\n");
    expect(doc.sections[0]?.name).toBe("Spaced name");
  });

  it("reads a file with two sections of the same name", () => {
    const text = "## A\none\n## A\ntwo\n";
    expect(parseSections(text).sections).toHaveLength(2);
    expect(roundTrip(text)).toBe(text);
  });
});

describe("addToSection", () => {
  it("creates a missing section at the end, separated by a blank line", () => {
    const result = addToSection(parseSections("## A\n- a\n"), "B", "- b");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## A\n- a\n\n## B\n- b\n");
  });

  it("creates the first section of an empty file", () => {
    const result = addToSection(parseSections(""), "Likes", "cats");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## Likes\ncats\n");
  });

  it("appends to an existing section and keeps the blank line before the next section", () => {
    const result = addToSection(parseSections("## A\n- a\n\n## B\n- b\n"), "A", "- a2");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## A\n- a\n- a2\n\n## B\n- b\n");
  });

  it("appends right under a heading that has no body yet", () => {
    const result = addToSection(parseSections("## A\n## B\nx"), "A", "first");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## A\nfirst\n## B\nx");
  });

  it("keeps the file's CRLF line endings", () => {
    const result = addToSection(parseSections("## A\r\n- a\r\n"), "A", "- b\n- c");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## A\r\n- a\r\n- b\r\n- c\r\n");
  });

  it("is a no-op when the section already holds the text verbatim", () => {
    const doc = parseSections("## A\n- likes tea\n");
    const result = addToSection(doc, "A", "- likes tea");
    expect(result.ok && result.value.changed).toBe(false);
    expect(result.ok && serializeSections(result.value.doc)).toBe("## A\n- likes tea\n");
  });

  it("adds a line that only part of an existing line holds: 'a3' beside 'a30', 'allergic to nuts' beside 'not allergic to nuts'", () => {
    // A no-op only when the text is there as whole lines: a line that merely contains it is another fact.
    const digits = addToSection(parseSections("## Log\na30\n"), "Log", "a3");
    expect(digits.ok && serializeSections(digits.value.doc)).toBe("## Log\na30\na3\n");
    const polarity = addToSection(parseSections("## Health\n- not allergic to nuts\n"), "Health", "allergic to nuts");
    expect(polarity.ok && polarity.value.changed).toBe(true);
    const crlf = addToSection(parseSections("## A\r\n- tea and cake\r\n"), "A", "- tea");
    expect(crlf.ok && serializeSections(crlf.value.doc)).toBe("## A\r\n- tea and cake\r\n- tea\r\n");
    // Whole lines, in a run, anywhere in the section (its last line without a break too), are there already.
    for (const [file, add] of [
      ["## A\n- x\n- likes tea\n- y\n", "- likes tea"],
      ["## A\n- x\n- likes tea\n- y\n", "- likes tea\n- y"],
      ["## A\n- x\n- likes tea", "- likes tea"],
      ["## A\r\n- x\r\n- likes tea\r\n", "- x\n- likes tea"],
    ] as const) {
      const result = addToSection(parseSections(file), "A", add);
      expect(result.ok && result.value.changed, `${JSON.stringify(file)} + ${JSON.stringify(add)}`).toBe(false);
    }
    // A line under a subsection is another fact: the addition goes to the section's own text.
    const former = addToSection(parseSections("## Health\n- fine\n\n### Former\n- allergic to nuts\n"), "Health", "- allergic to nuts");
    expect(former.ok && serializeSections(former.value.doc)).toBe("## Health\n- fine\n- allergic to nuts\n\n### Former\n- allergic to nuts\n");
    // Two lines apart are not a run.
    const apart = addToSection(parseSections("## A\n- x\n- z\n- likes tea\n"), "A", "- x\n- likes tea");
    expect(apart.ok && apart.value.changed).toBe(true);
  });

  it("adds to the section's own text, before a ### subsection a person added, not into the subsection", () => {
    const result = addToSection(parseSections("## Likes\n- tea\n\n### Drinks\n- oolong\n## Work\n- design\n"), "Likes", "- cake");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## Likes\n- tea\n- cake\n\n### Drinks\n- oolong\n## Work\n- design\n");
  });

  it("adds right under the heading when the section starts with a subsection; a ### inside a code fence is not one", () => {
    const first = addToSection(parseSections("## Likes\n### Drinks\n- oolong\n"), "Likes", "- cake");
    expect(first.ok && serializeSections(first.value.doc)).toBe("## Likes\n- cake\n### Drinks\n- oolong\n");
    const fenced = addToSection(parseSections("## Likes\n```\n### not a heading\n```\n#### Deeper\n- x\n"), "Likes", "- cake");
    expect(fenced.ok && serializeSections(fenced.value.doc)).toBe("## Likes\n```\n### not a heading\n```\n- cake\n#### Deeper\n- x\n");
    const crlf = addToSection(parseSections("## A\r\n- a\r\n\r\n### Sub\r\n- s\r\n"), "A", "- b");
    expect(crlf.ok && serializeSections(crlf.value.doc)).toBe("## A\r\n- a\r\n- b\r\n\r\n### Sub\r\n- s\r\n");
  });

  it("refuses to edit a duplicated section name and names the duplicate", () => {
    const result = addToSection(parseSections("## A\none\n## A\ntwo\n"), "A", "x");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/"A" appears 2 times/);
  });
});

describe("replaceInSection", () => {
  const doc = parseSections("## A\n- tea\n- coffee\n- tea time\n## B\n- tea\n");

  it("replaces the one occurrence", () => {
    const result = replaceInSection(doc, "A", "coffee", "cocoa");
    expect(result.ok && serializeSections(result.value.doc)).toBe("## A\n- tea\n- cocoa\n- tea time\n## B\n- tea\n");
  });

  it("refuses when the text is not in the section", () => {
    const result = replaceInSection(doc, "B", "coffee", "x");
    expect(!result.ok && result.error).toMatch(/not found in section "B"/);
  });

  it("refuses when the text occurs twice", () => {
    const result = replaceInSection(doc, "A", "tea", "x");
    expect(!result.ok && result.error).toMatch(/occurs 2 times in section "A"/);
  });

  it("refuses a missing section and lists the existing ones", () => {
    const result = replaceInSection(doc, "C", "tea", "x");
    expect(!result.ok && result.error).toMatch(/no section "C".*A, B/);
  });
});

describe("removeSection", () => {
  it("deletes the heading and its body", () => {
    const result = removeSection(parseSections("intro\n## A\na\n\n## B\nb\n"), "A");
    expect(result.ok && serializeSections(result.value.doc)).toBe("intro\n## B\nb\n");
  });

  it("refuses a missing section", () => {
    expect(removeSection(parseSections("## A\n"), "Z").ok).toBe(false);
  });
});

describe("countChars", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(countChars("猫😺")).toBe(2);
    expect("猫😺".length).toBe(3);
  });
});

describe("linear time on the worst input a file or the model can hold (1 MB)", () => {
  it("reads a heading line holding a long run of spaces or other whitespace", () => {
    expectLinear(
      (n) => `## a${" ".repeat(n)}b`,
      (line) => expect(parseSections(line).sections[0]?.name).toMatch(/^a +b$/),
    );
    expectLinear(
      (n) => `## ${"\t ".repeat(n / 2)}\u2028x\n`,
      (line) => parseSections(line),
    );
    expectLinear(
      (n) => `${"## ".repeat(n / 3)}\n`,
      (line) => parseSections(line),
    );
  });

  it("reads a file made only of lines that look like headings or fences", () => {
    expectLinear(
      (n) => "## a\n".repeat(n / 5),
      (text) => expect(parseSections(text).sections).toHaveLength(200_000 / (1_000_000 / text.length)),
    );
    expectLinear(
      (n) => "```\n## a\n".repeat(n / 9),
      (text) => parseSections(text),
    );
    expectLinear(
      (n) => "\r#".repeat(n / 2),
      (text) => parseSections(text),
    );
    expectLinear(
      (n) => "### a\n".repeat(n / 6),
      (text) => addToSection(parseSections(`## A\n${text}`), "A", "y"),
    );
  });

  it("adds content with a long run of whitespace before its last word", () => {
    expectLinear(
      (n) => `y${" \n".repeat(n / 2)}z`,
      (content) => addToSection(parseSections("## A\nx\n"), "A", content),
    );
  });

  it("adds to a section whose body holds a long run of blank lines before its last line", () => {
    expectLinear(
      (n) => `## A\n${"\n".repeat(n)}x\n## B\n`,
      (text) => addToSection(parseSections(text), "A", "y"),
    );
    expectLinear(
      (n) => `## A\n${"\r\n".repeat(n / 2)}x`,
      (text) => addToSection(parseSections(text), "A", "y"),
    );
  });
});
