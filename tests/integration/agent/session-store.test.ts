import Keyv from "keyv";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteDb, type SqlValue } from "../../../src/lib/sqlite-db.js";
import { ModelClient } from "../../../src/model/model-client.js";
import { SessionEngine } from "../../../src/engine/session-engine.js";
import { SessionStore } from "../../../src/sessions/session-store.js";
import { SessionMovedOnError } from "../../../src/sessions/session-store-base.js";
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

  it("makes a new file with 16 KiB pages, where a session's row fits in one, and keeps a file made before as it is", async () => {
    const home = await makeTempHome();
    const store = await SessionStore.open(home);
    await store.save(sessionRecord("s1", { userId: "111" }), { newest: true });
    // The log is copied back after as many bytes as with 4 KiB pages: 250 pages, not 1,000.
    expect(await (store as unknown as { db: SqliteDb }).db.all("PRAGMA wal_autocheckpoint")).toEqual([{ wal_autocheckpoint: 250 }]);
    await store.close();
    const made = await SqliteDb.open(join(home, "sessions.sqlite"));
    expect(await made.all("PRAGMA page_size")).toEqual([{ page_size: 16_384 }]);
    await made.close();
    // A file from before, in WAL mode with 4 KiB pages: it opens, saves, and its pages stay.
    const older = join(await makeTempHome(), "sessions.sqlite");
    const before = await SqliteDb.open(older);
    await before.exec("PRAGMA page_size=4096; PRAGMA journal_mode=WAL; CREATE TABLE keyv(key VARCHAR(255) PRIMARY KEY, value TEXT)");
    await before.close();
    const reopened = await SessionStore.open(join(older, ".."));
    await reopened.save(sessionRecord("s2", { userId: "111" }), { newest: true });
    expect((await reopened.get("s2"))?.id).toBe("s2");
    expect(await (reopened as unknown as { db: SqliteDb }).db.all("PRAGMA wal_autocheckpoint")).toEqual([{ wal_autocheckpoint: 1_000 }]);
    await reopened.close();
    const after = await SqliteDb.open(older);
    expect(await after.all("PRAGMA page_size")).toEqual([{ page_size: 4_096 }]);
    await after.close();
  });

  it("is in WAL mode with synchronous=NORMAL once open resolves", async () => {
    const home = await makeTempHome();
    const store = await SessionStore.open(home);
    const db = (store as unknown as { db: SqliteDb }).db;
    // Another connection reads the mode from the file itself.
    const other = await SqliteDb.open(join(home, "sessions.sqlite"));
    try {
      expect(await other.all("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
      expect(await db.all("PRAGMA synchronous")).toEqual([{ synchronous: 1 }]);
    } finally {
      await other.close();
      await store.close();
    }
  });
});

describe("opening the SQLite store from several connections at once", () => {
  it("opens a new file from five connections at once, every time: switching it to WAL waits for the others", async () => {
    // SQLite answers "busy" at once, without its busy timeout, to a switch to WAL while another
    // connection holds the new file (two workers of the tidy-up starting together failed so).
    let refused = 0;
    for (let round = 0; round < 40; round++) {
      const home = await makeTempHome();
      const opened = await Promise.allSettled(Array.from({ length: 5 }, () => SessionStore.open(home)));
      refused += opened.filter((o) => o.status === "rejected").length;
      for (const o of opened) if (o.status === "fulfilled") await o.value.close();
    }
    expect(refused).toBe(0);
  }, 60_000);
});

describe("the SQLite store's person index", () => {
  /** Every statement the store runs during `work`, with its parameters. */
  async function statementsOf(db: SqliteDb, work: () => Promise<unknown>): Promise<Array<[string, SqlValue[]]>> {
    const seen: Array<[string, SqlValue[]]> = [];
    const all = db.all.bind(db);
    db.all = (async (sql: string, params: SqlValue[] = []) => {
      seen.push([sql, params]);
      return all(sql, params);
    }) as SqliteDb["all"];
    try {
      await work();
    } finally {
      db.all = all;
    }
    return seen;
  }

  it("finds a person's sessions through an index on the person, built at open for a store made before it", async () => {
    const home = await makeTempHome();
    const first = await SessionStore.open(home);
    const people = ["111", "222", "333", "444"];
    await Promise.all(Array.from({ length: 400 }, (_, i) => first.save(sessionRecord(`s${i}`, { userId: people[i % 4], status: i % 3 ? "open" : "closed" }))));
    // A store made before the person index existed.
    await (first as unknown as { db: SqliteDb }).db.exec("DROP INDEX IF EXISTS agentkit_session_person");
    await first.close();

    const store = await SessionStore.open(home);
    const db = (store as unknown as { db: SqliteDb }).db;
    let found: string[] = [];
    const statements = await statementsOf(db, async () => {
      found = await store.sessionsOf("222");
    });
    expect(found.sort()).toEqual(Array.from({ length: 100 }, (_, i) => `s${i * 4 + 1}`).sort());
    expect(statements.length).toBeGreaterThan(0);
    for (const [sql, args] of statements) {
      const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, args);
      const details = plan.map((row) => row.detail).join("; ");
      expect(details, sql).toMatch(/USING (COVERING )?INDEX agentkit_session_person/);
      expect(details, sql).not.toMatch(/^SCAN keyv\b|; SCAN keyv\b/);
    }
    await store.close();
  });
});

describe("a store made before the status and person columns", () => {
  it("moves its rows over at open: statuses, people and the forward-only rule read the columns, not the JSON", async () => {
    const home = await makeTempHome();
    const path = join(home, "old-sessions.sqlite");
    // The layout of the stores made before: keyv's table, with indexes and a trigger on json_extract.
    const old = await SqliteDb.open(path);
    const status = "json_extract(value, '$.value.status')";
    const rank = (row: string) =>
      `CASE json_extract(${row}.value, '$.value.status') WHEN 'open' THEN 0 WHEN 'closing' THEN 1 WHEN 'pending-summary' THEN 2 WHEN 'closed' THEN 3 END`;
    await old.exec(`CREATE TABLE keyv(key VARCHAR(255) PRIMARY KEY, value TEXT );
      CREATE INDEX agentkit_status ON keyv (${status}, key);
      CREATE INDEX agentkit_person ON keyv (json_extract(value, '$.value.userId'), key);
      CREATE TRIGGER agentkit_status_forward BEFORE UPDATE OF value ON keyv
        WHEN NEW.key > 'agentkit:session:' AND NEW.key < 'agentkit:session;' AND ${rank("OLD")} > ${rank("NEW")}
        BEGIN SELECT RAISE(ABORT, 'agentkit: session already further along'); END`);
    const rows: Array<[string, string]> = [
      ["s1", "open"],
      ["s2", "closed"],
      ["s3", "open"],
    ];
    for (const [id, state] of rows) {
      // keyv stores a string that starts with ":" with one more: the person's column holds the id itself.
      const record = sessionRecord(id, { userId: id === "s3" ? ":222" : "111", status: state as "open" | "closed" });
      await old.run("INSERT INTO keyv (key, value) VALUES (?, ?)", [`agentkit:session:${id}`, String(await new Keyv().serializeData({ value: record }))]);
    }
    await old.close();

    // Two processes open it at once; the move is made once.
    const [store, other] = await Promise.all([SessionStore.open(home, `sqlite://${path}`), SessionStore.open(home, `sqlite://${path}`)]);
    try {
      const ids = async (wanted: "open" | "closed") => {
        const found: string[] = [];
        for await (const record of store.withStatus([wanted])) found.push(record.id);
        return found.sort();
      };
      expect(await ids("open")).toEqual(["s1", "s3"]);
      expect(await ids("closed")).toEqual(["s2"]);
      expect((await store.sessionsOf("111")).sort()).toEqual(["s1", "s2"]);
      expect(await store.sessionsOf(":222")).toEqual(["s3"]);
      expect(await other.countByStatus()).toMatchObject({ open: 2, closed: 1 });
      // A closed session is not opened again by a stale copy.
      const stale = sessionRecord("s2", { userId: "111", status: "open" });
      await expect(store.save(stale)).rejects.toBeInstanceOf(SessionMovedOnError);
      // A save keeps the columns: s1 closes, and is found so.
      await other.save(sessionRecord("s1", { userId: "111", status: "closed" }));
      expect(await ids("closed")).toEqual(["s1", "s2"]);
      const db = (store as unknown as { db: SqliteDb }).db;
      const schema = async () =>
        (await db.all<{ sql: string | null }>("SELECT sql FROM sqlite_master WHERE name LIKE 'agentkit_%'")).map((row) => row.sql ?? "").join("\n");
      expect(await schema()).not.toMatch(/json_extract/);

      // An older AgentKit still running writes the JSON alone: refused, where it would leave the columns wrong.
      const older = (id: string, state: string) => [
        `agentkit:session:${id}`,
        JSON.stringify({ value: sessionRecord(id, { userId: "111", status: state as "open" }) }),
      ];
      await expect(db.run("INSERT INTO keyv (key, value) VALUES (?, ?)", older("s9", "open"))).rejects.toThrow(/older AgentKit/);
      await expect(
        db.run("INSERT INTO keyv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", older("s3", "closed")),
      ).rejects.toThrow(/older AgentKit/);
      // Its open made its index and trigger on the JSON again: the next open drops them.
      await db.exec(`CREATE INDEX IF NOT EXISTS agentkit_status ON keyv (${status}, key)`);
      await other.close();
      const again = await SessionStore.open(home, `sqlite://${path}`);
      await again.close();
      expect(await schema()).not.toMatch(/json_extract/);
    } finally {
      await other.close().catch(() => {});
      await store.close();
    }
  });
});

describe("the SQLite store's keyv rows", () => {
  it("reads what @keyv/sqlite 4 wrote, and @keyv/sqlite reads what it writes (a store made before its own adapter)", async () => {
    const { default: KeyvSqlite } = await import("@keyv/sqlite");
    const { default: KeyvOf } = await import("keyv");
    const home = await makeTempHome();
    const path = join(home, "sessions.sqlite");
    const old = new KeyvOf({ store: new KeyvSqlite({ uri: `sqlite://${path}` }), namespace: "agentkit" });
    await old.set("flag:written-before", true);
    await old.set("item:sign-in", { who: "111", ":colon": ":kept" }, 60_000);
    await old.disconnect();

    const store = await SessionStore.open(home);
    expect(await store.hasFlag("written-before")).toBe(true);
    expect(await store.getItem("sign-in")).toEqual({ who: "111", ":colon": ":kept" });
    await store.setFlag("written-after");
    await store.save(sessionRecord("s1", { userId: "111" }), { newest: true });
    await store.deleteItem("sign-in");
    await store.close();

    const again = new KeyvOf({ store: new KeyvSqlite({ uri: `sqlite://${path}` }), namespace: "agentkit" });
    expect(await again.get("flag:written-after")).toBe(true);
    expect(await again.get("item:sign-in")).toBeUndefined();
    expect((await again.get<{ id: string }>("session:s1"))?.id).toBe("s1");
    await again.disconnect();
  });
});
