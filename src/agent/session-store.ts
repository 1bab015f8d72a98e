import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { RedisSessionStore } from "./redis-session-store.js";
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
      await mkdir(home, { recursive: true });
      return SqliteSessionStore.open(`sqlite://${join(home, "sessions.sqlite")}`);
    }
    const scheme = url.split(":")[0]?.toLowerCase();
    if (scheme === "sqlite") return SqliteSessionStore.open(url);
    if (scheme === "memory") return SqliteSessionStore.open("sqlite://:memory:");
    if (scheme === "redis" || scheme === "rediss") return RedisSessionStore.open(url);
    throw new Error(`SESSION_STORE_URL: unsupported scheme "${scheme}" (sqlite://path, redis://host:port, rediss://host:port)`);
  },
};
