import { addedSecret, findSecret, findSecrets, maskSecrets } from "../src/memory/secrets.js";
import { corpusFigures, type Detector, ORDINARY, SECRETS } from "../tests/unit/memory/secret-corpus.js";
import { summarize, type Summary } from "./stats.js";

export interface SecretCheckOptions {
  iterations: number;
  warmup: number;
}

/** How many of the corpus's secrets (every batch) a detector kept out and named right, and how many ordinary notes it flagged. */
type CorpusFigures = ReturnType<typeof corpusFigures>;

export interface SecretCheckResult {
  options: SecretCheckOptions;
  /** AgentKit's detector on the whole corpus (tests/unit/memory/secret-corpus.ts). */
  corpus: CorpusFigures;
  /** The floor on the same corpus: the one pattern a plain key filter looks for (FLOOR). */
  corpusFloor: CorpusFigures;
  notes: number;
  /** Notes that hold one secret of the corpus somewhere in the middle. */
  withSecret: number;
  noteChars: number;
  /** The floor: one pass of one plain pattern (the old check's OpenAI key shape) over the same note. */
  floorUs: Summary;
  /** `findSecret(note)`: every shape, both views. */
  findUs: Summary;
  /** `maskSecrets(note)`: what a transcript, a summary or a text file goes through. */
  maskUs: Summary;
  /** What a memory write of the note checks: the file before and after it. */
  writeUs: Summary;
  /**
   * The same write check in process CPU time (process.cpuUsage around each call): on a shared
   * machine the wall clock's tail is mostly time the process was not running at all.
   */
  writeCpuUs: Summary;
}

const NOTE_CHARS = 2000;
const FLOOR = /\bsk-[A-Za-z0-9_-]{20,}/g;

/** Realistic notes of exactly NOTE_CHARS characters: the corpus's ordinary notes, English and Chinese, one in four with a secret. */
function notesForBench(count: number): { text: string; secret: boolean }[] {
  const zh = ORDINARY.filter((n) => /\p{Script=Han}/u.test(n));
  const en = ORDINARY.filter((n) => !/\p{Script=Han}/u.test(n));
  return Array.from({ length: count }, (_, i) => {
    const pool = i % 3 === 2 ? zh : en;
    const lines: string[] = [];
    let length = 0;
    for (let k = i * 7; length < NOTE_CHARS; k++) {
      const line = `- ${pool[k % pool.length]!}`;
      lines.push(line);
      length += line.length + 1;
      if (i % 4 === 0 && lines.length === 8) lines.push(SECRETS[(i / 4) % SECRETS.length]!.text);
    }
    return { text: lines.join("\n").slice(0, NOTE_CHARS), secret: i % 4 === 0 };
  });
}

const AGENTKIT: Detector = { labels: (text) => findSecrets(text).map((f) => f.label), mask: maskSecrets };
const FLOOR_DETECTOR: Detector = {
  labels: (text) => [...text.matchAll(FLOOR)].map(() => "any"),
  mask: (text) => text.replace(FLOOR, "[secret]"),
};

function micros(work: () => unknown): number {
  const started = performance.now();
  work();
  return (performance.now() - started) * 1000;
}

/** The secret check on 2,000-character notes, timed in-process after a warm-up, beside one plain regular expression pass. */
export function measureSecretCheck(options: SecretCheckOptions): SecretCheckResult {
  const notes = notesForBench(64);
  const file = "## Likes\n- oolong, no sugar\n- hiking on weekends\n\n## Work\n- mobile app in Kotlin and Swift\n";
  const floor = (text: string) => {
    FLOOR.lastIndex = 0;
    let n = 0;
    while (FLOOR.exec(text) !== null) n++;
    return n;
  };
  // What MemoryFile checks on a write: the file before and after it.
  const write = (text: string) => addedSecret(file, `${file}\n## Notes\n${text}\n`);
  const samples = { floor: [] as number[], find: [] as number[], mask: [] as number[], write: [] as number[], writeCpu: [] as number[] };
  for (let i = 0; i < options.warmup + options.iterations; i++) {
    const { text } = notes[i % notes.length]!;
    const cpu = process.cpuUsage();
    const writeUs = micros(() => write(text));
    const used = process.cpuUsage(cpu);
    const times = { floor: micros(() => floor(text)), find: micros(() => findSecret(text)), mask: micros(() => maskSecrets(text)) };
    if (i < options.warmup) continue;
    samples.floor.push(times.floor);
    samples.find.push(times.find);
    samples.mask.push(times.mask);
    samples.write.push(writeUs);
    samples.writeCpu.push(used.user + used.system);
  }
  return {
    options,
    corpus: corpusFigures(AGENTKIT),
    corpusFloor: corpusFigures(FLOOR_DETECTOR),
    notes: notes.length,
    withSecret: notes.filter((n) => n.secret).length,
    noteChars: NOTE_CHARS,
    floorUs: summarize(samples.floor),
    findUs: summarize(samples.find),
    maskUs: summarize(samples.mask),
    writeUs: summarize(samples.write),
    writeCpuUs: summarize(samples.writeCpu),
  };
}
