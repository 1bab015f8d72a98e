import sqlite3 from "sqlite3";

export type SqlValue = string | number | bigint | Buffer | null;

/** Statements kept prepared per connection; SQL beyond them (made up at run time) is prepared for each use. */
const KEPT_STATEMENTS = 100;

/**
 * Promises over the callback API of `sqlite3` (built with FTS5). Hand-written because it is a
 * dozen lines: the promise wrappers on npm are either unmaintained or pull in another copy of the
 * driver. Statements run on libuv's thread pool, so a large index update never blocks the event
 * loop (better-sqlite3 would).
 *
 * Each SQL text is prepared once and kept: `Database#all` prepares, runs and finalizes a new
 * statement every time, three trips to the thread pool where a kept statement takes one (a turn's
 * session save cost 0.24 ms of CPU that way, 0.17 kept; bench/README.md). A kept statement is reset
 * after each run by the driver, so it holds no transaction between runs.
 */
export class SqliteDb {
  private readonly statements = new Map<string, Promise<sqlite3.Statement>>();

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

  async run(sql: string, params: SqlValue[] = []): Promise<{ changes: number }> {
    const statement = await this.prepared(sql);
    return new Promise((resolve, reject) => {
      const done = function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(error);
        else resolve({ changes: this.changes });
      };
      if (statement) statement.run(params, done);
      else this.db.run(sql, params, done);
    });
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    const statement = await this.prepared(sql);
    return new Promise((resolve, reject) => {
      const done = (error: Error | null, rows: unknown[]) => (error ? reject(error) : resolve(rows as T[]));
      if (statement) statement.all(params, done);
      else this.db.all(sql, params, done);
    });
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

  /** The kept statements are finalized first: SQLite will not close a connection with statements open. */
  async close(): Promise<void> {
    const kept = [...this.statements.values()];
    this.statements.clear();
    for (const statement of await Promise.allSettled(kept)) {
      if (statement.status === "fulfilled") await new Promise<void>((resolve) => statement.value.finalize(() => resolve()));
    }
    return new Promise((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }

  /** The kept statement for `sql`, prepared at its first use; undefined once KEPT_STATEMENTS are kept. */
  private prepared(sql: string): Promise<sqlite3.Statement> | undefined {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      if (this.statements.size >= KEPT_STATEMENTS) return undefined;
      statement = new Promise((resolve, reject) => {
        const made: sqlite3.Statement = this.db.prepare(sql, (error) => (error ? reject(error) : resolve(made)));
      });
      // SQL that does not prepare (a table not made yet) is tried afresh next time, and its error is the caller's.
      statement.catch(() => this.statements.delete(sql));
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
