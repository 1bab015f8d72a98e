import sqlite3 from "sqlite3";

export type SqlValue = string | number | bigint | Buffer | null;

/**
 * Promises over the callback API of `sqlite3` (the package @keyv/sqlite already brings, built
 * with FTS5). Hand-written because it is a dozen lines: the promise wrappers on npm are either
 * unmaintained or pull in another copy of the driver. Statements run on libuv's thread pool,
 * so a large index update never blocks the event loop (better-sqlite3 would).
 */
export class SqliteDb {
  private constructor(private readonly db: sqlite3.Database) {}

  static open(path: string): Promise<SqliteDb> {
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, (error) => {
        if (error) return reject(error);
        db.configure("busyTimeout", 10_000);
        resolve(new SqliteDb(db));
      });
    });
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (error) => (error ? reject(error) : resolve())));
  }

  run(sql: string, params: SqlValue[] = []): Promise<{ changes: number }> {
    return new Promise((resolve, reject) =>
      this.db.run(sql, params, function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(error);
        else resolve({ changes: this.changes });
      }),
    );
  }

  all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => this.db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
  }

  async get<T>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /** BEGIN IMMEDIATE takes the write lock at once, so two processes updating one index wait in turn. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.exec("BEGIN IMMEDIATE");
    try {
      const result = await work();
      await this.exec("COMMIT");
      return result;
    } catch (error) {
      await this.exec("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}
