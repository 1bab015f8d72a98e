import { instructionIn } from "../src/memory/instructions.js";
import {
  disguisedSamples,
  HELD,
  HELD_OUT,
  HELD_OUT_ORDINARY,
  HELD_OUT_SECOND,
  HELD_OUT_SECOND_ORDINARY,
  ORDINARY,
} from "../tests/unit/memory/instruction-corpus.js";
import { ratio, round, summarize, type Summary } from "./stats.js";

export interface InstructionCheckOptions {
  iterations: number;
  warmup: number;
}

/** How many of a set the detector held. */
interface HeldCount {
  total: number;
  held: number;
}

export interface InstructionCheckResult {
  options: InstructionCheckOptions;
  /** The corpus (tests/unit/memory/instruction-corpus.ts): orders to the assistant, all batches. */
  instructions: HeldCount;
  /** Their disguises (look-alikes, invisible characters, full-width, HTML references, case, spacing, Markdown, line breaks). */
  disguises: HeldCount;
  /** Ordinary notes held by mistake. */
  ordinary: HeldCount;
  notes: number;
  noteChars: number;
  /** The floor: one pass of one plain pattern (the phrase a keyword filter looks for) over the same note, best of three runs. */
  floorUs: Summary;
  /** `instructionIn(note)`, best of three runs: what a memory write of the section would run. */
  checkUs: Summary;
  /** One run in process CPU time: on a shared machine the wall clock's tail is mostly time the process was not running. */
  checkCpuUs: Summary;
}

const NOTE_CHARS = 2000;
const FLOOR = /ignore (?:all )?previous instructions/i;

/** Notes of exactly NOTE_CHARS characters from the corpus's ordinary notes, English and Chinese mixed: nothing in them is held, so every rule that can start is tried. */
function notesForBench(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const lines: string[] = [];
    let length = 0;
    for (let k = i * 11; length < NOTE_CHARS; k++) {
      const line = ORDINARY[k % ORDINARY.length]!;
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join("\n").slice(0, NOTE_CHARS);
  });
}

/**
 * Best of three back-to-back runs, in µs: on a shared machine the scheduler takes the CPU away
 * for milliseconds now and then, which would put its time slice, not the check, at p99 (as 4d does).
 */
function micros(work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    work();
    best = Math.min(best, (performance.now() - started) * 1000);
  }
  return best;
}

const count = (texts: readonly string[]): HeldCount => ({ total: texts.length, held: texts.filter((text) => instructionIn(text) !== undefined).length });

/** The corpus's figures, then the detector on 2,000-character notes, timed in-process after a warm-up, beside one plain pattern pass. */
export function measureInstructionCheck(options: InstructionCheckOptions): InstructionCheckResult {
  const notes = notesForBench(64);
  const held = notes.filter((note) => instructionIn(note) !== undefined).length;
  if (held > 0) throw new Error(`${held} of the bench's ordinary notes were held: the timing would stop at the first order`);
  const samples = { floor: [] as number[], check: [] as number[], checkCpu: [] as number[] };
  for (let i = 0; i < options.warmup + options.iterations; i++) {
    const note = notes[i % notes.length]!;
    const cpu = process.cpuUsage();
    instructionIn(note);
    const used = process.cpuUsage(cpu);
    // Interleaved, so load on the machine hits the check and its floor alike.
    const checkUs = micros(() => instructionIn(note));
    const floorUs = micros(() => FLOOR.test(note));
    if (i < options.warmup) continue;
    samples.check.push(checkUs);
    samples.checkCpu.push(used.user + used.system);
    samples.floor.push(floorUs);
  }
  return {
    options,
    instructions: count([...HELD, ...HELD_OUT, ...HELD_OUT_SECOND].map((s) => s.text)),
    disguises: count(disguisedSamples().map((s) => s.text)),
    ordinary: count([...ORDINARY, ...HELD_OUT_ORDINARY, ...HELD_OUT_SECOND_ORDINARY]),
    notes: notes.length,
    noteChars: NOTE_CHARS,
    floorUs: summarize(samples.floor),
    checkUs: summarize(samples.check),
    checkCpuUs: summarize(samples.checkCpu),
  };
}

const percent = (c: HeldCount) => `${c.held} / ${c.total} (${round((100 * c.held) / c.total, 1)}%)`;
const us = (x: Summary) => `${round(x.p50, 0)} / ${round(x.p99, 0)}`;

/** The section's rows for report.ts's table: section, metric, AgentKit, floor, ratio, target. */
export function instructionCheckRows(ic: InstructionCheckResult): [string, string, string, string, string, string][] {
  const s = "4g instructions";
  const times = (x: Summary) => `${round(ratio(x.p50, ic.floorUs.p50), 1)} / ${round(ratio(x.p99, ic.floorUs.p99), 1)}`;
  return [
    [s, "orders to the assistant held", percent(ic.instructions), "", "", "≥ 95%"],
    [s, "their disguises held", percent(ic.disguises), "", "", "≥ 95%"],
    [s, "ordinary notes held by mistake", percent(ic.ordinary), "", "", "≤ 1%"],
    [s, `instructionIn, ${ic.noteChars}-char note p50 / p99 (µs)`, us(ic.checkUs), us(ic.floorUs), times(ic.checkUs), ""],
    [s, "instructionIn, CPU time p50 / p99 (µs)", us(ic.checkCpuUs), "", "", ""],
  ];
}
