import type { MemoryWriteResult } from "../tools/execute-tool.js";
import type { ModelErrorKind, TokenUsage } from "./model-client.js";

export type TurnOutcome = "ok" | "stopped" | "error";

/** How one model request ended: answered, stopped by the person, or a ModelError's kind. */
export type ModelOutcome = "ok" | "stopped" | ModelErrorKind;

/**
 * What the engine, the model client and the memory tools report as they work. Called on the
 * turn's path, so an implementation only counts (no I/O, no awaiting); the values are fixed
 * words, never a person's id or text.
 */
export interface Telemetry {
  /** A finished turn: AgentKit's own time and the time spent waiting on the model, in ms. */
  turn(outcome: TurnOutcome, ownMs: number, modelMs: number): void;
  /** One model request (a turn's round or a summary), with its final outcome after the SDK's retries. */
  modelRequest(outcome: ModelOutcome): void;
  tokens(usage: TokenUsage): void;
  /** One memory write the model asked for, and what became of it. */
  memoryWrite(result: MemoryWriteResult): void;
}

/** What runs when metrics are off. */
export const noTelemetry: Telemetry = {
  turn() {},
  modelRequest() {},
  tokens() {},
  memoryWrite() {},
};
