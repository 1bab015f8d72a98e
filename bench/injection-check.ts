import { checkContent } from "../src/memory/safety.js";
import { BENCH_LINES } from "../tests/unit/memory/instruction-corpus.js";
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

// Realistic notes (the instruction corpus's, where they are also proven ordinary); CRLF as a Windows editor saves it below.
const LINES = BENCH_LINES;

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
