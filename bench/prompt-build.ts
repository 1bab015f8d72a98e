import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { baseInstructions } from "../src/engine/base-instructions.js";
import { MemoryStore } from "../src/memory/memory-store.js";
import { CAPS } from "../src/memory/file-kinds.js";
import { countChars } from "../src/lib/text.js";
import { buildSystemPrompt } from "../src/memory/system-prompt.js";
import { promptLimit } from "../src/engine/context-budget.js";
import { DEFAULT_CONTEXT_TOKENS } from "../src/lib/tokens.js";
import { recentDates } from "../src/lib/time.js";
import { ServerNotes, SERVER_NOTES_CAP } from "../src/memory/server-notes.js";
import { isPublicPlace, type SessionPlace } from "../src/sessions/session-record.js";
import { words } from "./model-server.js";
import { makeTempDir, removeTempDir } from "./processes.js";
import { summarize, type Summary } from "./stats.js";
import { entriesOfServer, notePublicEntry } from "../src/memory/public-entries.js";

export interface PromptBuildOptions {
  iterations: number;
  warmup: number;
}

export interface PromptBuildResult {
  options: PromptBuildOptions;
  /** Code points of each file as written: exactly the caps. */
  fileChars: Record<string, number>;
  promptChars: number;
  /** `store.snapshot()`: reads settings, three files and two daily logs. */
  snapshotUs: Summary;
  /** `baseInstructions()` + `buildSystemPrompt()` on that snapshot. */
  buildUs: Summary;
  /** Both, as one session open pays them. */
  totalUs: Summary;
  /**
   * The floor, timed in alternation with the above: the same person's files in a DM (no server
   * notes, nothing left out). The above is a public thread of a server whose SERVER.md is at its
   * cap, with two of the person's sections marked private (read, left out).
   */
  floorTotalUs: Summary;
  warnings: number;
}

const BULLETS = [
  "prefers short answers with examples",
  "works on a 跨平台 mobile app in Kotlin and Swift",
  "likes hiking on weekends ⛰️ and cooking ramen 🍜",
  "asked to be reminded about the quarterly review",
  "timezone is Europe/Berlin; usually online after 18:00",
  "writes notes in Markdown, keeps a reading list",
];

/** A Markdown file of `sections` `## ` blocks, exactly `cap` code points long. */
function fileAtCap(cap: number, sections: number, seed: number): string {
  const blocks: string[] = [];
  for (let s = 0; s < sections; s++) {
    const lines = Array.from({ length: 3 }, (_, i) => `- ${BULLETS[(seed + s + i) % BULLETS.length]}; ${words(6, seed + s * 3 + i)}`);
    blocks.push(`## Section ${seed}.${s + 1}\n${lines.join("\n")}\n`);
  }
  let text = blocks.join("\n");
  // Grow the last section with filler, then cut to the cap on a code-point boundary.
  while (countChars(text) < cap) text += `- ${words(8, text.length)}\n`;
  let body = [...text]
    .slice(0, cap - 1)
    .join("")
    .trimEnd();
  // padEnd counts UTF-16 units, not code points, so pad by hand.
  body += ".".repeat(cap - 1 - countChars(body));
  return `${body}\n`;
}

/**
 * Snapshot and system-prompt build at full caps (SOUL 2000, USER 1400, MEMORY 2200, yesterday's
 * and today's logs 1000 each, SERVER.md 2000), in a public thread with two private sections, timed
 * in-process after a warm-up beside the same person in a DM.
 */
export async function measurePromptBuild(options: PromptBuildOptions): Promise<PromptBuildResult> {
  const home = await makeTempDir("prompt-home");
  try {
    const userId = "123456789012345678";
    const store = MemoryStore.forUser(home, userId, { defaultTimeZone: "UTC", dailyDays: 2 });
    const now = new Date();
    const [yesterday, today] = recentDates(now, "UTC", 2) as [string, string];
    const files: Record<string, string> = {
      "SOUL.md": fileAtCap(CAPS.soul, 4, 1),
      "USER.md": fileAtCap(CAPS.user, 4, 2),
      "MEMORY.md": fileAtCap(CAPS.memory, 6, 3),
      [`daily/${yesterday}.md`]: fileAtCap(CAPS.daily, 3, 4),
      [`daily/${today}.md`]: fileAtCap(CAPS.daily, 3, 5),
    };
    await mkdir(join(store.dir, "daily"), { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(join(store.dir, name), text, "utf8");

    const guildId = "234567890123456789";
    const notes = ServerNotes.of(home, guildId);
    await mkdir(notes.dir, { recursive: true });
    files["SERVER.md"] = fileAtCap(SERVER_NOTES_CAP, 4, 6);
    await writeFile(notes.notes.path, files["SERVER.md"], "utf8");
    // Two of the person's sections are private: a public thread reads them and leaves them out.
    await store.saveSettings({ privateSections: ["section 2.2", "section 3.4"] });
    // Today's entries came from this server's public threads (public-entries.json says so, among 300
    // notes of other servers' entries): a public thread reads the notes and keeps them.
    files[`daily/${today}.md`] = files[`daily/${today}.md`]!.replace(/^## (Section 5\.\d+)$/gm, "## $1 🌐");
    await writeFile(join(store.dir, "daily", `${today}.md`), files[`daily/${today}.md`]!, "utf8");
    for (let i = 0; i < 300; i++) await notePublicEntry(store.dir, today, `Section 9.${i} 🌐`, String(100_000_000_000 + i));
    for (let s = 1; s <= 3; s++) await notePublicEntry(store.dir, today, `Section 5.${s} 🌐`, guildId);
    const publicThread = {
      platform: "discord" as const,
      channelId: "1",
      guildId,
      description: 'the public Discord thread "bench"',
      visibility: "public" as const,
    };
    const dm = { platform: "discord" as const, channelId: "3", description: "direct messages", visibility: "direct" as const };
    let warnings = 0;
    let prompt = "";
    // As SessionEngine.open does it.
    const once = async (place: SessionPlace) => {
      const t0 = process.hrtime.bigint();
      const snapshot = await store.snapshot(now);
      if (place.guildId) snapshot.serverNotes = ServerNotes.of(home, place.guildId).readSync();
      const t1 = process.hrtime.bigint();
      const base = baseInstructions({ place, title: "bench", displayName: "Bench Person", snapshot });
      const built = buildSystemPrompt(snapshot, base, {
        ...(isPublicPlace(place)
          ? { publicPlace: { privateSections: store.readSettings().privateSections, entryHere: entriesOfServer(store.dir, place.guildId) } }
          : {}),
        warn: () => warnings++,
        maxTokens: promptLimit(DEFAULT_CONTEXT_TOKENS),
      });
      const t2 = process.hrtime.bigint();
      if (place === publicThread) prompt = built;
      return { snapshot: Number(t1 - t0) / 1000, build: Number(t2 - t1) / 1000 };
    };
    for (let i = 0; i < options.warmup; i++) await once(i % 2 ? dm : publicThread);
    warnings = 0;
    const snapshotUs: number[] = [];
    const buildUs: number[] = [];
    const floorUs: number[] = [];
    for (let i = 0; i < options.iterations; i++) {
      // Alternating, so both see the same machine.
      const t = await once(publicThread);
      snapshotUs.push(t.snapshot);
      buildUs.push(t.build);
      const f = await once(dm);
      floorUs.push(f.snapshot + f.build);
    }
    // What was timed is what a public thread must get: this server's entries, no private section, no other entry.
    if (!prompt.includes("Section 5.1 🌐") || prompt.includes("## Section 2.2") || prompt.includes("## Section 4.1")) {
      throw new Error("the public thread's prompt is not what a public thread gets: the measure is void");
    }
    return {
      options,
      fileChars: Object.fromEntries(
        Object.entries(files).map(([name, text]) => [name.replace(yesterday, "yesterday").replace(today, "today"), countChars(text)]),
      ),
      promptChars: countChars(prompt),
      snapshotUs: summarize(snapshotUs),
      buildUs: summarize(buildUs),
      totalUs: summarize(snapshotUs.map((s, i) => s + buildUs[i]!)),
      floorTotalUs: summarize(floorUs),
      warnings,
    };
  } finally {
    removeTempDir(home);
  }
}
