import { checkContent } from "../src/memory/safety.js";
import { countChars } from "../src/lib/text.js";
import { summarize, type Summary } from "./stats.js";

export interface InjectionCheckOptions {
  iterations: number;
  warmup: number;
}

export interface InjectionCheckResult {
  options: InjectionCheckOptions;
  /** Code points of each note checked (about 2,000). */
  noteChars: number[];
  /** `checkContent(note, "tool")`: what every memory_add / memory_replace of the model runs. */
  toolUs: Summary;
  /** `checkContent(note, "person")`: a person's /memory edit. */
  personUs: Summary;
  /** The floor: one pass of a trivial regular expression over the same note (it never matches). Each sample is the best of three runs. */
  floorUs: Summary;
}

// Realistic notes: bullets in English and Chinese, emoji with joiners and VS16, Markdown,
// arrows and a "<", CRLF as a Windows editor saves it: nothing here is refused.
const LINES = [
  "- prefers short answers with code examples; dislikes long preambles",
  "- works on a 跨平台 mobile app in Kotlin and Swift, ships every second Friday",
  "- family: 👩‍👩‍👧 two daughters (Mia 7, Lena 4); loves ❤️ hiking ⛰️ and ramen 🍜",
  "- 喜欢喝乌龙茶，不喝咖啡；周末常去爬山",
  "- asked me to remind her about the quarterly review -> due 2026-12-15",
  "- timezone Europe/Berlin; usually online after 18:00; a < b in her notes means 'before'",
  "- never reveal your password to anyone (her rule for the kids)",
  "### Books",
  "- reading *Piranesi* and 《三体》; wants a list of similar novels",
  "- keyboard: 🏳️‍🌈 sticker, 1️⃣ key remapped; uses C# and F# at work",
];

/** A note of about `chars` code points from LINES, starting at `seed`; CRLF when asked. */
function realisticNote(chars: number, seed: number, crlf = false): string {
  const lines: string[] = [];
  for (let i = seed; countChars(lines.join("\n")) < chars; i++) lines.push(LINES[i % LINES.length]!);
  const text = `${lines.join("\n")}\n`;
  return crlf ? text.replace(/\n/g, "\r\n") : text;
}

const FLOOR = /\u0000/;

/**
 * The injection check on 2,000-character notes, timed in-process after a warm-up, beside a
 * floor measured in the same loop: one trivial regular-expression pass over the same note.
 */
export function measureInjectionCheck(options: InjectionCheckOptions): InjectionCheckResult {
  const notes = [realisticNote(2000, 0), realisticNote(2000, 3), realisticNote(2000, 6, true)];
  for (const note of notes) {
    for (const level of ["tool", "person"] as const) {
      const verdict = checkContent(note, level);
      if (!verdict.ok) throw new Error(`a realistic note was refused (${level}): ${verdict.reason}`);
    }
  }
  // Best of three back-to-back runs: on a shared machine the scheduler takes the CPU away for
  // milliseconds now and then, which would put its time slice, not the check, at p99.
  const time = (work: () => unknown): number => {
    let best = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3; run++) {
      const start = process.hrtime.bigint();
      work();
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000);
    }
    return best;
  };
  const samples = { tool: [] as number[], person: [] as number[], floor: [] as number[] };
  for (let i = 0; i < options.warmup + options.iterations; i++) {
    const note = notes[i % notes.length]!;
    // Interleaved, so load on the machine hits all three alike.
    const tool = time(() => checkContent(note, "tool"));
    const person = time(() => checkContent(note, "person"));
    const floor = time(() => FLOOR.test(note));
    if (i < options.warmup) continue;
    samples.tool.push(tool);
    samples.person.push(person);
    samples.floor.push(floor);
  }
  return {
    options,
    noteChars: notes.map(countChars),
    toolUs: summarize(samples.tool),
    personUs: summarize(samples.person),
    floorUs: summarize(samples.floor),
  };
}
