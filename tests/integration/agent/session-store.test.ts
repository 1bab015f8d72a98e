import KeyvSqlite from "@keyv/sqlite";
import type Keyv from "keyv";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelClient } from "../../../src/model/model-client.js";
import { SessionEngine } from "../../../src/engine/session-engine.js";
import { SessionStore } from "../../../src/sessions/session-store.js";
import { silentLogger } from "../../../src/lib/logger.js";
import { startFakeOpenAI } from "../../fakes/fake-openai.js";
import { aliceInThread } from "../../helpers/engine.js";
import { sessionRecord } from "../../helpers/session-stores.js";
import { makeTempHome } from "../../helpers/temp-home.js";

describe("a new session's first save", () => {
  it("is written again with the first turn when it failed, channel pointer included", async () => {
    const home = await makeTempHome();
    const store = await SessionStore.open(home, "memory://");
    // The storage library's write fails once (a busy database, say).
    const keyv = (store as unknown as { keyv: Keyv }).keyv;
    const set = keyv.set.bind(keyv);
    let failures = 1;
    keyv.set = (async (...args: Parameters<Keyv["set"]>) => {
      if (failures-- > 0) throw new Error("SQLITE_BUSY (simulated)");
      return set(...args);
    }) as Keyv["set"];
    const fake = await startFakeOpenAI();
    try {
      fake.setFallback({ text: "hello", firstTokenDelayMs: 50 });
      const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: 0 });
      const engine = new SessionEngine({ home, memory: { defaultTimeZone: "UTC" }, model, store, log: silentLogger, historyBudgetChars: 60_000 });
      const session = await engine.open(aliceInThread);
      expect((await engine.turn(session.id, "hi")).text).toBe("hello");
      await engine.settle();
      expect(await keyv.get(`channel:${aliceInThread.place.channelId}`)).toBe(session.id);
      expect((await keyv.get<{ messages: unknown[] }>(`session:${session.id}`))?.messages).toHaveLength(2);
    } finally {
      await fake.close();
    }
  });
});

describe("opening the SQLite store", () => {
  const rejections: unknown[] = [];
  const record = (reason: unknown) => void rejections.push(reason);
  beforeEach(() => void process.on("unhandledRejection", record));
  afterEach(() => {
    process.off("unhandledRejection", record);
    rejections.length = 0;
  });

  it("can be closed as soon as it is open, 50 times, without a stray rejection", async () => {
    for (let i = 0; i < 50; i++) {
      const store = await SessionStore.open(await makeTempHome());
      await store.close();
    }
    // A query that fails after the close rejects on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rejections).toEqual([]);
  });

  it("is in WAL mode with synchronous=NORMAL once open resolves", async () => {
    const home = await makeTempHome();
    const store = await SessionStore.open(home);
    const adapter = (store as unknown as { sqlite: KeyvSqlite }).sqlite;
    // Another connection reads the mode from the file itself.
    const other = new KeyvSqlite({ uri: `sqlite://${join(home, "sessions.sqlite")}`, busyTimeout: 10_000 });
    try {
      expect(await other.query("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
      expect(await adapter.query("PRAGMA synchronous")).toEqual([{ synchronous: 1 }]);
    } finally {
      await other.disconnect();
      await store.close();
    }
  });
});

describe("the SQLite store's person index", () => {
  /** Every statement the store runs during `work`, with its parameters. */
  async function statementsOf(adapter: KeyvSqlite, work: () => Promise<unknown>): Promise<Array<[string, unknown[]]>> {
    const seen: Array<[string, unknown[]]> = [];
    const query = adapter.query;
    adapter.query = (async (sql: string, ...args: unknown[]) => {
      seen.push([sql, args]);
      return query(sql, ...args);
    }) as KeyvSqlite["query"];
    try {
      await work();
    } finally {
      adapter.query = query;
    }
    return seen;
  }

  it("finds a person's sessions through an index on the person, built at open for a store made before it", async () => {
    const home = await makeTempHome();
    const first = await SessionStore.open(home);
    const people = ["111", "222", "333", "444"];
    await Promise.all(Array.from({ length: 400 }, (_, i) => first.save(sessionRecord(`s${i}`, { userId: people[i % 4], status: i % 3 ? "open" : "closed" }))));
    // A store made before the person index existed.
    await (first as unknown as { sqlite: KeyvSqlite }).sqlite.query("DROP INDEX IF EXISTS agentkit_person");
    await first.close();

    const store = await SessionStore.open(home);
    const adapter = (store as unknown as { sqlite: KeyvSqlite }).sqlite;
    let found: string[] = [];
    const statements = await statementsOf(adapter, async () => {
      found = await store.sessionsOf("222");
    });
    expect(found.sort()).toEqual(Array.from({ length: 100 }, (_, i) => `s${i * 4 + 1}`).sort());
    expect(statements.length).toBeGreaterThan(0);
    for (const [sql, args] of statements) {
      const plan = (await adapter.query(`EXPLAIN QUERY PLAN ${sql}`, ...args)) as { detail: string }[];
      const details = plan.map((row) => row.detail).join("; ");
      expect(details, sql).toMatch(/USING (COVERING )?INDEX agentkit_person/);
      expect(details, sql).not.toMatch(/^SCAN keyv\b|; SCAN keyv\b/);
    }
    await store.close();
  });
});
