import { EventEmitter } from "node:events";
import type { KeyvStoreAdapter, StoredData } from "keyv";
import type { SqliteDb } from "../lib/sqlite-db.js";

/** keyv's table, as @keyv/sqlite 4 made it: stores written before this adapter read the same. */
export const KEYV_TABLE = "keyv";
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${KEYV_TABLE}(key VARCHAR(255) PRIMARY KEY, value TEXT )`;

/**
 * keyv's store on one SQLite connection, with its statements kept prepared (lib/sqlite-db.ts).
 * Hand-written in place of @keyv/sqlite, which prepares, runs and finalizes a new statement for
 * every get and set: the session store's writes are the bot's busiest statements. Same table,
 * same rows (keyv encodes the values). Only what keyv needs is here: keyv reads and deletes many
 * keys one at a time through `get` and `delete` when a store has no `getMany` or `deleteMany`.
 */
export class SqliteKeyvStore extends EventEmitter implements KeyvStoreAdapter {
  readonly opts = { dialect: "sqlite", table: KEYV_TABLE };
  namespace?: string;

  private constructor(private readonly db: SqliteDb) {
    super();
  }

  static async open(db: SqliteDb): Promise<SqliteKeyvStore> {
    await db.run(CREATE_TABLE);
    return new SqliteKeyvStore(db);
  }

  async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
    const row = await this.db.get<{ value: string }>(`SELECT value FROM ${KEYV_TABLE} WHERE key = ?`, [key]);
    return row?.value as StoredData<Value> | undefined;
  }

  // Writes through `all` (with RETURNING where a count is wanted): only `all` uses the kept statements.
  async set(key: string, value: string): Promise<void> {
    await this.db.all(`INSERT INTO ${KEYV_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, [key, value]);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.db.all(`DELETE FROM ${KEYV_TABLE} WHERE key = ? RETURNING key`, [key])).length > 0;
  }

  /** Every key of the namespace (keyv's clear); `%` and `_` in a namespace are matched as themselves. */
  async clear(): Promise<void> {
    if (this.namespace === undefined) await this.db.run(`DELETE FROM ${KEYV_TABLE}`);
    else await this.db.run(`DELETE FROM ${KEYV_TABLE} WHERE substr(key, 1, ?) = ?`, [this.namespace.length + 1, `${this.namespace}:`]);
  }

  async disconnect(): Promise<void> {
    await this.db.close();
  }
}
