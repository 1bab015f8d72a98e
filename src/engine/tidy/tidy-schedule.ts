import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../lib/logger.js";
import { noTelemetry, type Telemetry, type TidyRunOutcome } from "../../lib/telemetry.js";
import { localDate, localTime } from "../../lib/time.js";
import { TimeSlices } from "../../lib/time-slices.js";
import type { MemoryStore } from "../../memory/memory-store.js";
import { tidyAsksFirst } from "../../memory/settings.js";
import { readTidyState } from "../../memory/tidy/tidy-state.js";
import type { ModelClient } from "../../model/model-client.js";
import type { SessionStore } from "../../sessions/session-store.js";
import { countChars } from "../../lib/text.js";
import { NEARLY_FULL, tidyUp, type TidyResult } from "./tidy-up.js";
import { isSnowflake } from "../../lib/snowflake.js";

export interface TidyScheduleOptions {
  home: string;
  memoryOf(userId: string): MemoryStore;
  model: ModelClient;
  /** Claims in the session store: exactly one process runs a person's tidy-up of a day, shards included. */
  store: SessionStore;
  /** This process, as claims name it. */
  owner: string;
  /** TIDY_AT: the local time ("HH:mm") from which a person's run of the day may start. */
  at: string;
  /** TIDY_CONCURRENCY: runs at once in this process. */
  concurrency: number;
  /** The model's context in tokens (OPENAI_CONTEXT_TOKENS): each run's sources fit it. */
  contextTokens?: number;
  log: Logger;
  telemetry?: Telemetry | undefined;
  clock?: () => Date;
  /** How often to look for people who are due (default 5 minutes). */
  everyMs?: number;
  /** Told each finished run (tests, the notice). */
  onRun?: (userId: string, result: TidyResult) => void;
}

/** A day's claim outlives the day in every zone, so a restart the same day does not run again. */
const CLAIM_MS = 36 * 3_600_000;
const PACE_EVERY = 20;
const PACE_MS = 5;

/**
 * The nightly tidy-up: every few minutes, the people whose local time has passed TIDY_AT, who
 * have not had a run today, who talked since their last run and did not turn it off, are queued;
 * at most `concurrency` runs go at once. A close that leaves a file nearly full queues its person
 * at once (still one run a day). Each run is claimed in the session store first.
 */
export class TidySchedule {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private readonly stop = new AbortController();
  private closed = false;

  constructor(private readonly options: TidyScheduleOptions) {}

  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.scan(), this.options.everyMs ?? 300_000);
    this.timer.unref();
    void this.scan();
  }

  /** Runs going now (the bench and tests watch it). */
  get active(): number {
    return this.running.size;
  }

  /** Looks through everyone once and queues who is due; resolves when the look is done (not the runs). */
  scan(): Promise<void> {
    this.scanning ??= this.scanPeople().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  /** After a conversation closed: a file left above 90% of its cap gets the day's run now. */
  afterClose(userId: string): void {
    const memory = this.options.memoryOf(userId);
    const full = [memory.user, memory.memory].some((file) => countChars(file.readIfExistsSync() ?? "") > NEARLY_FULL * file.cap);
    if (full) this.soon(userId);
  }

  /** This person's run of the day may go now, whatever the hour. */
  soon(userId: string): void {
    void this.consider(userId, true).catch((error: unknown) => this.options.log.warn({ err: error }, "tidy-up: could not check a person after a close"));
  }

  /** Waits for the queue to empty and the runs to end (tests, the bench). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.queue.length > 0 || this.scanning) {
      await Promise.all([...this.running.values(), this.scanning]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Stops scanning and starting runs; a run under way is cut off (it writes nothing) and waited for. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.queue.length = 0;
    this.queued.clear();
    this.stop.abort();
    await this.scanning;
    await Promise.all(this.running.values());
  }

  private async scanPeople(): Promise<void> {
    const names = await readdir(join(this.options.home, "users")).catch(() => [] as string[]);
    // Ten thousand people are ten thousand small reads. Nothing here is urgent: other people's turns
    // go between them every millisecond, and the look is paced (a few ms' rest every 20 people), so
    // 10,000 people take some seconds of a five-minute round and no turn waits behind it.
    const slices = new TimeSlices(1);
    let looked = 0;
    for (const name of names) {
      if (this.closed) return;
      if (!isSnowflake(name)) continue;
      await this.consider(name, false).catch((error: unknown) => this.options.log.warn({ err: error }, "tidy-up: could not check a person"));
      await slices.pause();
      if (++looked % PACE_EVERY === 0) await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
  }

  /** Queues a person whose run of the day is due (`now`: after a close, whatever the hour). */
  private async consider(userId: string, now: boolean): Promise<void> {
    if (this.closed || this.queued.has(userId) || this.running.has(userId)) return;
    // forTurn: settings.json read once, not again by timeZone().
    const memory = this.options.memoryOf(userId).forTurn();
    if ((memory.readSettings().tidyUp ?? "on") === "off") return;
    const clock = this.clock();
    const { zone } = memory.timeZone();
    const today = localDate(clock, zone);
    const state = readTidyState(memory.dir);
    if (state.lastAttempt === today) return;
    if (!now) {
      if (localTime(clock, zone) < this.options.at) return;
      // Only people who talked since their last run: the conversations folder changes with each new file.
      const folder = await stat(memory.conversationsDir).catch(() => undefined);
      if (!folder || (state.lastRun !== undefined && folder.mtimeMs <= Date.parse(state.lastRun))) return;
    }
    this.queued.add(userId);
    this.queue.push(userId);
    this.next();
  }

  private next(): void {
    while (!this.closed && this.running.size < this.options.concurrency && this.queue.length > 0) {
      const userId = this.queue.shift()!;
      this.queued.delete(userId);
      const run = this.run(userId).finally(() => {
        this.running.delete(userId);
        this.next();
      });
      this.running.set(userId, run);
    }
  }

  private async run(userId: string): Promise<void> {
    const memory = this.options.memoryOf(userId);
    const clock = this.clock();
    const claim = `tidy:${userId}:${localDate(clock, memory.timeZone().zone)}`;
    try {
      if (!(await this.options.store.claim(claim, this.options.owner, CLAIM_MS))) return;
      // Another process may have finished it before this one's claim expired (a restart the same day).
      if (readTidyState(memory.dir).lastAttempt === localDate(clock, memory.timeZone().zone)) return;
      const setting = memory.readSettings().tidyUp ?? "on";
      if (setting === "off") return;
      // A signal of its own per run: the model client leaves a listener on the signal it gets, and
      // ten thousand runs on the schedule's one signal would keep ten thousand listeners.
      const own = new AbortController();
      const stop = () => own.abort();
      this.stop.signal.addEventListener("abort", stop, { once: true });
      const result = await tidyUp(memory, this.options.model, {
        now: clock,
        ask: tidyAsksFirst(memory.readSettings()),
        signal: own.signal,
        forgetEpoch: () => this.options.store.epochOf(userId),
        ...(this.options.contextTokens ? { contextTokens: this.options.contextTokens } : {}),
      }).finally(() => this.stop.signal.removeEventListener("abort", stop));
      (this.options.telemetry ?? noTelemetry).tidyRun?.(
        outcomeOf(result),
        "applied" in result ? countKinds(result.applied) : {},
        "dropped" in result ? result.dropped : {},
      );
      this.options.onRun?.(userId, result);
      if (result.kind === "failed")
        this.options.log.warn(
          { reason: result.reason, detail: result.reason === "model" ? result.detail : undefined, server: result.server },
          "tidy-up: a run changed nothing; it is tried again the next night",
        );
    } catch (error) {
      this.options.log.error({ err: error }, "tidy-up: a run failed");
    }
  }

  private clock(): Date {
    return this.options.clock?.() ?? new Date();
  }
}

function outcomeOf(result: TidyResult): TidyRunOutcome {
  return result.kind === "failed" ? `failed-${result.reason}` : result.kind === "dry-run" ? "nothing" : result.kind;
}

function countKinds(applied: readonly { kind: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { kind } of applied) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
