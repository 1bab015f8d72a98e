import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { modelWriter, PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { parseSections } from "../../../src/memory/sections.js";
import { undoChanges } from "../../../src/memory/undo.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const MODEL = modelWriter("session-1", "tea talk");
const ME = { kind: "person" } as const;

const START = {
  user: "## Likes\n- green tea\n\n## Work\n- designer\n\n## Home\n- Lyon\n",
  memory: "## Follow-ups\n- piano exam\n\n## Plans\n- trip to Kyoto\n",
} as const;
type FileName = keyof typeof START;

/** One change to one section: sections are drawn without repeats, so no two changes touch the same one. */
type Op =
  | { kind: "add"; file: FileName; section: string; content: string }
  | { kind: "replace"; file: FileName; section: string; old: string; now: string }
  | { kind: "remove"; file: FileName; section: string };

const existing: [FileName, string, string][] = [
  ["user", "Likes", "green tea"],
  ["user", "Work", "designer"],
  ["user", "Home", "Lyon"],
  ["memory", "Follow-ups", "piano exam"],
  ["memory", "Plans", "trip to Kyoto"],
];
const fresh: [FileName, string][] = [
  ["user", "Family"],
  ["user", "Health"],
  ["memory", "Ideas"],
];

const op: fc.Arbitrary<Op> = fc.oneof(
  fc
    .constantFrom(...existing)
    .chain(([file, section]) => fc.constantFrom<Op>({ kind: "add", file, section, content: "- also oolong" }, { kind: "remove", file, section })),
  fc.constantFrom(...existing).map(([file, section, old]): Op => ({ kind: "replace", file, section, old, now: `${old} (changed)` })),
  fc.constantFrom(...fresh).map(([file, section]): Op => ({ kind: "add", file, section, content: `- new in ${section}` })),
);
const ops = fc.uniqueArray(op, { minLength: 1, maxLength: 8, selector: (o) => `${o.file}/${o.section}` });

/**
 * A file's sections as a reader sees them: each one's lines without the blank lines after it, by
 * name. (Two neighbours both removed and put back in another order may swap places: section-changes.ts placeOf.)
 */
function sectionsOf(text: string): [string, string][] {
  const doc = parseSections(text);
  return doc.sections.map((s): [string, string] => [s.name, `${s.heading}${s.body}`.replace(/\n+$/, "\n")]).sort(([a], [b]) => a.localeCompare(b));
}

describe("undo, per change", () => {
  it("takes back any change to one section in any order, whatever changed in other sections since, and ends where it began", async () => {
    await fc.assert(
      fc.asyncProperty(ops, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), async (changes, order) => {
        const s = MemoryStore.forUser(await makeTempHome(), "42", { defaultTimeZone: "UTC" });
        await s.user.write(START.user, PERSON);
        await s.memory.write(START.memory, PERSON);
        const ids: string[] = [];
        for (const change of changes) {
          const file = change.file === "user" ? s.user : s.memory;
          const writer = ids.length % 2 ? PERSON : MODEL;
          const result =
            change.kind === "add"
              ? await file.add(change.section, change.content, writer)
              : change.kind === "replace"
                ? await file.replace(change.section, change.old, change.now, writer)
                : await file.remove(change.section, writer);
          if (!result.ok || !result.value.entryId) throw new Error(`${JSON.stringify(change)} was not written`);
          ids.push(result.value.entryId);
        }
        // A random order: each pick takes one of the ids left.
        const left = [...ids];
        for (const pick of order) {
          if (left.length === 0) break;
          const [id] = left.splice(pick % left.length, 1);
          const undone = await undoChanges(s, [id!], ME);
          expect(undone, `undo ${changes[ids.indexOf(id!)]!.kind} ${changes[ids.indexOf(id!)]!.section}`).toMatchObject({ ok: true });
        }
        for (const [file, start] of [
          [s.user, START.user],
          [s.memory, START.memory],
        ] as const) {
          const text = await file.read();
          expect(sectionsOf(text)).toEqual(sectionsOf(start));
          // One blank line between sections, none at the end: as the file began.
          expect(text).not.toContain("\n\n\n");
          expect(text.endsWith("\n\n")).toBe(false);
          expect(text.split("\n## ").length).toBe(text.split("\n\n## ").length);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("takes back a change to some lines of a section after later changes to other lines of it, in any order; refuses only when its own lines changed since", async () => {
    const lines = [
      "- green tea",
      "- oolong",
      "- walks at dawn",
      "- reads in bed",
      "- plays piano",
      "- sister Clara",
      "- lives in Lyon",
      "- bakes bread",
      "- cycles to work",
    ];
    const start = `## Likes\n${lines.join("\n")}\n`;
    // Lines three apart: each change's neighbours (the context that places it) are no other change's lines.
    const spaced = [0, 3, 6];
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(spaced, { minLength: 1 }), fc.array(fc.nat(), { minLength: 3, maxLength: 3 }), async (picked, order) => {
        const s = MemoryStore.forUser(await makeTempHome(), "42", { defaultTimeZone: "UTC" });
        await s.user.write(start, PERSON);
        const ids: string[] = [];
        for (const line of picked) {
          const result = await s.user.replace("Likes", lines[line]!, `${lines[line]} (changed)`, MODEL);
          if (!result.ok || !result.value.entryId) throw new Error(`line ${line} was not changed`);
          ids.push(result.value.entryId);
        }
        const left = [...ids];
        for (const pick of order) {
          if (left.length === 0) break;
          const [id] = left.splice(pick % left.length, 1);
          expect(await undoChanges(s, [id!], ME)).toMatchObject({ ok: true });
        }
        expect(await s.user.read()).toBe(start);
      }),
      { numRuns: 60 },
    );
    // The same line changed since: refused, and the later change is named.
    const s = MemoryStore.forUser(await makeTempHome(), "42", { defaultTimeZone: "UTC" });
    await s.user.write(start, PERSON);
    const first = await s.user.replace("Likes", "- reads in bed", "- reads on the train", MODEL);
    const second = await s.user.replace("Likes", "- reads on the train", "- reads poetry on the train", PERSON);
    if (!first.ok || !second.ok) throw new Error("not written");
    expect(await undoChanges(s, [first.value.entryId!], ME)).toMatchObject({ ok: false, reason: "changed-since", later: [{ id: second.value.entryId }] });
  }, 60_000);
});
