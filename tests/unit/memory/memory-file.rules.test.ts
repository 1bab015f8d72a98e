import { mkdir, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { contentHash, modelWriter, PERSON, systemWriter } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { makeTempHome } from "../../helpers/temp-home.js";

/**
 * Each refusal of MemoryFile's writes (memory-file.ts edit) guarded so that weakening it fails a
 * test (npm run test:mutation, docs/design.md §7): the refusal and its code, and the file as it was.
 */

const MODEL = modelWriter("test-session");
const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD";

async function store() {
  return MemoryStore.forUser(await makeTempHome(), "42");
}

describe("memory-file: unsafe text and section names", () => {
  it("refuses the model's text with an invisible character as unsafe, naming the text", async () => {
    const s = await store();
    const result = await s.memory.add("Notes", "hello\u200bworld", MODEL);
    expect(result).toMatchObject({ ok: false, refusal: "unsafe" });
    expect(!result.ok && result.error).toMatch(/^MEMORY\.md: refused, the text contains an invisible/);
    expect(await s.memory.readIfExists()).toBeUndefined();
  });

  it("refuses a section name with an invisible or bidirectional character, at every level", async () => {
    const s = await store();
    for (const writer of [MODEL, PERSON]) {
      const result = await s.memory.add("No\u202Etes", "- a note", writer);
      expect(result).toMatchObject({ ok: false, refusal: "unsafe" });
      expect(!result.ok && result.error).toMatch(/^MEMORY\.md: refused, the section name contains an invisible/);
    }
    expect(await s.memory.readIfExists()).toBeUndefined();
  });
});

describe("memory-file: secrets", () => {
  it("refuses a secret from the model and from AgentKit itself, and from a person writing a file everyone reads", async () => {
    const s = await store();
    for (const writer of [MODEL, systemWriter("summary"), { ...PERSON, refusesSecrets: true }]) {
      const result = await s.memory.add("Keys", `- API key ${KEY}`, writer);
      expect(result).toMatchObject({ ok: false, refusal: "secret" });
      expect(!result.ok && result.error).toMatch(/^MEMORY\.md: refused, the text looks like .+\. Passwords, keys, tokens and card numbers are never stored/);
    }
    expect(await s.memory.readIfExists()).toBeUndefined();
  });

  it("saves a person's own secret with a warning that says what it looks like", async () => {
    const s = await store();
    const result = await s.memory.add("Keys", `- API key ${KEY}`, PERSON);
    expect(result.ok).toBe(true);
    expect(result.ok && result.value.secret).toEqual(expect.objectContaining({ kind: expect.any(String) }));
    expect(await s.memory.read()).toContain(KEY);
  });

  it("refuses a secret assembled from two of the model's writes", async () => {
    const s = await store();
    expect((await s.memory.add("Keys", "- sk-proj-abcdefghijklmnopqrstu", MODEL)).ok).toBe(true);
    const second = await s.memory.replace("Keys", "- sk-proj-abcdefghijklmnopqrstu", "- sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD", MODEL);
    expect(second).toMatchObject({ ok: false, refusal: "secret" });
  });

  it("does not refuse a secret the file held already, when the model's write leaves it as it was", async () => {
    const s = await store();
    await s.memory.write(`## Keys\n- API key ${KEY}\n`, PERSON);
    const result = await s.memory.add("Keys", "- rotate it next month (2027-01-05)", MODEL);
    expect(result.ok).toBe(true);
  });
});

describe("memory-file: the file's sections", () => {
  const FILE = "## A\n- a\n\n## B\n- b\n";

  it("refuses the model's text that opens a fence around a later heading, and lets a person write it", async () => {
    const s = await store();
    await s.memory.write(FILE, PERSON);
    const result = await s.memory.replace("A", "- a", "```\n- a", MODEL);
    expect(result).toMatchObject({ ok: false, refusal: "unsafe" });
    expect(!result.ok && result.error).toMatch(/^MEMORY\.md: refused, the text would change the file's sections/);
    expect(await s.memory.read()).toBe(FILE);
    expect((await s.memory.replace("A", "- a", "```\n- a", PERSON)).ok).toBe(true);
  });

  it("refuses the model's text that swaps one heading for another, as many sections as before", async () => {
    const s = await store();
    const fenced = "## A\n- a\n\n## B\n- b\n```\n## X\n```\n";
    await s.memory.write(fenced, PERSON);
    const result = await s.memory.replace("A", "- a", "```\n- a", MODEL);
    expect(result).toMatchObject({ ok: false, refusal: "unsafe" });
    expect(await s.memory.read()).toBe(fenced);
  });
});

describe("memory-file: a section the file does not have", () => {
  it("names the missing section and the file's sections", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n", PERSON);
    const result = await s.memory.replace("Zed", "- a", "- b", MODEL);
    expect(result).toMatchObject({ ok: false, refusal: "not-applicable", detail: { missing: "Zed", sections: [{ name: "A", chars: 9 }] } });
  });

  it("names no missing section when the section is there and its text is not", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n\n## B\n- b\n", PERSON);
    const result = await s.memory.replace("A", "- zzz", "- b", MODEL);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.refusal).toBe("not-applicable");
    expect(!result.ok && result.detail).toEqual({ reason: "old-text-missing" });
  });
});

describe("memory-file: a person's edit of a file that changed", () => {
  it("refuses it when the file is no longer the text the person started from", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n", PERSON);
    const started = contentHash("## A\n- a\n");
    await s.memory.add("A", "- b", MODEL);
    const result = await s.memory.write("## A\n- mine\n", PERSON, { ifUnchanged: started });
    expect(result).toMatchObject({ ok: false, refusal: "changed" });
    expect(!result.ok && result.error).toMatch(/^MEMORY\.md: changed since you opened it/);
    expect(await s.memory.read()).toBe("## A\n- a\n- b\n");
  });

  it("saves it when the file is the text the person started from", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n", PERSON);
    const result = await s.memory.write("## A\n- mine\n", PERSON, { ifUnchanged: contentHash("## A\n- a\n") });
    expect(result.ok).toBe(true);
    expect(await s.memory.read()).toBe("## A\n- mine\n");
  });
});

describe("memory-file: the cap", () => {
  it("refuses a write over the cap with its numbers, and the file as it was", async () => {
    const s = await store();
    const before = `## Notes\n${"n".repeat(2000)}\n`;
    await s.memory.write(before, PERSON);
    const result = await s.memory.add("Notes", "x".repeat(300), MODEL);
    expect(result).toMatchObject({ ok: false, refusal: "over-cap", detail: { used: 2010, cap: 2200, adds: 301, sections: [{ name: "Notes", chars: 2010 }] } });
    expect(await s.memory.read()).toBe(before);
  });

  it("lets a file already over its cap take an edit that keeps or shrinks its size", async () => {
    const s = await store();
    await mkdir(s.dir, { recursive: true });
    await writeFile(s.memory.path, `## Old\n${"o".repeat(2500)}\n## Keep\n- k\n`);
    const same = await s.memory.replace("Keep", "- k", "- j", PERSON);
    expect(same.ok).toBe(true);
    const smaller = await s.memory.replace("Keep", "- j", "-", PERSON);
    expect(smaller.ok).toBe(true);
    expect(await s.memory.read()).toBe(`## Old\n${"o".repeat(2500)}\n## Keep\n-\n`);
  });
});

describe("memory-file: a dry run and a no-op", () => {
  it("checks a dry run as a write, tells the section as it would read, and writes nothing", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n\n## B\n- b\n", PERSON);
    const result = await s.memory.add("B", "- c", MODEL, { dryRun: true });
    expect(result).toStrictEqual({
      ok: true,
      value: { file: "MEMORY.md", section: "B", sectionText: "- b\n- c\n", usage: { used: 23, cap: 2200 }, changed: true },
    });
    expect(await s.memory.read()).toBe("## A\n- a\n\n## B\n- b\n");
  });

  it("checks a dry run that removes a section, and tells no section text", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n\n## B\n- b\n", PERSON);
    const result = await s.memory.remove("B", MODEL, { dryRun: true });
    expect(result).toStrictEqual({ ok: true, value: { file: "MEMORY.md", section: "B", usage: { used: 10, cap: 2200 }, changed: true } });
    expect(await s.memory.read()).toBe("## A\n- a\n\n## B\n- b\n");
  });

  it("refuses in a dry run what it would refuse in a write", async () => {
    const s = await store();
    const result = await s.memory.add("Keys", `- API key ${KEY}`, MODEL, { dryRun: true });
    expect(result).toMatchObject({ ok: false, refusal: "secret" });
  });

  it("does not tell a section's text to a write that is not a dry run", async () => {
    const s = await store();
    const result = await s.memory.add("A", "- c", MODEL);
    expect(result.ok && "sectionText" in result.value).toBe(false);
  });

  it("writes nothing and journals nothing when the text is what the file holds", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n", PERSON);
    const again = await s.memory.write("## A\n- a\n", PERSON);
    expect(again).toStrictEqual({ ok: true, value: { file: "MEMORY.md", usage: { used: 9, cap: 2200 }, changed: false } });
  });
});

describe("memory-file: the values behind each refusal (front ends word them from these, in English and Chinese)", () => {
  it("says which part held the unsafe character, which one and where; a heading line has no character", async () => {
    const s = await store();
    expect(await s.memory.add("Notes", "hello\u200bworld", MODEL)).toStrictEqual({
      ok: false,
      error: "MEMORY.md: refused, the text contains an invisible or bidirectional control character: U+200B ZERO WIDTH SPACE at character 6",
      refusal: "unsafe",
      detail: { part: "text", character: "U+200B ZERO WIDTH SPACE", position: 6 },
    });
    expect(await s.memory.add("No\u202Etes", "- a", MODEL)).toStrictEqual({
      ok: false,
      error: "MEMORY.md: refused, the section name contains an invisible or bidirectional control character: U+202E RIGHT-TO-LEFT OVERRIDE at character 3",
      refusal: "unsafe",
      detail: { part: "section-name", character: "U+202E RIGHT-TO-LEFT OVERRIDE", position: 3 },
    });
    const heading = await s.memory.add("Notes", "- a\n## New", MODEL);
    expect(heading).toMatchObject({ ok: false, refusal: "unsafe", detail: { part: "text" } });
    expect(!heading.ok && heading.detail).toStrictEqual({ part: "text" });
  });

  it("says a section is missing (with the file's sections), there twice (how often), or holds the old text not once (how often)", async () => {
    const s = await store();
    await s.memory.write("## A\n- a\n", PERSON);
    expect(await s.memory.replace("Zed", "- a", "- b", MODEL)).toStrictEqual({
      ok: false,
      error: 'MEMORY.md: there is no section "Zed" (sections: A)',
      refusal: "not-applicable",
      detail: { missing: "Zed", sections: [{ name: "A", chars: 9 }], reason: "missing" },
    });
    await s.memory.write("## A\n- a\n- a\n\n## A\n- x\n", PERSON);
    expect(await s.memory.replace("A", "- a", "- b", MODEL)).toStrictEqual({
      ok: false,
      error: 'MEMORY.md: section "A" appears 2 times in this file; it cannot be edited until the duplicates are merged or renamed by hand (/memory edit)',
      refusal: "not-applicable",
      detail: { reason: "duplicate", count: 2 },
    });
    await s.memory.write("## A\n- a\n- a\n- a\n\n## B\n- x\n", PERSON);
    expect(await s.memory.replace("A", "- a", "- b", MODEL)).toStrictEqual({
      ok: false,
      error: 'MEMORY.md: old_text occurs 3 times in section "A"; include more surrounding text so it matches once',
      refusal: "not-applicable",
      detail: { reason: "old-text-repeated", count: 3 },
    });
    // A remove names the missing section too.
    expect(await s.memory.remove("Zed", MODEL)).toMatchObject({ ok: false, refusal: "not-applicable", detail: { missing: "Zed", reason: "missing" } });
  });

  it("says what a refused secret looks like", async () => {
    const s = await store();
    expect(await s.memory.add("Keys", `- API key ${KEY}`, MODEL)).toStrictEqual({
      ok: false,
      error:
        "MEMORY.md: refused, the text looks like an OpenAI API key. Passwords, keys, tokens and card numbers are never stored in memory; tell the person so",
      refusal: "secret",
      detail: { secret: { kind: "an OpenAI API key", zh: "OpenAI API 密钥", label: "OpenAI key" } },
    });
  });
});
