import type { Runtime } from "./bots.js";
import { runLoad, type LoadResult } from "./load.js";
import { summarize, type Summary } from "./stats.js";

export interface FirstTextOptions {
  people: number;
  /** Turns per person: the first starts the thread, the others are in it. */
  turns: number;
  tokens: number;
  tokensPerSecond: number;
  ttftMs: number;
  turnTimeoutMs: number;
  nodeArgs?: string[];
  /** Default compiled. */
  runtime?: Runtime;
}

export interface FirstTextResult {
  options: FirstTextOptions;
  samples: number;
  failures: string[];
  /** Model's first token written → first message with text created in Discord. */
  firstVisibleMs: Summary;
  /** Edits of the answer's messages ÷ stream duration (first → last token), per turn. */
  editsPerSecond: Summary;
  /** Edits per turn. */
  editsPerTurn: Summary;
  /** Shortest gap between two consecutive updates (create or edit) of one answer, per turn. */
  minUpdateGapMs: Summary;
  /** Model's last token → final text shown. */
  finalLagMs: Summary;
  streamDurationMs: Summary;
  restPerTurnByRoute: Record<string, number>;
}

/**
 * A model streaming `tokens` chunks at `tokensPerSecond` to AgentKit: how soon the person sees
 * the first text, and how often the message is edited while the stream lasts.
 */
export async function measureFirstText(options: FirstTextOptions): Promise<FirstTextResult> {
  const load: LoadResult = await runLoad("agentkit", {
    people: options.people,
    turns: options.turns,
    pauseMs: 500,
    // Starts 250 ms apart: streams overlap, as they would with several people.
    spreadMs: 250 * Math.max(0, options.people - 1),
    ttftMs: options.ttftMs,
    tokensPerSecond: options.tokensPerSecond,
    replyWords: 0,
    chunkSize: 4,
    replyChars: options.tokens * 4,
    turnTimeoutMs: options.turnTimeoutMs,
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.runtime ? { runtime: options.runtime } : {}),
  });
  const samples = load.samples;
  return {
    options,
    samples: samples.length,
    failures: load.failures,
    firstVisibleMs: summarize(samples.map((s) => s.firstTextAt - s.firstTokenAt)),
    editsPerSecond: summarize(samples.map((s) => s.edits / Math.max(0.001, (s.lastTokenAt - s.firstTokenAt) / 1000))),
    editsPerTurn: summarize(samples.map((s) => s.edits)),
    minUpdateGapMs: summarize(samples.flatMap((s) => (s.updates.length > 1 ? [minGap(s.updates)] : []))),
    finalLagMs: summarize(samples.map((s) => s.finalAt - s.lastTokenAt)),
    streamDurationMs: summarize(samples.map((s) => s.lastTokenAt - s.firstTokenAt)),
    restPerTurnByRoute: load.restPerTurnByRoute,
  };
}

function minGap(times: number[]): number {
  let gap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i]! - times[i - 1]!);
  return gap;
}
