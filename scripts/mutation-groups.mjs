// What `npm run test:mutation` mutates (stryker.config.mjs, scripts/mutation.mjs): the checks that
// decide what may be written, in four groups, each scored on its own. A whole file, or only the
// named declarations of one (a function, a const, a class's method as "Class.method"), as
// Stryker line ranges found in the source when the run starts, so an edit above them moves nothing.
import { readFileSync } from "node:fs";
import ts from "typescript";

/** @typedef {{ file: string, only?: string[] }} Target */

/**
 * Every group's tests include this one: it imports each module inside a test. Stryker 9.6's vitest
 * runner counts a test file that fails to import as passing, so a mutant that breaks a table or a
 * pattern at load would otherwise survive.
 */
const LOADS = "tests/unit/memory/checks-load.test.ts";

/** Each group is scored by its own modules' unit tests only (`tests`, also what vitest.mutation.config.ts runs). */
/** @type {{ name: string, what: string, targets: Target[], tests: string[] }[]} */
export const GROUPS = [
  {
    name: "write",
    what: "the write checks (safety.ts checkContent, memory-file.ts edit's refusals)",
    targets: [
      {
        file: "src/memory/safety.ts",
        // checkContent and what it calls to decide; not the wording of the reason (nameOf, the position
        // counts) nor the helpers that only reformat text (strip, escape, quote).
        only: [
          "checkContent",
          "INVISIBLE",
          "HEADING_LINE",
          "PICTOGRAPHIC",
          "EMOJI",
          "ZWJ",
          "VS16",
          "BLACK_FLAG",
          "FLAG_TAGS",
          "suspectTable",
          "findInvisible",
          "permitted",
          "joinsEmoji",
          "isEmoji",
          "hasProperty",
          "codePointBefore",
        ],
      },
      { file: "src/memory/memory-file.ts", only: ["MemoryFile.edit", "sameSections"] },
    ],
    tests: ["tests/unit/memory/safety*.test.ts", "tests/unit/memory/memory-file*.test.ts", LOADS],
  },
  {
    name: "tidy",
    what: "the tidy-up's checks (tidy-plan.ts)",
    targets: [{ file: "src/memory/tidy/tidy-plan.ts" }],
    tests: ["tests/unit/memory/tidy-plan*.test.ts", LOADS],
  },
  {
    name: "instruction",
    what: "the instruction check (instructions.ts)",
    targets: [{ file: "src/memory/instructions.ts" }],
    tests: ["tests/unit/memory/instructions*.test.ts", LOADS],
  },
  {
    name: "voices",
    what: "the voices check (voices.ts, facts.ts)",
    targets: [{ file: "src/engine/tools/voices.ts" }, { file: "src/memory/facts.ts" }],
    tests: ["tests/unit/tools/voices*.test.ts", "tests/unit/memory/facts*.test.ts", LOADS],
  },
];

/** The groups MUTATION_GROUP names (all when it is unset or empty). */
export function chosenGroups(name = process.env.MUTATION_GROUP) {
  const groups = name ? GROUPS.filter((group) => group.name === name) : GROUPS;
  if (groups.length === 0) throw new Error(`MUTATION_GROUP=${name}: no such group (${GROUPS.map((g) => g.name).join(", ")})`);
  return groups;
}

/** Stryker `mutate` entries of a group: a file, or "file:start-end" per named declaration. */
export function mutateOf(group) {
  return group.targets.flatMap(({ file, only }) => (only ? rangesOf(file, only) : [file]));
}

function rangesOf(file, names) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found = new Map();
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line + 1;
  const note = (name, node) => found.set(name, `${file}:${lineOf(node.getStart(source))}-${lineOf(node.getEnd())}`);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) note(statement.name.text, statement);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) note(declaration.name.text, declaration);
    }
    if (ts.isClassDeclaration(statement) && statement.name) {
      for (const member of statement.members) if (member.name && ts.isIdentifier(member.name)) note(`${statement.name.text}.${member.name.text}`, member);
    }
  }
  return names.map((name) => {
    const range = found.get(name);
    if (!range) throw new Error(`scripts/mutation-groups.mjs: ${file} has no declaration named ${name}`);
    return range;
  });
}
