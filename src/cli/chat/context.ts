import type { Say } from "../../lib/locale.js";
import type { SessionEngine } from "../../engine/session-engine.js";
import type { MemoryStore } from "../../memory/index.js";

/** What the chat's commands work with: one person's session and memory, and the screen. */
export interface ChatContext {
  engine: SessionEngine;
  sessionId: string;
  memory: MemoryStore;
  /** The chat's language now (/settings language changes it at once). */
  say: Say;
  setLocale(locale: string): void;
  /** A line (or lines) of the chat's own on stdout. */
  print(text: string): void;
  /** A line about something that went wrong, on stderr. */
  warn(text: string): void;
  /**
   * The ids behind the numbers last shown: `/undo N` and `/save N` mean the Nth line of the
   * last list the person saw, until the next list, however the memory changed in between.
   */
  listed: { undo: string[] | undefined; proposals: string[] | undefined };
}
