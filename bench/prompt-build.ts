import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { baseInstructions } from "../src/engine/base-instructions.js";
import { MemoryStore } from "../src/memory/memory-store.js";
import { CAPS } from "../src/memory/file-kinds.js";
import { countChars } from "../src/lib/text.js";
import { buildSystemPrompt } from "../src/memory/system-prompt.js";
import { recentDates } from "../src/lib/time.js";
import { words } from "./model-server.js";
import { makeTempDir, removeTempDir } from "./processes.js";
import { summarize, type Summary } from "./stats.js";

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
  let body = [...text].slice(0, cap - 1).join("").trimEnd();
  // padEnd counts UTF-16 units, not code points, so pad by hand.
  body += ".".repeat(cap - 1 - countChars(body));
  return `${body}\n`;
}

/**
 * Snapshot and system-prompt build at full caps (SOUL 2000, USER 1400, MEMORY 2200, yesterday's
 * and today's logs 1000 each), timed in-process after a warm-up.
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

    const place = { platform: "discord" as const, channelId: "1", guildId: "2", description: 'the Discord thread "bench"' };
    let warnings = 0;
    let prompt = "";
    const once = async () => {
      const t0 = process.hrtime.bigint();
      const snapshot = await store.snapshot(now);
      const t1 = process.hrtime.bigint();
      const base = baseInstructions({ place, title: "bench", displayName: "Bench Person", snapshot });
      prompt = buildSystemPrompt(snapshot, base, { warn: () => warnings++ });
      const t2 = process.hrtime.bigint();
      return { snapshot: Number(t1 - t0) / 1000, build: Number(t2 - t1) / 1000 };
    };
    for (let i = 0; i < options.warmup; i++) await once();
    warnings = 0;
    const snapshotUs: number[] = [];
    const buildUs: number[] = [];
    for (let i = 0; i < options.iterations; i++) {
      const t = await once();
      snapshotUs.push(t.snapshot);
      buildUs.push(t.build);
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
      warnings,
    };
  } finally {
    removeTempDir(home);
  }
}
