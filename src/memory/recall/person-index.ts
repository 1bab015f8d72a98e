import { mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { dateOfConversation } from "../conversation-log.js";
import { dateOfLog, localDate } from "../../lib/time.js";
import { indexText } from "./search-text.js";
import { SqliteDb, type SqlValue } from "../../lib/sqlite-db.js";
import { unitsOfConversation, unitsOfSections, type RecallSource, type Unit } from "./units.js";
import { PRIVATE_DIR_MODE } from "../../lib/private-files.js";
import { TimeSlices } from "../../lib/time-slices.js";
import { FOLLOWED, statsOf } from "../../lib/stats-of.js";
import { FILE_TABLE, WHOLE_FILE_KINDS } from "../file-kinds.js";

/**
 * Bumped when the layout, the tokenizing or what units hold changes: an older index is rebuilt
 * from the files. 2: secrets masked in units (an index from before held them as written). 3: which
 * units a public place may find. 4: which server's public places (a public thread is its server's).
 */
const SCHEMA_VERSION = "4";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(path TEXT PRIMARY KEY, stamp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS units(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL, ord INTEGER NOT NULL, source TEXT NOT NULL, date TEXT NOT NULL,
  title TEXT NOT NULL, speaker TEXT, name TEXT, text TEXT NOT NULL, shared TEXT);
CREATE INDEX IF NOT EXISTS units_by_path ON units(path);
CREATE VIRTUAL TABLE IF NOT EXISTS units_fts USING fts5(body, context, title, tokenize = 'porter unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS vectors(unit_id INTEGER PRIMARY KEY, model TEXT NOT NULL, vec BLOB NOT NULL);
`;

/** A file the index reads, and what it is. */
interface SourceFile {
  /** Relative to the person's folder, with forward slashes. */
  path: string;
  source: RecallSource;
  /** From the file name for logs and conversations; from the last change for the memory files. */
  date: string | undefined;
  stamp: string;
}

export interface UnitRow {
  id: number;
  path: string;
  ord: number;
  source: RecallSource;
  date: string;
  title: string;
  speaker: string | null;
  name: string | null;
  text: string;
  /** Where a public place may see it (Unit.sharedIn): a server's id, "*" anywhere, null in no public place. */
  shared: string | null;
}

/** Local dates, both inclusive, and the sources that have dates of their own. */
export interface DateRange {
  since: string;
  until: string;
  sources: readonly RecallSource[];
}

export interface SyncReport {
  /** Files read again because they are new or changed. */
  read: number;
  removed: number;
  units: number;
}

const MEMORY_FILES: [string, RecallSource][] = WHOLE_FILE_KINDS.map((kind) => [FILE_TABLE[kind].label, kind]);
const ROWS_PER_INSERT = 400;

/** The recall index of one person ($AGENTKIT_HOME/index/<id>.sqlite), derived from their files only. */
export class PersonIndex {
  private readonly slices = new TimeSlices();
  private stamps: { generation: number; known: ReadonlyMap<string, string> } | undefined;
  private constructor(
    readonly dir: string,
    readonly db: SqliteDb,
  ) {}

  static async open(dir: string, indexPath: string): Promise<PersonIndex> {
    await mkdir(dirname(indexPath), { recursive: true, mode: PRIVATE_DIR_MODE });
    const db = await SqliteDb.open(indexPath);
    try {
      // A small page cache per index: a bot keeps several open, one per person searching or writing.
      // secure_delete: text dropped from the index (a forgotten conversation) is overwritten, not left in free pages.
      await db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -1024; PRAGMA secure_delete = ON;");
      await db.exec(SCHEMA);
      // Checked inside the write lock: another connection may be filling a new index meanwhile.
      await db.transaction(async () => {
        const version = await db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'");
        if (version?.value === SCHEMA_VERSION) return;
        // An older index is read again from the files, in tables of this version's shape. Dropped
        // tables' pages are overwritten (secure_delete): an older index may hold secrets.
        await db.exec("DROP TABLE IF EXISTS units; DROP TABLE IF EXISTS units_fts; DROP TABLE IF EXISTS vectors; DELETE FROM sources;");
        await db.exec(SCHEMA);
        await db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?)", [SCHEMA_VERSION]);
      });
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
    return new PersonIndex(dir, db);
  }

  /** A number that changes whenever the units or vectors change, in any process. */
  async generation(): Promise<number> {
    return Number((await this.db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'generation'"))?.value ?? 0);
  }

  /** Reads the files that are new or changed since the last sync and drops those that are gone. */
  async sync(zone: string): Promise<SyncReport> {
    // The files are listed on this thread while SQLite's thread reads what the index holds.
    const [files, known] = await Promise.all([listSources(this.dir, zone), this.knownStamps()]);
    const changed = files.filter((f) => known.get(f.path) !== f.stamp);
    const present = new Set(files.map((f) => f.path));
    const gone = [...known.keys()].filter((path) => !present.has(path));
    if (changed.length === 0 && gone.length === 0) return { read: 0, removed: 0, units: 0 };
    return this.db.transaction(() => this.apply(changed, gone));
  }

  /**
   * What the index holds: each file's stamp. Kept between syncs while the generation stands (any
   * change, by any process, moves it); the generation is read first, so a change made between the
   * two reads only makes the next sync read the table again.
   */
  private async knownStamps(): Promise<ReadonlyMap<string, string>> {
    const generation = await this.generation();
    if (this.stamps?.generation === generation) return this.stamps.known;
    const known = new Map((await this.db.all<{ path: string; stamp: string }>("SELECT path, stamp FROM sources")).map((r) => [r.path, r.stamp]));
    this.stamps = { generation, known };
    return known;
  }

  /** Forgets everything and reads every file again, in one transaction: a search never sees it empty. */
  async rebuild(zone: string): Promise<SyncReport> {
    const files = await listSources(this.dir, zone);
    return this.db.transaction(async () => {
      await this.db.exec("DELETE FROM sources; DELETE FROM units; DELETE FROM units_fts; DELETE FROM vectors;");
      return this.apply(files, []);
    });
  }

  /** The best keyword matches of an FTS5 expression: (unit, BM25 rank; lower is better). */
  async keywordMatches(
    expression: string,
    limit: number,
    weights: { body: number; context: number; title: number },
    range?: DateRange,
  ): Promise<(UnitRow & { rank: number })[]> {
    // The range is part of the query, not a filter on its best rows: an old match is found however many newer ones there are.
    const [within, bounds] = rangeClause(range);
    const rank = [weights.body, weights.context, weights.title];
    // Without a range, the best rows are chosen inside the full-text index and only they are joined
    // to their units: a common word matches thousands of rows, and reading each one's text cost more than ranking it.
    if (!within)
      return this.db.all(
        `SELECT u.*, best.rank FROM (SELECT rowid, bm25(units_fts, ?, ?, ?) AS rank FROM units_fts WHERE units_fts MATCH ? ORDER BY rank LIMIT ?) best
         JOIN units u ON u.id = best.rowid ORDER BY best.rank`,
        [...rank, expression, limit],
      );
    return this.db.all(
      `SELECT u.*, bm25(units_fts, ?, ?, ?) AS rank FROM units_fts JOIN units u ON u.id = units_fts.rowid
       WHERE units_fts MATCH ?${within} ORDER BY rank LIMIT ?`,
      [...rank, expression, ...bounds, limit],
    );
  }

  /** The daily logs' entries (the summaries of conversations) of a range, newest first, rank 0. */
  async summariesBetween(range: DateRange, limit: number): Promise<(UnitRow & { rank: number })[]> {
    return this.db.all(
      `SELECT u.*, 0 AS rank FROM units u WHERE u.source = 'daily' AND u.date >= ? AND u.date <= ? ORDER BY u.date DESC, u.ord DESC, u.id LIMIT ?`,
      [range.since, range.until, limit * 2],
    );
  }

  async unitsById(ids: readonly number[]): Promise<UnitRow[]> {
    if (ids.length === 0) return [];
    return this.db.all(`SELECT * FROM units WHERE id IN (${ids.map(() => "?").join(",")})`, [...ids]);
  }

  /** Units without a vector of this model, oldest first. */
  async unitsWithoutVector(model: string, limit: number): Promise<UnitRow[]> {
    return this.db.all(`SELECT u.* FROM units u LEFT JOIN vectors v ON v.unit_id = u.id AND v.model = ? WHERE v.unit_id IS NULL ORDER BY u.id LIMIT ?`, [
      model,
      limit,
    ]);
  }

  /**
   * Stores vectors for units that still exist (a sync may have dropped them meanwhile). An
   * empty blob marks a unit the embeddings server refused, so it is not asked for again.
   */
  async storeVectors(model: string, vectors: { id: number; blob: Buffer }[]): Promise<void> {
    await this.db.transaction(async () => {
      for (const { id, blob } of vectors) {
        await this.db.run("INSERT OR REPLACE INTO vectors(unit_id, model, vec) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM units WHERE id = ?)", [
          id,
          model,
          blob,
          id,
        ]);
      }
      await this.bumpGeneration();
    });
  }

  async size(): Promise<{ units: number; sources: number }> {
    const units = await this.db.get<{ n: number }>("SELECT count(*) AS n FROM units");
    const sources = await this.db.get<{ n: number }>("SELECT count(*) AS n FROM sources");
    return { units: units?.n ?? 0, sources: sources?.n ?? 0 };
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** Inside a transaction: drops the units of `gone` and `changed`, reads `changed` again. */
  private async apply(changed: SourceFile[], gone: string[]): Promise<SyncReport> {
    for (const path of gone) await this.dropSource(path);
    // Read inside the transaction, where no other process can add a file meanwhile: a file without
    // units has nothing to drop (four statements saved a file on a new home's first sync). Units,
    // not sources: whatever left units without their source row, a change of the file drops them.
    const held = new Set((await this.db.all<{ path: string }>("SELECT DISTINCT path FROM units")).map((r) => r.path));
    // Ids only grow (a counter survives rebuilds), so a vector computed for an old unit can
    // never be stored on a new one that took its id.
    const counter = Number((await this.db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'next_id'"))?.value ?? 1);
    const highest = (await this.db.get<{ id: number | null }>("SELECT max(id) AS id FROM units"))?.id ?? 0;
    let nextId = Math.max(counter, highest + 1);
    let read = 0;
    let units = 0;
    for (const file of changed) {
      if (held.has(file.path)) await this.dropSource(file.path);
      const text = await readFile(join(this.dir, file.path), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const fileUnits = await unitsOf(file, text, () => this.slices.pause());
      await this.insertUnits(file.path, fileUnits, nextId);
      nextId += fileUnits.length;
      units += fileUnits.length;
      read++;
      await this.db.run("INSERT OR REPLACE INTO sources(path, stamp) VALUES (?, ?)", [file.path, file.stamp]);
    }
    await this.db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('next_id', ?)", [String(nextId)]);
    await this.bumpGeneration();
    return { read, removed: gone.length, units };
  }

  private async dropSource(path: string): Promise<void> {
    await this.db.run("DELETE FROM units_fts WHERE rowid IN (SELECT id FROM units WHERE path = ?)", [path]);
    await this.db.run("DELETE FROM vectors WHERE unit_id IN (SELECT id FROM units WHERE path = ?)", [path]);
    await this.db.run("DELETE FROM units WHERE path = ?", [path]);
    await this.db.run("DELETE FROM sources WHERE path = ?", [path]);
  }

  private async insertUnits(path: string, units: Unit[], firstId: number): Promise<void> {
    for (let start = 0; start < units.length; start += ROWS_PER_INSERT) {
      const batch = units.slice(start, start + ROWS_PER_INSERT);
      const rows: SqlValue[] = [];
      const fts: SqlValue[] = [];
      for (const [i, unit] of batch.entries()) {
        const id = firstId + start + i;
        rows.push(id, path, unit.ord, unit.source, unit.date, unit.title, unit.speaker ?? null, unit.name ?? null, unit.text, unit.sharedIn ?? null);
        fts.push(id, indexText(unit.text), indexText(unit.context), indexText(unit.title));
        // Tokenising is the costly part of a sync: other people's turns run between units.
        await this.slices.pause();
      }
      await this.db.run(
        `INSERT INTO units(id, path, ord, source, date, title, speaker, name, text, shared) VALUES ${batch.map(() => "(?,?,?,?,?,?,?,?,?,?)").join(",")}`,
        rows,
      );
      await this.db.run(`INSERT INTO units_fts(rowid, body, context, title) VALUES ${batch.map(() => "(?,?,?,?)").join(",")}`, fts);
    }
  }

  private async bumpGeneration(): Promise<void> {
    await this.db.run("INSERT INTO meta(key, value) VALUES ('generation', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1");
  }
}

function rangeClause(range: DateRange | undefined): [string, SqlValue[]] {
  if (!range) return ["", []];
  return [` AND u.date >= ? AND u.date <= ? AND u.source IN (${range.sources.map(() => "?").join(",")})`, [range.since, range.until, ...range.sources]];
}

async function unitsOf(file: SourceFile, text: string, pause: () => Promise<void>): Promise<Unit[]> {
  const date = file.date ?? "";
  return file.source === "conversation" ? unitsOfConversation(text, date, pause) : unitsOfSections(text, file.source, date);
}

/** Every file of a person the index reads, with a stamp that changes when the file does. */
async function listSources(dir: string, zone: string): Promise<SourceFile[]> {
  const wanted: { path: string; source: RecallSource; date: string | undefined }[] = MEMORY_FILES.map(([path, source]) => ({ path, source, date: undefined }));
  const folders: [string, RecallSource, (name: string) => string | undefined][] = [
    ["daily", "daily", dateOfLog],
    ["daily/archive", "daily", dateOfLog],
    ["conversations", "conversation", dateOfConversation],
  ];
  const listed = await Promise.all(folders.map(([folder]) => readdir(join(dir, folder)).catch(() => [] as string[])));
  folders.forEach(([folder, source, dateOf], i) => {
    for (const name of listed[i]!.sort()) {
      const date = dateOf(name);
      if (date !== undefined) wanted.push({ path: `${folder}/${name}`, source, date });
    }
  });
  const infos = await statsOf(
    wanted.map((w) => join(dir, w.path)),
    FOLLOWED,
  );
  return wanted.flatMap((w, i) => {
    const info = infos[i];
    if (!info?.isFile()) return [];
    const date = w.date ?? localDate(new Date(Number(info.mtimeMs)), zone);
    return [{ ...w, date, stamp: `${info.ino}:${info.size}:${info.mtimeNs}` }];
  });
}
