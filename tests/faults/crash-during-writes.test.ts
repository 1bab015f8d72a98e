import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isTemporaryFile } from "../../src/memory/atomic-write.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { sameSection, sectionText } from "../../src/memory/section-changes.js";
import { parseSections } from "../../src/memory/sections.js";
import { defaultPersona, renderPersona } from "../../src/memory/persona.js";
import { runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { pick } from "./fault-config.js";

const KILLS = pick(50, 4);

/** A small deterministic generator, so a failing kill schedule can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

interface Ack {
  n: number;
  file: string;
  section: string;
}

async function runAndKill(home: string, start: number, killAfterMs: number): Promise<Ack[]> {
  const writer = runTsx("tests/faults/workers/memory-writer.ts", [home, "42", String(start)], { AGENTKIT_HOME: home });
  // Wait for the first acknowledged write so the kill lands among writes, not during start-up.
  const deadline = Date.now() + 20_000;
  while (!writer.stdout().includes("ack ") && Date.now() < deadline && writer.child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, killAfterMs));
  writer.child.kill("SIGKILL");
  await writer.exited;
  expect(writer.stderr()).toBe("");
  return writer
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith("ack "))
    .map((line) => {
      const [, n, file, section] = line.split(" ");
      return { n: Number(n), file: file!, section: section! };
    });
}

/** A section of the default persona as it was written, untouched by the writer. */
const DEFAULT_PERSONA = parseSections(renderPersona(defaultPersona(undefined), undefined)).sections;
function isPersonaSection(section: { name: string; body: string }): boolean {
  return DEFAULT_PERSONA.some((s) => s.name === section.name && s.body.trim() === section.body.trim());
}

const FILE_NAMES: Record<string, string> = { user: "USER.md", memory: "MEMORY.md", soul: "SOUL.md" };

/**
 * The journal (once settled, as the next write or a history read does) explains every section
 * on disk: the newest change of each section leaves exactly the text the file holds, so every
 * write can be shown and undone, and no entry claims a change the files do not have.
 */
async function expectHistoryToExplainFiles(home: string, kill: number): Promise<void> {
  const memory = MemoryStore.forUser(home, "42", { defaultTimeZone: "UTC" });
  const newestFirst = await memory.history();
  const latest = new Map<string, string | null>();
  for (const entry of newestFirst) {
    for (const change of entry.changes) {
      const key = `${change.file}\u0000${change.section}`;
      if (!latest.has(key)) latest.set(key, change.after);
    }
  }
  for (const [key, after] of latest) {
    const [file, section] = key.split("\u0000") as [string, string];
    const text = await readFile(memory.pathOf(file), "utf8").catch(() => null);
    // By its own lines: the blank lines after a section only separate it from the next (section-changes.ts).
    const now = sectionText(text, { section });
    expect(sameSection(now, after), `${key} after kill ${kill}: ${JSON.stringify(now)} for ${JSON.stringify(after)}`).toBe(true);
  }
  // And every section on disk has a change in history.
  for (const label of ["USER.md", "MEMORY.md", "SOUL.md"]) {
    const text = await readFile(memory.pathOf(label), "utf8").catch(() => "");
    for (const section of parseSections(text).sections) expect(latest.has(`${label}\u0000${section.name}`), `${label} › ${section.name}`).toBe(true);
  }
}

describe("a process killed while writing memory", () => {
  it(`loses no acknowledged write, leaves every file whole, and history explains every file (${KILLS} kills)`, async () => {
    const home = await makeTempHome();
    const dir = join(home, "users", "42");
    const random = seeded(20261202);
    // The newest acknowledged entry of each file+section must survive; older ones were replaced on purpose.
    const latest = new Map<string, Ack>();
    let next = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const acks = await runAndKill(home, next, Math.floor(random() * 120));
      for (const ack of acks) latest.set(`${ack.file}/${ack.section}`, ack);
      next = (acks.at(-1)?.n ?? next) + 1;

      const names = await readdir(dir);
      for (const name of names.filter((n) => n.endsWith(".md"))) {
        const text = await readFile(join(dir, name), "utf8");
        expect(text.includes("\uFFFD")).toBe(false);
        // SOUL.md's first write puts the default persona it was made from before it.
        for (const section of parseSections(text).sections)
          if (!(name === "SOUL.md" && isPersonaSection(section))) expect(section.body).toMatch(/^- entry \d+[ x]*\n+$/);
      }
      // Anything left by the kill is a dot-named .tmp file, never a name memory is read from.
      for (const name of names) expect(["USER.md", "MEMORY.md", "SOUL.md", "daily", "journal.jsonl"].includes(name) || isTemporaryFile(name)).toBe(true);
      await expectHistoryToExplainFiles(home, kill);
      for (const [key, ack] of latest) {
        const path =
          ack.file === "daily"
            ? join(
                dir,
                "daily",
                (await readdir(join(dir, "daily")))
                  .filter((n) => n.endsWith(".md"))
                  .sort()
                  .at(-1)!,
              )
            : join(dir, FILE_NAMES[ack.file]!);
        const text = await readFile(path, "utf8");
        const section = parseSections(text).sections.find((s) => s.name === ack.section);
        const n = Number(/- entry (\d+)/.exec(section?.body ?? "")?.[1]);
        // The acknowledged entry, or a newer one written just before the kill (acked or not).
        expect(n, `${key} after kill ${kill}`).toBeGreaterThanOrEqual(ack.n);
      }
    }
    expect(latest.size).toBeGreaterThan(0);
  }, 600_000);
});
