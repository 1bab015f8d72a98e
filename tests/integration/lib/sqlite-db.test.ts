import { join } from "node:path";
import sqlite3 from "sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SqliteDb } from "../../../src/lib/sqlite-db.js";
import { makeTempHome } from "../../helpers/temp-home.js";

/** A connection that waits at most `ms` for a lock (the default waits 10 s). */
async function impatient(path: string, ms: number): Promise<SqliteDb> {
  const db = await SqliteDb.open(path, { keepStatements: true });
  await db.exec(`PRAGMA busy_timeout = ${ms}`);
  return db;
}

describe("SqliteDb's kept statements", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("prepares a statement once for every run of its SQL, each run with its own values", async () => {
    const db = await SqliteDb.open(join(await makeTempHome(), "t.sqlite"), { keepStatements: true });
    await db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    const prepare = vi.spyOn(sqlite3.Database.prototype, "prepare");
    const all = vi.spyOn(sqlite3.Database.prototype, "all");
    for (let i = 0; i < 5; i++) await db.all("INSERT INTO t (k, v) VALUES (?, ?)", [`k${i}`, i]);
    const rows = await Promise.all([0, 3, 4].map((i) => db.get<{ v: number }>("SELECT v FROM t WHERE k = ?", [`k${i}`])));
    expect(rows).toEqual([{ v: 0 }, { v: 3 }, { v: 4 }]);
    expect(await db.all("UPDATE t SET v = v + 1 WHERE v >= ? RETURNING k", [3])).toHaveLength(2);
    // Three SQL texts, three statements; the driver's prepare-run-finalize path is not taken.
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([
      "INSERT INTO t (k, v) VALUES (?, ?)",
      "SELECT v FROM t WHERE k = ?",
      "UPDATE t SET v = v + 1 WHERE v >= ? RETURNING k",
    ]);
    expect(all).not.toHaveBeenCalled();
    // SQLite refuses to close a connection whose statements are not finalized: close finalizes them.
    await expect(db.close()).resolves.toBeUndefined();
  });

  it("a write refused as busy keeps no lock: the next writes commit, for this connection and the other", async () => {
    const path = join(await makeTempHome(), "t.sqlite");
    const db = await impatient(path, 50);
    await db.exec("PRAGMA journal_mode=WAL; CREATE TABLE t (k TEXT PRIMARY KEY)");
    const other = await impatient(path, 50);
    await other.exec("BEGIN IMMEDIATE");
    await expect(db.all("INSERT INTO t (k) VALUES (?)", ["refused"])).rejects.toThrow(/SQLITE_BUSY/);
    await other.exec("ROLLBACK");
    // Were the refused statement still open, this write (another statement) would report success
    // and stay uncommitted until the refused one ran again.
    await db.all("INSERT OR REPLACE INTO t (k) VALUES (?)", ["after"]);
    expect(await other.all("SELECT k FROM t")).toEqual([{ k: "after" }]);
    await other.all("INSERT INTO t (k) VALUES (?)", ["from the other"]);
    expect(await db.all("SELECT k FROM t ORDER BY k")).toEqual([{ k: "after" }, { k: "from the other" }]);
    await other.close();
    await db.close();
  });

  it("keeps no statement that failed to prepare: the same SQL works once its table exists", async () => {
    const db = await SqliteDb.open(":memory:", { keepStatements: true });
    await expect(db.all("SELECT v FROM later WHERE v > ?", [0])).rejects.toThrow(/no such table: later/);
    await db.exec("CREATE TABLE later (v INTEGER); INSERT INTO later VALUES (7)");
    expect(await db.all("SELECT v FROM later WHERE v > ?", [0])).toEqual([{ v: 7 }]);
    await db.close();
  });

  it("keeps nothing without parameters, nor after a long value or a forget: no old value stays bound", async () => {
    const db = await SqliteDb.open(":memory:", { keepStatements: true });
    await db.exec("CREATE TABLE t (v TEXT)");
    const prepare = vi.spyOn(sqlite3.Database.prototype, "prepare");
    expect(await db.all("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(await db.all("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(prepare).not.toHaveBeenCalled();
    // A long value: the statement is let go, and made afresh for the next run.
    await db.all("INSERT INTO t (v) VALUES (?)", ["x".repeat(300 * 1024)]);
    await db.all("INSERT INTO t (v) VALUES (?)", ["short"]);
    expect(prepare).toHaveBeenCalledTimes(2);
    await db.all("INSERT INTO t (v) VALUES (?)", ["short again"]);
    expect(prepare).toHaveBeenCalledTimes(2);
    await db.forgetBoundValues();
    await db.all("INSERT INTO t (v) VALUES (?)", ["after the forget"]);
    expect(prepare).toHaveBeenCalledTimes(3);
    expect((await db.all<{ n: number }>("SELECT count(*) AS n FROM t"))[0]!.n).toBe(4);
    await db.close();
  });

  it("closes while statements are made and run: none is left unfinalized", async () => {
    const db = await SqliteDb.open(":memory:", { keepStatements: true });
    const runs = Array.from({ length: 20 }, (_, i) => db.all(`SELECT ? AS n${i}`, [i]).catch(() => "after close"));
    await expect(db.close()).resolves.toBeUndefined();
    await Promise.all(runs);
  });

  it("runs SQL made up at run time past the statements it keeps, preparing each use", async () => {
    const db = await SqliteDb.open(":memory:", { keepStatements: true });
    const all = vi.spyOn(sqlite3.Database.prototype, "all");
    for (let i = 0; i < 130; i++) expect(await db.get(`SELECT ? AS n, ${i} AS m`, [i])).toEqual({ n: i, m: i });
    expect(all).toHaveBeenCalledTimes(30);
    await db.close();
  });

  it("keeps nothing unless asked (the recall index's SQL is made up at run time)", async () => {
    const db = await SqliteDb.open(":memory:");
    const prepare = vi.spyOn(sqlite3.Database.prototype, "prepare");
    for (let i = 0; i < 3; i++) await db.all("SELECT ? AS n", [i]);
    expect(prepare).not.toHaveBeenCalled();
    await db.close();
  });
});
