import { join } from "node:path";
import sqlite3 from "sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SqliteDb } from "../../../src/lib/sqlite-db.js";
import { makeTempHome } from "../../helpers/temp-home.js";

describe("SqliteDb's kept statements", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("prepares a statement once for every run of its SQL, each run with its own values", async () => {
    const db = await SqliteDb.open(join(await makeTempHome(), "t.sqlite"));
    const prepare = vi.spyOn(sqlite3.Database.prototype, "prepare");
    const all = vi.spyOn(sqlite3.Database.prototype, "all");
    await db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
    for (let i = 0; i < 5; i++) await db.run("INSERT INTO t (k, v) VALUES (?, ?)", [`k${i}`, i]);
    const rows = await Promise.all([0, 3, 4].map((i) => db.get<{ v: number }>("SELECT v FROM t WHERE k = ?", [`k${i}`])));
    expect(rows).toEqual([{ v: 0 }, { v: 3 }, { v: 4 }]);
    expect(await db.run("UPDATE t SET v = v + 1 WHERE v >= ?", [3])).toEqual({ changes: 2 });
    // Three SQL texts, three statements; the driver's prepare-run-finalize path is not taken.
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([
      "INSERT INTO t (k, v) VALUES (?, ?)",
      "SELECT v FROM t WHERE k = ?",
      "UPDATE t SET v = v + 1 WHERE v >= ?",
    ]);
    expect(all).not.toHaveBeenCalled();
    // SQLite refuses to close a connection whose statements are not finalized: close finalizes them.
    await expect(db.close()).resolves.toBeUndefined();
  });

  it("keeps no statement that failed to prepare: the same SQL works once its table exists", async () => {
    const db = await SqliteDb.open(":memory:");
    await expect(db.all("SELECT v FROM later")).rejects.toThrow(/no such table: later/);
    await db.exec("CREATE TABLE later (v INTEGER); INSERT INTO later VALUES (7)");
    expect(await db.all("SELECT v FROM later")).toEqual([{ v: 7 }]);
    await db.close();
  });

  it("runs SQL made up at run time past the statements it keeps, preparing each use", async () => {
    const db = await SqliteDb.open(":memory:");
    const all = vi.spyOn(sqlite3.Database.prototype, "all");
    for (let i = 0; i < 130; i++) expect(await db.get(`SELECT ${i} AS n`)).toEqual({ n: i });
    expect(all).toHaveBeenCalledTimes(30);
    await db.close();
  });
});
