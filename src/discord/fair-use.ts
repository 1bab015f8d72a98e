import type { FairUseLimits } from "../config.js";

/** Why a message was not read: too many a minute, the conversation's queue full, or the person answered elsewhere already. */
export type Refusal = { reason: "rate"; perMinute: number } | { reason: "queue"; waiting: number } | { reason: "elsewhere"; conversations: number };

/** What becomes of a message: answered now, answered with the next turn of its conversation, or not read. */
export type Admission = { kind: "run" } | { kind: "queued" } | { kind: "refused"; refusal: Refusal };

const MINUTE_MS = 60_000;

/**
 * One process's fair-use book: per person, messages in the last minute and conversations
 * answering them now; per conversation (a thread or DM, by channel id), the messages waiting
 * for its answer. Hand-written: a sliding window and a queue are a few lines, and the limits
 * are counted where the messages arrive (each shard counts the people it serves).
 */
export class FairUse<T> {
  /** When each person's messages of the last minute were taken, oldest first. */
  private readonly sent = new Map<string, number[]>();
  /** Conversations answering now, with whose they are and what waits for them. */
  private readonly running = new Map<string, { person: string; waiting: T[] }>();
  /** How many conversations answer each person now. */
  private readonly answering = new Map<string, number>();
  private lastSweep = 0;

  constructor(
    private readonly limits: FairUseLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Starting a conversation that answers nothing yet (/chat): counted as a message, or refused. */
  start(person: string): Refusal | undefined {
    const refusal = this.overRate(person);
    if (!refusal) this.count(person);
    return refusal;
  }

  /**
   * A message from `person` for `conversation`. "run": the caller answers it, then asks next()
   * until nothing waits; "queued": the running caller gets it from next().
   */
  offer(person: string, conversation: string, item: T): Admission {
    const rate = this.overRate(person);
    if (rate) return { kind: "refused", refusal: rate };
    const running = this.running.get(conversation);
    if (running) {
      if (running.waiting.length >= this.limits.queuePerSession) {
        return { kind: "refused", refusal: { reason: "queue", waiting: running.waiting.length } };
      }
      running.waiting.push(item);
      this.count(person);
      return { kind: "queued" };
    }
    const answering = this.answering.get(person) ?? 0;
    if (answering >= this.limits.turnsAtOnce) return { kind: "refused", refusal: { reason: "elsewhere", conversations: answering } };
    this.running.set(conversation, { person, waiting: [] });
    this.answering.set(person, answering + 1);
    this.count(person);
    return { kind: "run" };
  }

  /** After a turn of `conversation`: everything that waited, answered together next; empty when nothing did (it is free then). */
  next(conversation: string): T[] {
    const running = this.running.get(conversation);
    if (!running) return [];
    if (running.waiting.length > 0) return running.waiting.splice(0);
    this.running.delete(conversation);
    const answering = (this.answering.get(running.person) ?? 1) - 1;
    if (answering > 0) this.answering.set(running.person, answering);
    else this.answering.delete(running.person);
    return [];
  }

  private overRate(person: string): Refusal | undefined {
    const recent = this.recent(person);
    return recent.length >= this.limits.messagesPerMinute ? { reason: "rate", perMinute: this.limits.messagesPerMinute } : undefined;
  }

  private count(person: string): void {
    const recent = this.recent(person);
    recent.push(this.clock());
    this.sent.set(person, recent);
  }

  /** The person's messages of the last minute; once a minute, people quiet for a minute are forgotten. */
  private recent(person: string): number[] {
    const now = this.clock();
    if (now - this.lastSweep > MINUTE_MS) {
      this.lastSweep = now;
      for (const [who, times] of this.sent) if ((times.at(-1) ?? 0) <= now - MINUTE_MS) this.sent.delete(who);
    }
    const times = this.sent.get(person) ?? [];
    let expired = 0;
    while (expired < times.length && times[expired]! <= now - MINUTE_MS) expired++;
    return expired > 0 ? times.slice(expired) : times;
  }
}
