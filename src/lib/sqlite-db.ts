import sqlite3 from "sqlite3";

export type SqlValue = string | number | bigint | Buffer | null;

/** Statements kept prepared per connection; SQL beyond them is prepared for each use. */
const KEPT_STATEMENTS = 100;
/** How long a statement waits for another connection's lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000;
/** A statement that was given a longer value is not kept: what is bound stays bound until its next run. */
const KEPT_VALUE_BYTES = 256 * 1024;

export interface SqliteDbOptions {
  /**
   * Keep a prepared statement per SQL text for `all` with parameters (the session store: its SQL is
   * a fixed set). `Database#all` prepares, runs and finalizes a new statement every time, three
   * trips to the thread pool where a kept statement takes one (a turn's session save cost 0.24 ms of
   * CPU that way, 0.17 kept). Off for SQL made up at run time (the recall index's `IN (?, …)` lists).
   */
  keepStatements?: boolean;
}

/**
 * Promises over the callback API of `sqlite3` (built with FTS5). Hand-written because it is a
 * dozen lines: the promise wrappers on npm are either unmaintained or pull in another copy of the
 * driver. Statements run on libuv's thread pool, so a large index update never blocks the event
 * loop (better-sqlite3 would).
 *
 * A kept statement that ran to its end holds no lock; one that failed (SQLITE_BUSY, say) would
 * hold its write open until its next run (the driver resets a statement only when it runs again),
 * so it is finalized and made afresh next time. Its values stay bound until its next run: a long
 * one is not kept, and `forgetBoundValues` (after a forget) finalizes every kept statement.
 */
export class SqliteDb {
  private readonly statements = new Map<string, Promise<sqlite3.Statement>>();
  private closing = false;

  private constructor(
    private readonly db: sqlite3.Database,
    private readonly keep: boolean,
  ) {}

  static open(path: string, options: SqliteDbOptions = {}): Promise<SqliteDb> {
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, (error) => {
        if (error) return reject(error);
        db.configure("busyTimeout", BUSY_TIMEOUT_MS);
        resolve(new SqliteDb(db, options.keepStatements ?? false));
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

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    // No parameters, nothing kept: an empty list would leave the last run's values bound.
    const statement = this.keep && params.length > 0 ? this.prepared(sql) : undefined;
    if (!statement) return new Promise((resolve, reject) => this.db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
    const kept = await statement;
    return new Promise((resolve, reject) =>
      kept.all(params, (error: Error | null, rows: unknown[]) => {
        if (error || params.some(isLong)) this.drop(sql, statement, kept);
        if (error) reject(error);
        else resolve(rows as T[]);
      }),
    );
  }

  async get<T>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /**
   * Runs `work` with SQLite answering "busy" at once instead of waiting for another connection's
   * lock: a wait blocks a thread of libuv's pool, and a transaction of several trips would find
   * every thread taken by connections waiting for it. The caller retries; nothing else may use
   * this connection meanwhile (opening).
   */
  async withoutWaiting<T>(work: () => Promise<T>): Promise<T> {
    this.db.configure("busyTimeout", 0);
    try {
      return await work();
    } finally {
      this.db.configure("busyTimeout", BUSY_TIMEOUT_MS);
    }
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

  /** Finalizes every kept statement, and with them the values last bound to them (a forget's words). */
  async forgetBoundValues(): Promise<void> {
    const kept = [...this.statements.values()];
    this.statements.clear();
    for (const statement of kept) {
      const made = await statement.catch(() => undefined);
      if (made) await finalize(made);
    }
  }

  /** The kept statements are finalized first: SQLite will not close a connection with statements open. */
  async close(): Promise<void> {
    this.closing = true;
    await this.forgetBoundValues();
    return new Promise((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }

  /** The kept statement for `sql`, prepared at its first use; undefined once KEPT_STATEMENTS are kept, or while closing. */
  private prepared(sql: string): Promise<sqlite3.Statement> | undefined {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      if (this.closing || this.statements.size >= KEPT_STATEMENTS) return undefined;
      statement = new Promise((resolve, reject) => {
        const made: sqlite3.Statement = this.db.prepare(sql, (error) => (error ? reject(error) : resolve(made)));
      });
      // SQL that does not prepare (a table not made yet) is tried afresh next time, and its error is the caller's.
      statement.catch(() => this.statements.delete(sql));
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A kept statement that failed, or holds a long value, is finalized (in its turn, after any run queued on it) and made afresh next time. */
  private drop(sql: string, statement: Promise<sqlite3.Statement>, made: sqlite3.Statement): void {
    if (this.statements.get(sql) === statement) this.statements.delete(sql);
    void finalize(made);
  }
}

const isLong = (value: SqlValue) => (typeof value === "string" || Buffer.isBuffer(value)) && value.length > KEPT_VALUE_BYTES;

function finalize(statement: sqlite3.Statement): Promise<void> {
  return new Promise((resolve) => statement.finalize(() => resolve()));
}
