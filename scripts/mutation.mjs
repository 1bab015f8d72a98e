#!/usr/bin/env node
// `npm run test:mutation [group…]`: StrykerJS once per group of scripts/mutation-groups.mjs (the write
// checks, the tidy-up's, the instruction check, the voices check), each group's score printed, and a
// failure when any scores under its break threshold (90 %, stryker.config.mjs). Slow: minutes a group.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { GROUPS } from "./mutation-groups.mjs";

// The package exports no bin path: its bin is found next to its package.json.
const stryker = join(dirname(createRequire(import.meta.url).resolve("@stryker-mutator/core/package.json")), "bin", "stryker.js");
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !GROUPS.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(`No such group: ${unknown.join(", ")} (groups: ${GROUPS.map((g) => g.name).join(", ")})`);
  process.exit(2);
}
const groups = asked.length > 0 ? GROUPS.filter((group) => asked.includes(group.name)) : GROUPS;

/** Runs Stryker on one group; its output passes through, and its final score is read from it. */
function run(group) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [stryker, "run", "stryker.config.mjs"], {
      env: { ...process.env, MUTATION_GROUP: group.name },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let score;
    let tail = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-4096);
      const match = /Final mutation score (?:of )?([\d.]+|NaN)/.exec(tail);
      if (match) score = match[1];
    });
    child.on("close", (code) => resolve({ group, code: code ?? 1, score }));
  });
}

const results = [];
for (const group of groups) {
  console.log(`\n=== Mutation testing: ${group.what} ===\n`);
  results.push(await run(group));
}
console.log("\nMutation scores (break under 90 %):");
for (const { group, code, score } of results) {
  console.log(`  ${group.name.padEnd(12)} ${score === undefined ? "no score" : `${score} %`}${code === 0 ? "" : "  FAILED"}  ${group.what}`);
}
process.exit(results.every((result) => result.code === 0 && result.score !== undefined) ? 0 : 1);
