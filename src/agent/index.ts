export { createEngine, type EngineOptions, type EngineParts } from "./create-engine.js";
export type { TurnMessage } from "./agent-loop.js";
export { ModelClient, ModelError, StoppedError, type ModelErrorKind, type TokenUsage } from "./model-client.js";
export { describeChanges } from "./saved-line.js";
export {
  SessionClosedError,
  SessionEngine,
  TurnForgottenError,
  type CloseOutcome,
  type OpenRequest,
  type SessionSummary,
  type TurnResult,
} from "./session-engine.js";
export type { SessionPlace, SessionRecord, SessionStatus } from "./session-record.js";
export { SessionStore } from "./session-store.js";
export { noTelemetry, type ModelOutcome, type Telemetry, type TurnOutcome } from "./telemetry.js";
