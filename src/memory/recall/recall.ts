import { rm } from "node:fs/promises";
import { BackgroundWork } from "../../lib/background-work.js";
import { KeyedMutex } from "../../lib/keyed-mutex.js";
import { cutChars } from "../../lib/text.js";
import { PersonIndex, type DateRange, type SyncReport, type UnitRow } from "./person-index.js";
import { dedupe, fuse, preferPeriod, rankKeyword, voteBySession, type RecallHit } from "./ranking.js";
import { matchExpression, queryTerms } from "./search-text.js";
import { namedPeriod } from "./named-period.js";
import type { RecallSource } from "./units.js";
import { VectorCache, vectorBlob, type Embedder } from "./vectors.js";

export type { RecallHit } from "./ranking.js";

export interface RecallOptions {
  /** Set when OPENAI_EMBEDDING_MODEL is: adds the semantic half of the ranking. */
  embedder?: Embedder | undefined;
  /** Told about failures that cost only quality (embeddings) or freshness (a background sync). */
  onError?: (message: string, error: unknown) => void;
  /** Quiet time after a write before the index reads the changed files. */
  debounceMs?: number;
  /** How long a search trusts the index without looking at the files again (hand edits). */
  freshMs?: number;
  /** After an embeddings server failure, how long until indexing asks again. */
  embedRetryMs?: number;
}

export interface SearchOptions {
  limit?: number;
  /** Local dates (YYYY-MM-DD), both inclusive: only conversations and daily logs of those days. */
  since?: string | undefined;
  until?: string | undefined;
}

/** Whose files, and where their index lives ($AGENTKIT_HOME/index/<id>.sqlite). */
export interface IndexedPerson {
  dir: string;
  indexPath: string;
}

const CANDIDATES = 200;
/** Candidates added from the time a question names (named-period.ts). */
const NAMED_CANDIDATES = 50;
// Chosen on bench/recall (neighbours 0.3–0.8 all beat the floor by 1.3–1.45×; 0.5 in the middle).
const WEIGHTS = { body: 1, context: 0.5, title: 0.5 };
const OPEN_INDEXES = 8;
const EMBED_BATCH = 64;
const EMBED_TIMEOUT_MS = 5_000;
/** Semantic matches below this cosine similarity are not matches: an unrelated query finds nothing. */
const MIN_SIMILARITY = 0.3;
const SEMANTIC_CANDIDATES = 50;
/** Marks a unit the embeddings server refused, so it is not asked for again. */
const REFUSED = Buffer.alloc(0);

interface Slot {
  person: IndexedPerson;
  index: Promise<PersonIndex>;
  syncedAt: number;
  dirty: boolean;
  /** Searches and batches using the database now: an evicted slot closes when the last one ends. */
  users: number;
  evicted: boolean;
}

/**
 * Recall over everything a person ever told the bot, for every person under one home:
 * one SQLite FTS5 index per person ($AGENTKIT_HOME/index/<id>.sqlite), derived from their files, kept
 * up to date off the reply path after each write, and brought up to date before a search.
 */
export class Recall {
  private readonly slots = new Map<string, Slot>();
  /** Writes to one person's index (syncs, vectors) run one at a time. */
  private readonly locks = new KeyedMutex();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; zone: string; person: IndexedPerson }>();
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private readonly syncs: BackgroundWork;
  private readonly embeddings: BackgroundWork;
  private readonly vectors = new VectorCache();
  private readonly stop = new AbortController();
  private embedPausedUntil = 0;
  private closed = false;

  constructor(private readonly options: RecallOptions = {}) {
    const report = (failure: string, error: unknown) => options.onError?.(failure, error);
    this.syncs = new BackgroundWork(report);
    this.embeddings = new BackgroundWork(report);
  }

  /** A person's files changed: index them soon, in the background. */
  touch(person: IndexedPerson, zone: string): void {
    if (this.stop.signal.aborted) return;
    const key = person.indexPath;
    const slot = this.slots.get(key);
    if (slot) slot.dirty = true;
    clearTimeout(this.timers.get(key)?.timer);
    const timer = setTimeout(() => this.syncInBackground(person, zone), this.options.debounceMs ?? 200);
    timer.unref();
    this.timers.set(key, { timer, zone, person });
  }

  /** Best matches first; an empty list when nothing matches or the query has no words. */
  async search(person: IndexedPerson, zone: string, query: string, options: SearchOptions = {}): Promise<RecallHit[]> {
    if (this.closed) throw new Error("the recall index is closed");
    const key = person.indexPath;
    const limit = Math.max(1, Math.min(options.limit ?? 10, 50));
    const range = dateRange(options);
    if (range && range.since > range.until) return [];
    const expression = matchExpression(queryTerms(query));
    // Never rejects: a failed embedding means keywords only.
    const queryVector = expression ? this.embedQuery(query) : Promise.resolve(undefined);
    return this.use(person, async (slot, index) => {
      const { rows, generation, read } = await this.locks.run(key, async () => {
        // A question with no words but dates ("what did we talk about in October?"): that time's summaries.
        const query = () =>
          expression ? index.keywordMatches(expression, CANDIDATES, WEIGHTS, range) : range ? index.summariesBetween(range, limit) : Promise.resolve([]);
        if (!slot.dirty && Date.now() - slot.syncedAt < (this.options.freshMs ?? 30_000))
          return { rows: await query(), generation: await index.generation(), read: 0 };
        // The re-check (its stats on this thread) and the query (SQLite's thread) at once: mostly nothing
        // changed and the answer stands; when something did, the query runs again on the index brought up to date.
        const [report, early] = await Promise.all([
          // An index that cannot take the latest changes still answers with what it holds.
          this.syncLocked(slot, index, zone).catch((error: unknown) => {
            this.options.onError?.("the recall index could not read the latest changes; this search used what it holds", error);
            return { read: 0, removed: 0, units: 0 };
          }),
          // Asked again below if it failed while the re-check wrote.
          query().catch(() => undefined),
        ]);
        const rows = early === undefined || report.read > 0 || report.removed > 0 ? await query() : early;
        return { rows, generation: await index.generation(), read: report.read };
      });
      // A question that names a date ("in April 2022") without since/until: that time's best matches
      // join the candidates however many better ones other times have, and rank higher below.
      const named = expression && !range ? namedPeriod(query) : undefined;
      if (named && expression) {
        const seen = new Set(rows.map((row) => row.id));
        const near = await this.locks.run(key, () => index.keywordMatches(expression, NAMED_CANDIDATES, WEIGHTS, { ...named, sources: DATED }));
        rows.push(...near.filter((row) => !seen.has(row.id)));
      }
      // What a search had to read itself gets its vectors afterwards, off this search's path.
      if (read > 0) this.embedInBackground(person);
      const keyword = rankKeyword(rows);
      if (!expression) return dedupe(keyword).slice(0, limit);
      const semantic = (await this.semanticRows(key, index, generation, await queryVector)).filter((row) => !range || inRange(row, range));
      const voted = voteBySession(dedupe(semantic.length > 0 ? fuse(keyword, semantic) : keyword));
      return (named ? preferPeriod(voted, { ...named, sources: DATED }) : voted).slice(0, limit);
    });
  }

  /**
   * Brings the index up to date with the files now, embeddings included: for a short-lived
   * process (the operator CLI) that cannot leave the work to the background.
   */
  async update(person: IndexedPerson, zone: string, options: { purge?: boolean } = {}): Promise<void> {
    await this.use(person, (slot, index) =>
      this.locks.run(person.indexPath, async () => {
        await this.syncLocked(slot, index, zone);
        // After forgetting: FTS5 keeps the words of deleted rows in its segments until they are
        // merged, and the write-ahead log keeps old pages until a checkpoint.
        if (options.purge) {
          await index.db.exec("INSERT INTO units_fts(units_fts) VALUES ('optimize')");
          await index.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        }
      }),
    );
    await this.embedMissing(person);
  }

  /** Reads every file of the person again (the operator's `reindex`). */
  async reindex(person: IndexedPerson, zone: string): Promise<SyncReport> {
    const report = await this.use(person, (slot, index) =>
      this.locks.run(person.indexPath, async () => {
        const rebuilt = await index.rebuild(zone);
        slot.syncedAt = Date.now();
        slot.dirty = false;
        return rebuilt;
      }),
    );
    await this.embedMissing(person);
    return report;
  }

  /**
   * Runs the pending background syncs now and waits for them (a shutdown, a test, the end of
   * a CLI); with `embeddings`, for the embedding batches too.
   */
  async settle(options: { embeddings?: boolean } = {}): Promise<void> {
    for (const { timer, zone, person } of this.timers.values()) {
      clearTimeout(timer);
      this.syncInBackground(person, zone);
    }
    await this.syncs.settle();
    if (options.embeddings ?? true) await this.embeddings.settle();
  }

  /** Deletes a person's index (their data is being deleted): closes it first, removes the files. */
  async drop(person: IndexedPerson): Promise<void> {
    const key = person.indexPath;
    clearTimeout(this.timers.get(key)?.timer);
    this.timers.delete(key);
    clearTimeout(this.retries.get(key));
    this.retries.delete(key);
    await this.locks.run(key, async () => {
      const slot = this.slots.get(key);
      this.slots.delete(key);
      this.vectors.forget(key);
      if (slot) {
        slot.evicted = true;
        if (slot.users === 0) await closeSlot(slot);
      }
      for (const suffix of ["", "-wal", "-shm"]) await rm(`${key}${suffix}`, { force: true });
    });
  }

  /** Stops embedding at once (the backlog resumes at the next start), waits for syncs, closes the indexes. */
  async close(): Promise<void> {
    this.stop.abort();
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
    await this.settle();
    this.closed = true;
    const idle = [...this.slots.values()].filter((slot) => slot.users === 0);
    for (const slot of this.slots.values()) slot.evicted = true;
    this.slots.clear();
    // A search still running closes its index when it ends.
    await Promise.all(idle.map(closeSlot));
  }

  private syncInBackground(person: IndexedPerson, zone: string): void {
    this.timers.delete(person.indexPath);
    if (this.closed) return;
    const work = this.use(person, (slot, index) => this.locks.run(person.indexPath, () => this.syncLocked(slot, index, zone)));
    this.syncs.add(
      work.then(() => this.embedInBackground(person)),
      "the recall index could not read the latest changes; the next search retries",
    );
  }

  private async syncLocked(slot: Slot, index: PersonIndex, zone: string): Promise<SyncReport> {
    slot.dirty = false;
    try {
      const report = await index.sync(zone);
      slot.syncedAt = Date.now();
      return report;
    } catch (error) {
      slot.dirty = true;
      throw error;
    }
  }

  /** Runs work on a person's open index, which stays open until the work ends. */
  private async use<T>(person: IndexedPerson, work: (slot: Slot, index: PersonIndex) => Promise<T>): Promise<T> {
    const slot = this.acquire(person);
    try {
      return await work(slot, await slot.index);
    } finally {
      slot.users--;
      if (slot.evicted && slot.users === 0) void closeSlot(slot);
    }
  }

  /** Keeps at most OPEN_INDEXES databases open, least recently used out first. */
  private acquire(person: IndexedPerson): Slot {
    const key = person.indexPath;
    let slot = this.slots.get(key);
    if (slot) {
      this.slots.delete(key);
    } else {
      const created: Slot = { person, index: PersonIndex.open(person.dir, key), syncedAt: 0, dirty: true, users: 0, evicted: false };
      created.index.catch(() => {
        if (this.slots.get(key) === created) this.slots.delete(key);
      });
      slot = created;
    }
    this.slots.set(key, slot);
    slot.users++;
    for (const [oldest, old] of this.slots) {
      if (this.slots.size <= OPEN_INDEXES) break;
      this.slots.delete(oldest);
      this.vectors.forget(oldest);
      old.evicted = true;
      if (old.users === 0) void closeSlot(old);
    }
    return slot;
  }

  private async embedQuery(query: string): Promise<number[] | undefined> {
    const embedder = this.options.embedder;
    if (!embedder || query.trim() === "") return undefined;
    try {
      const [vector] = await embedder.embed([query], AbortSignal.timeout(EMBED_TIMEOUT_MS));
      return vector;
    } catch (error) {
      this.options.onError?.("embeddings failed; this search used keywords only", error);
      return undefined;
    }
  }

  /** The units nearest to the query's vector and near enough to count, nearest first. */
  private async semanticRows(key: string, index: PersonIndex, generation: number, vector: number[] | undefined): Promise<UnitRow[]> {
    const embedder = this.options.embedder;
    if (!embedder || !vector) return [];
    const near = (await this.vectors.nearest(index.db, key, embedder.model, generation, vector, SEMANTIC_CANDIDATES)).filter(
      (n) => n.similarity >= MIN_SIMILARITY,
    );
    const rows = new Map((await index.unitsById(near.map((n) => n.id))).map((row) => [row.id, row]));
    return near.flatMap((n) => rows.get(n.id) ?? []);
  }

  private embedInBackground(person: IndexedPerson): void {
    if (!this.options.embedder || this.stop.signal.aborted) return;
    this.embeddings.add(this.embedMissing(person), "embeddings failed; the index keeps working with keywords");
  }

  /** Embeds the units that have no vector yet, a batch at a time, holding no lock while the server works. */
  private async embedMissing(person: IndexedPerson): Promise<void> {
    const embedder = this.options.embedder;
    if (!embedder) return;
    for (;;) {
      if (this.stop.signal.aborted) return;
      if (Date.now() < this.embedPausedUntil) return this.retryEmbeddingLater(person);
      const done = await this.use(person, async (_slot, index) => {
        const missing = await index.unitsWithoutVector(embedder.model, EMBED_BATCH);
        if (missing.length === 0) return true;
        const vectors = await this.embedUnits(embedder, missing);
        if (!vectors) {
          this.retryEmbeddingLater(person);
          return true;
        }
        await this.locks.run(person.indexPath, () => index.storeVectors(embedder.model, vectors));
        return false;
      });
      if (done) return;
    }
  }

  /**
   * One batch; when it fails, a probe tells a server that is down (pause, retry later) from
   * inputs it refuses (each unit alone, the refused ones marked), so one bad unit blocks nothing.
   */
  private async embedUnits(embedder: Embedder, units: UnitRow[]): Promise<{ id: number; blob: Buffer }[] | undefined> {
    const signal = () => AbortSignal.any([AbortSignal.timeout(EMBED_TIMEOUT_MS * 4), this.stop.signal]);
    try {
      const vectors = await embedder.embed(units.map(embeddingInput), signal());
      if (vectors.length !== units.length) throw new Error(`asked for ${units.length} embeddings, got ${vectors.length}`);
      return units.map((u, i) => ({ id: u.id, blob: vectorBlob(vectors[i]!) }));
    } catch (error) {
      if (this.stop.signal.aborted) return undefined;
      const serverWorks = await embedder.embed(["ok"], signal()).then(
        () => true,
        () => false,
      );
      if (!serverWorks) {
        this.embedPausedUntil = Date.now() + (this.options.embedRetryMs ?? 60_000);
        this.options.onError?.("embeddings failed; the index keeps working with keywords and tries again later", error);
        return undefined;
      }
      const one = (unit: UnitRow) =>
        embedder.embed([embeddingInput(unit)], signal()).then(
          ([vector]) => ({ id: unit.id, blob: vector ? vectorBlob(vector) : REFUSED }),
          () => ({ id: unit.id, blob: REFUSED }),
        );
      const out: { id: number; blob: Buffer }[] = [];
      for (const unit of units) out.push(await one(unit));
      return out;
    }
  }

  private retryEmbeddingLater(person: IndexedPerson): void {
    const key = person.indexPath;
    if (this.retries.has(key) || this.stop.signal.aborted) return;
    const timer = setTimeout(
      () => {
        this.retries.delete(key);
        this.embedInBackground(person);
      },
      Math.max(0, this.embedPausedUntil - Date.now()) + 10,
    );
    timer.unref();
    this.retries.set(key, timer);
  }
}

/** Sources with a date of their own: the memory files are dated by their last change, which says nothing of when a fact was told. */
const DATED: readonly RecallSource[] = ["conversation", "daily"];

function dateRange(options: SearchOptions): DateRange | undefined {
  if (options.since === undefined && options.until === undefined) return undefined;
  return { since: options.since ?? "0000-00-00", until: options.until ?? "9999-99-99", sources: DATED };
}

function inRange(row: UnitRow, range: DateRange): boolean {
  return range.sources.includes(row.source) && row.date >= range.since && row.date <= range.until;
}

function closeSlot(slot: Slot): Promise<void> {
  return slot.index.then((index) => index.close()).catch(() => {});
}

function embeddingInput(unit: UnitRow): string {
  return cutChars(unit.title ? `${unit.title}\n${unit.text}` : unit.text, 2000);
}
