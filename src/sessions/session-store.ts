import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_DIR_MODE } from "../lib/private-files.js";
import type { SessionStoreBase } from "./session-store-base.js";
import { SqliteSessionStore } from "./sqlite-session-store.js";

export { SessionForgottenError, SessionMovedOnError } from "./session-store-base.js";

/** Sessions persisted by keyv: SQLite in AGENTKIT_HOME by default, or Redis shared by several processes. */
export type SessionStore = SessionStoreBase;

export const SessionStore = {
  /**
   * `url` unset: SQLite at $AGENTKIT_HOME/sessions.sqlite. `sqlite://<path>`, `memory://` (SQLite
   * in memory, one process), `redis://…` and `rediss://…` otherwise.
   */
  async open(home: string, url?: string): Promise<SessionStore> {
    if (url === undefined) {
      await mkdir(home, { recursive: true, mode: PRIVATE_DIR_MODE });
      return SqliteSessionStore.open(`sqlite://${join(home, "sessions.sqlite")}`);
    }
    const scheme = url.split(":")[0]?.toLowerCase();
    if (scheme === "sqlite") return SqliteSessionStore.open(url);
    if (scheme === "memory") return SqliteSessionStore.open("sqlite://:memory:");
    if (scheme === "redis" || scheme === "rediss") {
      // Loaded only for Redis: its client costs ~0.1 s at every start of the CLI and the terminal chat.
      const { RedisSessionStore } = await import("./redis-session-store.js");
      return RedisSessionStore.open(url);
    }
    throw new Error(`SESSION_STORE_URL: unsupported scheme "${scheme}" (sqlite://path, redis://host:port, rediss://host:port)`);
  },
};
