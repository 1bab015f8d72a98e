import { resolve } from "node:path";
import Keyv from "keyv";
import { SqliteDb } from "../lib/sqlite-db.js";
import { KEYV_TABLE, SqliteKeyvStore } from "./sqlite-keyv-store.js";
import type { SessionRecord } from "./session-record.js";
import type { SessionStatus } from "../lib/telemetry.js";
import {
  NAMESPACE,
  PAGE,
  PING_TIMEOUT_MS,
  SESSION,
  SESSION_STATUSES,
  SessionStoreBase,
  checkClaim,
  epochKey,
  type WriteVerdict,
} from "./session-store-base.js";
import { withTimeout } from "../lib/with-timeout.js";
import { decodeRecord, encodeRecord } from "./keyv-in-slices.js";

const FIRST = `${NAMESPACE}:${SESSION}`;
/** Just past every session key (";" follows ":"). */
const END = `${NAMESPACE}:session;`;
/**
 * A session row's status and person, in columns of their own set at each write, with a count of
 * its writes. Before, indexes on json_extract over the record and a trigger comparing two
 * json_extracts parsed each record's JSON four to six times a save (10-40 KB a turn); a store made
 * so is moved over at open (withColumns).
 */
const STATUS = "status";
const PERSON = "person";
const WRITES = "writes";
const RANK = (row: string) => `CASE ${row}.${STATUS} WHEN 'open' THEN 0 WHEN 'closing' THEN 1 WHEN 'pending-summary' THEN 2 WHEN 'closed' THEN 3 END`;
const IS_SESSION = (row: string) => `${row}.key > '${FIRST}' AND ${row}.key < '${END}'`;
/** The indexes and trigger on json_extract that stores made before the columns have: dropped at every open. */
const OLD_OBJECTS = [`INDEX ${NAMESPACE}_status`, `INDEX ${NAMESPACE}_person`, `TRIGGER ${NAMESPACE}_status_forward`];
/** keyv's escape (a string that starts with ":" is stored with one more), undone for a person's id read from the JSON. */
const UNESCAPED = (sql: string) => `CASE WHEN substr(${sql}, 1, 1) = ':' THEN substr(${sql}, 2) ELSE ${sql} END`;
const FILL_COLUMNS = `${STATUS} = json_extract(value, '$.value.status'), ${PERSON} = ${UNESCAPED("json_extract(value, '$.value.userId')")}`;
/** An older AgentKit writes the JSON alone: its writes are refused, rather than leave the columns wrong. */
const OLDER_WRITER = "agentkit: a session written by an older AgentKit (stop every AgentKit process before an upgrade)";
/** The triggers' messages, to tell their refusals from other failures. */
const MOVED_ON = "agentkit: session already further along";
const CLAIMS = `${NAMESPACE}_claims`;
const PRUNE_CLAIMS_EVERY = 100;
/** SQLite's default checkpoint point in bytes: 1,000 pages of 4 KiB. */
const WAL_CHECKPOINT_BYTES = 4_096_000;
/** Each person's forget epoch by epochKey (see SessionStoreBase); a row is never deleted. */
const PEOPLE = `${NAMESPACE}_people`;

/**
 * A session's write: a new row, or the stored one with its columns moved (the forward-only trigger
 * refuses a status moving back); nothing at all when the record's epoch is below the person's.
 */
const WRITE_INTO = `INSERT INTO ${KEYV_TABLE} (key, value, ${STATUS}, ${PERSON}, ${WRITES}) SELECT ?, CAST(? AS TEXT), ?, ?, 1
  WHERE ? >= COALESCE((SELECT forget_epoch + forget_epoch % 2 FROM ${PEOPLE} WHERE person = ?), 0)`;
const WRITE = `${WRITE_INTO}
  ON CONFLICT(key) DO UPDATE SET value = excluded.value, ${STATUS} = excluded.${STATUS}, ${PERSON} = excluded.${PERSON},
    ${WRITES} = ${KEYV_TABLE}.${WRITES} + 1
  RETURNING key`;
/** The same write when the stored row's status and person are the record's: no indexed column is set, so no index is touched. */
const SAME_COLUMNS_WRITE = `${WRITE_INTO}
  ON CONFLICT(key) DO UPDATE SET value = excluded.value, ${WRITES} = ${KEYV_TABLE}.${WRITES} + 1
    WHERE ${KEYV_TABLE}.${STATUS} IS excluded.${STATUS} AND ${KEYV_TABLE}.${PERSON} IS excluded.${PERSON}
  RETURNING key`;

/** The session store's schema beside keyv's table, each statement harmless to run again. */
const SCHEMA = `
  ${OLD_OBJECTS.map((object) => `DROP ${object.replace(" ", " IF EXISTS ")};`).join("\n")}
  -- withStatus and countByStatus read this index, not every record (channel and flag rows index as NULL).
  CREATE INDEX IF NOT EXISTS ${NAMESPACE}_session_status ON ${KEYV_TABLE} (${STATUS}, key);
  -- forget and delete-all find a person's sessions here.
  CREATE INDEX IF NOT EXISTS ${NAMESPACE}_session_person ON ${KEYV_TABLE} (${PERSON}, key);
  -- In the database itself, so it holds for every process on the file at once.
  CREATE TRIGGER IF NOT EXISTS ${NAMESPACE}_forward_only BEFORE UPDATE OF ${STATUS} ON ${KEYV_TABLE}
    WHEN ${IS_SESSION("NEW")} AND ${RANK("OLD")} > ${RANK("NEW")}
    BEGIN SELECT RAISE(ABORT, '${MOVED_ON}'); END;
  CREATE TRIGGER IF NOT EXISTS ${NAMESPACE}_older_update BEFORE UPDATE OF value ON ${KEYV_TABLE}
    WHEN ${IS_SESSION("NEW")} AND NEW.${WRITES} IS OLD.${WRITES}
    BEGIN SELECT RAISE(ABORT, '${OLDER_WRITER}'); END;
  CREATE TRIGGER IF NOT EXISTS ${NAMESPACE}_older_insert BEFORE INSERT ON ${KEYV_TABLE}
    WHEN ${IS_SESSION("NEW")} AND NEW.${STATUS} IS NULL
    BEGIN SELECT RAISE(ABORT, '${OLDER_WRITER}'); END;
  CREATE TABLE IF NOT EXISTS ${CLAIMS} (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS ${PEOPLE} (person TEXT PRIMARY KEY, forget_epoch INTEGER NOT NULL);`;

/**
 * Sessions in SQLite (a file in AGENTKIT_HOME, or `memory://` for one process): keyv's table,
 * with a session's status and person in columns of their own and an index on each, a trigger that
 * keeps statuses moving forward, triggers that refuse an older AgentKit's writes, a table of claims
 * and one of forget epochs. Several processes may share the file (the bot and a terminal chat).
 */
export class SqliteSessionStore extends SessionStoreBase {
  private claimsTaken = 0;
  /** The status each record object was last written with by this store (its person never changes). */
  private readonly writtenAs = new WeakMap<SessionRecord, SessionStatus>();

  private constructor(
    keyv: Keyv,
    private readonly db: SqliteDb,
    readonly identity: string | undefined,
  ) {
    super(keyv);
  }

  static async open(uri: string): Promise<SqliteSessionStore> {
    const path = uri.replace(/^sqlite:\/\//, "");
    const db = await SqliteDb.open(path, { keepStatements: true });
    // Opening waits for other openers of the file in JavaScript, not in SQLite: a statement waiting
    // for a lock holds a thread of libuv's pool, and with four of them waiting the opener holding
    // the lock would find no thread for its next statement (five connections of one process).
    // Every step is made so that running it again is harmless.
    const store = await db.withoutWaiting(async () => {
      // A new file's pages are 16 KiB: a session's row (its 10 KB frozen prompt and the conversation)
      // fits in one page for its first dozen turns, where 4 KiB pages spread it over a chain of
      // overflow pages that every save frees and takes again (a quarter less CPU a save). A file
      // made before keeps its pages (SQLite cannot change them in WAL mode).
      await db.exec("PRAGMA page_size=16384");
      const store = await whenNotBusy(() => SqliteKeyvStore.open(db));
      // WAL without an fsync per commit: a killed process loses nothing (the WAL is in the OS
      // cache), only a power cut could; and a turn no longer waits on the disk. Awaited, so a
      // store closed right away does not close the database under them. Switching a new file to
      // WAL needs it to itself, and SQLite answers "busy" at once while another process opening it
      // at the same moment holds it: tried again until it is free.
      await whenNotBusy(() => db.exec("PRAGMA journal_mode=WAL"));
      await db.exec("PRAGMA synchronous=NORMAL");
      // The log is copied back after as many bytes as SQLite's default (1,000 pages of 4 KiB), whatever the pages.
      const [{ page_size: pageSize } = { page_size: 4_096 }] = await db.all<{ page_size: number }>("PRAGMA page_size");
      await db.exec(`PRAGMA wal_autocheckpoint=${Math.max(1, Math.round(WAL_CHECKPOINT_BYTES / pageSize))}`);
      await withColumns(db);
      // Made by the move already; made again here if someone dropped one, and an older AgentKit's
      // indexes and trigger on the JSON (made by an open of its own since the move) dropped.
      await whenNotBusy(() => db.exec(SCHEMA));
      return store;
    });
    // In memory, or SQLite's temporary file (an empty name): gone with the connection, so never complete.
    const identity = path === ":memory:" || path === "" ? undefined : `sqlite:${resolve(path)}`;
    return new SqliteSessionStore(new Keyv({ store, namespace: NAMESPACE, throwOnErrors: true }), db, identity);
  }

  protected async writeRecord(record: SessionRecord): Promise<WriteVerdict> {
    // keyv's own encoding, under keyv's key, so keyv reads it back; written only when the record's
    // epoch is the person's (one statement: atomic for every process on the file).
    // The columns as the encoding starts: a long record's encoding hands the loop back.
    const { status, userId } = record;
    // Bound as bytes made in slices and stored as text: the driver converting a string of megabytes blocks the loop.
    const bytes = await encodeRecord(record);
    const params = [FIRST + record.id, bytes, status, userId, record.epoch ?? 0, epochKey(userId)];
    try {
      // Most saves are a turn's: the status and person as stored, so only the value and the count
      // change, and the two indexes are left alone (a fifth less work a save). Anything else, or
      // nothing written, goes through the statement that moves the columns and says why; a record
      // this store has not written with this status (a session's first save, a close) at once.
      if (this.writtenAs.get(record) === status && (await this.db.all(SAME_COLUMNS_WRITE, params)).length === 1) return "written";
      if ((await this.db.all(WRITE, params)).length === 0) return "forgotten";
      this.writtenAs.set(record, status);
      return "written";
    } catch (error) {
      if (error instanceof Error && error.message.includes(MOVED_ON)) return "moved-on";
      throw error;
    }
  }

  /** Read as bytes and decoded in slices: node-sqlite3 makes a string of a row's text in one block. */
  protected override async readRecord(id: string): Promise<SessionRecord | undefined> {
    const rows = (await this.db.all(`SELECT CAST(value AS BLOB) AS value FROM ${KEYV_TABLE} WHERE key = ?`, [FIRST + id])) as {
      value: Buffer | null;
    }[];
    const bytes = rows[0]?.value;
    return bytes ? decodeRecord(bytes) : undefined;
  }

  protected async deleteRecord(record: SessionRecord): Promise<void> {
    await this.keyv.delete(SESSION + record.id);
  }

  async sessionsOf(userId: string): Promise<string[]> {
    const rows = (await this.db.all(`SELECT key FROM ${KEYV_TABLE} WHERE ${PERSON} = ? AND key > ? AND key < ?`, [userId, FIRST, END])) as {
      key: string;
    }[];
    return rows.map((row) => row.key.slice(FIRST.length));
  }

  async epochOf(userId: string): Promise<number> {
    const rows = (await this.db.all(`SELECT forget_epoch FROM ${PEOPLE} WHERE person = ?`, [epochKey(userId)])) as { forget_epoch: number }[];
    return rows[0]?.forget_epoch ?? 0;
  }

  async beginForget(userId: string): Promise<number> {
    // To the next odd number: after a finished forget (even) the next one, after one a dead process left (odd) the one after.
    const rows = (await this.db.all(
      `INSERT INTO ${PEOPLE} (person, forget_epoch) VALUES (?, 1)
       ON CONFLICT(person) DO UPDATE SET forget_epoch = forget_epoch + 1 + forget_epoch % 2
       RETURNING forget_epoch`,
      [epochKey(userId)],
    )) as { forget_epoch: number }[];
    return rows[0]!.forget_epoch + 1;
  }

  async endForget(userId: string, epoch: number): Promise<void> {
    await this.db.all(`UPDATE ${PEOPLE} SET forget_epoch = ? WHERE person = ? AND forget_epoch = ?`, [epoch, epochKey(userId), epoch - 1]);
  }

  async forgetEpochs(): Promise<{ key: string; epoch: number }[]> {
    const rows = (await this.db.all(`SELECT person, forget_epoch FROM ${PEOPLE} WHERE forget_epoch <> 0`)) as { person: string; forget_epoch: number }[];
    return rows.map((row) => ({ key: row.person, epoch: row.forget_epoch }));
  }

  protected async *stored(statuses: readonly SessionStatus[]): AsyncGenerator<SessionRecord> {
    // Paging by key within one status reads each row once (keyv's own iterator pages with
    // OFFSET, quadratic over 10,000 sessions, and parses every record).
    for (const status of statuses) {
      let after = FIRST;
      for (;;) {
        const rows = (await this.db.all(
          `SELECT key, CAST(value AS BLOB) AS value FROM ${KEYV_TABLE} WHERE ${STATUS} = ? AND key > ? AND key < ? ORDER BY key LIMIT ${PAGE}`,
          [status, after, END],
        )) as { key: string; value: Buffer }[];
        for (const row of rows) {
          // keyv's own decoding (plain JSON.parse would give back ":)" as "::)"), in slices.
          const record = await decodeRecord(row.value);
          if (record) yield record;
        }
        if (rows.length < PAGE) break;
        after = rows.at(-1)!.key;
      }
    }
  }

  async countByStatus(): Promise<Record<SessionStatus, number>> {
    // One statement, four counts the index answers alone; a GROUP BY would read every record
    // to compute the status it outputs.
    const table = KEYV_TABLE;
    const counts = SESSION_STATUSES.map((status, i) => `(SELECT COUNT(*) FROM ${table} WHERE ${STATUS} = '${status}') AS c${i}`);
    const [row] = (await this.db.all(`SELECT ${counts.join(", ")}`)) as { c0: number; c1: number; c2: number; c3: number }[];
    return { open: row?.c0 ?? 0, closing: row?.c1 ?? 0, "pending-summary": row?.c2 ?? 0, closed: row?.c3 ?? 0 };
  }

  async claim(name: string, owner: string, ttlMs: number, options: { from?: string } = {}): Promise<boolean> {
    checkClaim(name, owner, ttlMs);
    const now = Date.now();
    // One statement: taken when free, expired or ours; the row comes back only when it was.
    const rows = await this.db.all(
      `INSERT INTO ${CLAIMS} (name, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE ${CLAIMS}.expires_at <= ? OR ${CLAIMS}.owner = excluded.owner OR ${CLAIMS}.owner = ?
       RETURNING owner`,
      [name, owner, now + ttlMs, now, options.from ?? ""],
    );
    // Claims that are never released (a tidy-up's day) expire; their rows go now and then, not one a day for ever.
    if (++this.claimsTaken % PRUNE_CLAIMS_EVERY === 0) await this.db.all(`DELETE FROM ${CLAIMS} WHERE expires_at <= ?`, [now]);
    return (rows as unknown[]).length === 1;
  }

  async holderOf(name: string): Promise<string | undefined> {
    const rows = (await this.db.all(`SELECT owner FROM ${CLAIMS} WHERE name = ? AND expires_at > ?`, [name, Date.now()])) as { owner: string }[];
    return rows[0]?.owner;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.db.all(`DELETE FROM ${CLAIMS} WHERE name = ? AND owner = ?`, [name, owner]);
  }

  async ping(): Promise<void> {
    await withTimeout(
      this.db.all(`SELECT 1 FROM ${CLAIMS} LIMIT 1`),
      PING_TIMEOUT_MS,
      `the session store (SQLite) did not answer within ${PING_TIMEOUT_MS} ms`,
    );
  }

  /**
   * SQLite keeps old versions of rows in free pages and in its write-ahead log; a VACUUM and a
   * truncating checkpoint leave none behind.
   */
  async purge(): Promise<void> {
    // The kept statements let go of the values last bound to them (a forgotten record's bytes).
    await this.db.forgetBoundValues();
    await this.db.exec("VACUUM");
    await this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  protected async disconnect(): Promise<void> {
    await this.keyv.disconnect();
  }
}

/**
 * Adds the status and person columns to a store made without them, fills them from each session's
 * record, and drops the indexes and trigger that read the JSON: once, in one transaction, so two
 * processes opening the file at once do it once and neither sees it half done.
 */
async function withColumns(db: SqliteDb): Promise<void> {
  const hasColumns = async () => (await db.all<{ name: string }>(`PRAGMA table_info(${KEYV_TABLE})`)).some((column) => column.name === STATUS);
  let moved = false;
  // Other openers wait as long as the move may take (a large store: about 100 MB a second here).
  await whenNotBusy(async () => {
    if (await hasColumns()) return;
    await db.transaction(async () => {
      if (await hasColumns()) return;
      await db.exec(`ALTER TABLE ${KEYV_TABLE} ADD COLUMN ${STATUS} TEXT;
        ALTER TABLE ${KEYV_TABLE} ADD COLUMN ${PERSON} TEXT;
        ALTER TABLE ${KEYV_TABLE} ADD COLUMN ${WRITES} INTEGER NOT NULL DEFAULT 0;`);
      await db.run(`UPDATE ${KEYV_TABLE} SET ${FILL_COLUMNS} WHERE key > ? AND key < ? AND json_valid(value)`, [FIRST, END]);
      // In the same transaction: no older AgentKit can write a session between the move and the triggers that refuse it.
      await db.exec(SCHEMA);
      moved = true;
    });
  }, MOVE_BUSY_MS);
  // The move rewrote every session row into the write-ahead log: it goes back to its usual size.
  if (moved) await db.exec("PRAGMA wal_checkpoint(TRUNCATE)").catch(() => {});
}

/** How long opening waits for another process to let go of a new database file. */
const OPEN_BUSY_MS = 10_000;
/** How long an opener waits for another one moving a store to the columns. */
const MOVE_BUSY_MS = 10 * 60_000;

async function whenNotBusy<T>(work: () => Promise<T>, waitMs = OPEN_BUSY_MS): Promise<T> {
  const until = Date.now() + waitMs;
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= until) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
