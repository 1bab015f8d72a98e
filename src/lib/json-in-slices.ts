import type { Result } from "./result.js";
import { TimeSlices } from "./time-slices.js";

/**
 * JSON.parse, in slices that yield to the event loop, with the line and column of an error.
 * Hand-written because neither exists on npm in a well-kept form and JSON.parse does neither:
 * it reads 10 MB in one block of ~50 ms (more on a busy machine), and Node 20's messages often
 * leave out where the error is. Strings are checked here and decoded by JSON.parse, so the
 * values are exactly JSON.parse's.
 */

export type JsonProblem = { kind: "syntax" | "too-deep" | "too-many-values"; line: number; column: number };

export interface JsonReadOptions {
  /** Arrays and objects nested deeper than this are refused (no stack overflow on `[[[[…`). */
  maxDepth?: number;
  /** More values than this (strings, numbers, arrays… in all) are refused: each costs memory and time. */
  maxValues?: number;
  slices?: TimeSlices;
}

class Stop {
  constructor(
    readonly kind: JsonProblem["kind"],
    readonly at: number,
  ) {}
}

// Each pattern is one class or a chain of distinct classes, sticky: linear.
const SPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// What ends a run of plain string characters: a quote, a backslash or a control character.
const STRING_STOP = /["\\\u0000-\u001f]/g;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
/** Characters read between two looks at the clock. */
const LOOK_EVERY = 65_536;

class Reader {
  private at = 0;
  private values = 0;
  private lookedAt = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly maxValues: number,
  ) {}

  /** True once enough was read since the last pause that the driver should look at the clock. */
  private due(at: number): boolean {
    if (at - this.lookedAt < LOOK_EVERY) return false;
    this.lookedAt = at;
    return true;
  }

  *document(): Generator<void, unknown> {
    this.space();
    const value = yield* this.value(0);
    this.space();
    if (this.at < this.text.length) throw new Stop("syntax", this.at);
    return value;
  }

  private *value(depth: number): Generator<void, unknown> {
    if (++this.values > this.maxValues) throw new Stop("too-many-values", this.at);
    const c = this.text[this.at];
    if (c === "{" || c === "[") {
      if (depth >= this.maxDepth) throw new Stop("too-deep", this.at);
      return c === "{" ? yield* this.object(depth + 1) : yield* this.array(depth + 1);
    }
    if (c === '"') return yield* this.string();
    return this.scalar();
  }

  /** A member or item: numbers and literals without a generator of their own (an array of a million 1s). */
  private *item(depth: number): Generator<void, unknown> {
    if (this.due(this.at)) yield;
    const c = this.text[this.at];
    if (c === "{" || c === "[" || c === '"') return yield* this.value(depth);
    if (++this.values > this.maxValues) throw new Stop("too-many-values", this.at);
    return this.scalar();
  }

  private scalar(): unknown {
    const c = this.text[this.at];
    if (c === "t") return this.literal("true", true);
    if (c === "f") return this.literal("false", false);
    if (c === "n") return this.literal("null", null);
    return this.number();
  }

  private *object(depth: number): Generator<void, Record<string, unknown>> {
    this.at++;
    this.space();
    // Object.fromEntries defines "__proto__" as data, as JSON.parse does.
    const entries: [string, unknown][] = [];
    if (this.text[this.at] === "}") {
      this.at++;
      return {};
    }
    for (;;) {
      if (this.text[this.at] !== '"') throw new Stop("syntax", this.at);
      const key = yield* this.string();
      this.space();
      this.expect(":");
      this.space();
      entries.push([key, yield* this.item(depth)]);
      this.space();
      if (this.text[this.at] === "}") {
        this.at++;
        return Object.fromEntries(entries);
      }
      this.expect(",");
      this.space();
    }
  }

  private *array(depth: number): Generator<void, unknown[]> {
    this.at++;
    this.space();
    const items: unknown[] = [];
    if (this.text[this.at] === "]") {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(yield* this.item(depth));
      this.space();
      if (this.text[this.at] === "]") {
        this.at++;
        return items;
      }
      this.expect(",");
      this.space();
    }
  }

  /** A string, decoded a piece at a time: one JSON.parse of 10 MB of escapes would block for 100 ms. */
  private *string(): Generator<void, string> {
    // Kept here, not in the patterns' lastIndex: another read may run while this one pauses.
    let from = this.at + 1;
    let pieceStart = from;
    let escaped = false;
    const pieces: string[] = [];
    const takePiece = (end: number) => {
      const raw = this.text.slice(pieceStart, end);
      pieces.push(escaped ? (JSON.parse(`"${raw}"`) as string) : raw);
      pieceStart = end;
      escaped = false;
    };
    for (;;) {
      // `test`, not `exec`: no match array for each of a million escapes.
      STRING_STOP.lastIndex = from;
      if (!STRING_STOP.test(this.text)) throw new Stop("syntax", this.text.length);
      const stop = STRING_STOP.lastIndex - 1;
      if (this.text.charCodeAt(stop) === 0x22) {
        takePiece(stop);
        this.at = stop + 1;
        return pieces.length === 1 ? pieces[0]! : pieces.join("");
      }
      ESCAPE.lastIndex = stop;
      if (!ESCAPE.test(this.text)) throw new Stop("syntax", stop);
      escaped = true;
      from = ESCAPE.lastIndex;
      if (this.due(from)) {
        takePiece(from);
        yield;
      }
    }
  }

  private number(): number {
    NUMBER.lastIndex = this.at;
    if (!NUMBER.test(this.text)) throw new Stop("syntax", this.at);
    const value = Number(this.text.slice(this.at, NUMBER.lastIndex));
    this.at = NUMBER.lastIndex;
    return value;
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) throw new Stop("syntax", this.at);
    this.at += word.length;
    return value;
  }

  private expect(char: string): void {
    if (this.text[this.at] !== char) throw new Stop("syntax", this.at);
    this.at++;
  }

  private space(): void {
    SPACE.lastIndex = this.at;
    SPACE.test(this.text);
    this.at = SPACE.lastIndex;
  }
}

/** Line and column (from 1, in UTF-16 units) of an offset. */
function lineAndColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf("\n"); newline !== -1 && newline < at; newline = text.indexOf("\n", newline + 1)) {
    line++;
    lineStart = newline + 1;
  }
  return { line, column: at - lineStart + 1 };
}

export async function parseJsonInSlices(text: string, options: JsonReadOptions = {}): Promise<Result<unknown, JsonProblem>> {
  const slices = options.slices ?? new TimeSlices();
  const steps = new Reader(text, options.maxDepth ?? 64, options.maxValues ?? Number.POSITIVE_INFINITY).document();
  try {
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return { ok: true, value: step.value };
      await slices.pause();
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ok: false, error: { kind: error.kind, ...lineAndColumn(text, error.at) } };
  }
}
