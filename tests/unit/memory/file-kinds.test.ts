import { describe, expect, it } from "vitest";
import { english, listIn, sayIn } from "../../../src/lib/locale.js";
import {
  CAPS,
  FILE_KINDS,
  FILE_TABLE,
  hasPrivateSections,
  holdsPersonFacts,
  kindOfLabel,
  NO_FILES,
  PRIVATE_SECTION_LABELS,
  WHOLE_FILE_KINDS,
  WHOLE_FILE_LABELS,
  wholeFileNamed,
} from "../../../src/memory/file-kinds.js";
import { readImport } from "../../../src/memory/import-bundle.js";
import type { RecallHit } from "../../../src/memory/recall/recall.js";
import { buildSystemPrompt } from "../../../src/memory/system-prompt.js";
import { hitSource } from "../../../src/present/search-range.js";
import { emptySnapshot } from "../../helpers/snapshot.js";

describe("the table of file kinds", () => {
  it("names each kind's file, cap and page once, and reads a journal label back to its kind", () => {
    expect(CAPS).toEqual({ soul: 2000, user: 1400, memory: 2200, daily: 1000 });
    expect(WHOLE_FILE_LABELS).toEqual(["SOUL.md", "USER.md", "MEMORY.md"]);
    expect(new Set(FILE_KINDS.map((kind) => FILE_TABLE[kind].label)).size).toBe(FILE_KINDS.length);
    for (const kind of FILE_KINDS) expect(FILE_TABLE[kind].page).toBe(`/memory/${kind}`);
    expect(kindOfLabel("USER.md")).toBe("user");
    expect(kindOfLabel("daily/2026-12-01.md")).toBe("daily");
    expect(kindOfLabel("daily/archive/2026-01-01.md")).toBe("daily");
    for (const other of ["settings.json", "user.md", "conversations/x.md", ""]) expect(kindOfLabel(other)).toBeUndefined();
  });

  it("gives each kind the prompt may drop its own place in that order", () => {
    const orders = WHOLE_FILE_KINDS.flatMap((kind) => (FILE_TABLE[kind].dropOrder === undefined ? [] : [FILE_TABLE[kind].dropOrder]));
    expect(new Set(orders).size).toBe(orders.length);
    expect(new Set(FILE_KINDS.map((kind) => FILE_TABLE[kind].tag)).size).toBe(FILE_KINDS.length);
  });

  it("says which kinds can hold private sections and which hold the person's facts, for every check that asks", () => {
    expect(FILE_KINDS.filter(hasPrivateSections)).toEqual(["user", "memory"]);
    expect(PRIVATE_SECTION_LABELS).toEqual(["USER.md", "MEMORY.md"]);
    expect(FILE_KINDS.filter(holdsPersonFacts)).toEqual(["user"]);
    for (const other of ["conversation", "toString", "__proto__", ""]) {
      expect(hasPrivateSections(other)).toBe(false);
      expect(holdsPersonFacts(other)).toBe(false);
    }
  });

  it("gives every one-file kind its prompt block, its upload name, its search label and its empty text, from its row", async () => {
    const snapshot = { ...emptySnapshot("UTC"), ...Object.fromEntries(WHOLE_FILE_KINDS.map((kind) => [kind, `## ${kind}\n- text of ${kind}\n`])) };
    const prompt = buildSystemPrompt(snapshot, "base");
    for (const kind of WHOLE_FILE_KINDS) {
      const { tag, label, name } = FILE_TABLE[kind];
      expect(prompt).toContain(`<${tag} chars=`);
      expect(prompt).toContain(`- text of ${kind}`);
      expect(wholeFileNamed(label.toLowerCase())).toBe(kind);
      expect(await readImport(label, Buffer.from("## A\n- b\n"))).toEqual({ ok: true, value: { [label]: "## A\n- b\n" } });
      const hit = { source: kind, title: "Likes" } as RecallHit;
      expect(hitSource(hit, english)).toBe(`${name.en} (${label}) › Likes`);
      expect(hitSource(hit, sayIn("zh-CN"))).toBe(`${name.zh}（${label}） › Likes`);
      expect(NO_FILES[kind]).toBe("");
    }
    // In the table's order.
    const at = WHOLE_FILE_KINDS.map((kind) => prompt.indexOf(`<${FILE_TABLE[kind].tag} `));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(wholeFileNamed("notes.md")).toBeUndefined();
  });

  it("lists names in a sentence in either language", () => {
    expect(listIn(WHOLE_FILE_LABELS, "or", english)).toBe("SOUL.md, USER.md or MEMORY.md");
    expect(listIn(PRIVATE_SECTION_LABELS, "and", sayIn("zh-CN"))).toBe("USER.md和MEMORY.md");
  });
});
