import { KeyedMutex } from "../../keyed-mutex.js";
import { countChars } from "../sections.js";
import { PersonIndex, type SyncReport, type UnitRow } from "./person-index.js";
import { matchExpression, queryTerms } from "./search-text.js";
import type { RecallSource } from "./units.js";
import { fuseRankings, VectorCache, vectorBlob, type Embedder } from "./vectors.js";

export interface RecallHit {
  source: RecallSource;
  date: string;
  title: string;
  /** The matching message ("Name: text") or section, up to about 1,000 characters. */
  text: string;
  /** Higher is better; comparable within one search only. */
  score: number;
  /** Where it comes from, relative to the person's folder, e.g. "conversations/2026-10-02-books-3f2a9c1b.md". */
  file: string;
  /** Message or section number within the file (the first, when the text holds several). */
  ord: number;
  /** Every message or section number the text holds. */
  ords: number[];
}

export interface RecallOptions {
  /** Set when OPENAI_EMBEDDING_MODEL is: adds the semantic half of the ranking. */
  embedder?: Embedder | undefined;
  /** Told about failures that cost only quality (embeddings) or freshness (a background sync). */
  onError?: (message: string, error: unknown) => void;
  /** Quiet time after a write before the index reads the changed files. */
  debounceMs?: number;
  /** How long a search trusts the index without looking at the files again (hand edits). */
  freshMs?: number;
}

export interface SearchOptions {
  limit?: number;
}

export const MAX_TEXT_CHARS = 1000;
const CANDIDATES = 200;
// Chosen on bench/recall (neighbours 0.3–0.8 all beat the floor by 1.3–1.45×; 0.5 in the middle).
const WEIGHTS = { body: 1, context: 0.5, title: 0.5 };
const OPEN_INDEXES = 8;
const EMBED_BATCH = 64;
const EMBED_TIMEOUT_MS = 5_000;
/** After an embeddings call fails, indexing tries again this much later (a search still tries). */
const EMBED_BACKOFF_MS = 60_000;

/** Whose files, and where their index lives ($AGENTKIT_HOME/index/<id>.sqlite). */
export interface IndexedPerson {
  dir: string;
  indexPath: string;
}

interface Slot {
  index: Promise<PersonIndex>;
  syncedAt: number;
  dirty: boolean;
}

/**
 * Recall over everything a person ever told the bot, for every person under one home:
 * one SQLite FTS5 index per person ($AGENTKIT_HOME/index/<id>.sqlite), derived from their files, kept
 * up to date off the reply path after each write, and brought up to date before a search.
 */
export class Recall {
  private readonly slots = new Map<string, Slot>();
  private readonly locks = new KeyedMutex();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; zone: string; person: IndexedPerson }>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly vectors = new VectorCache();
  private embedPausedUntil = 0;
  private closed = false;

  constructor(private readonly options: RecallOptions = {}) {}

  /** A person's files changed: index them soon, in the background. */
  touch(person: IndexedPerson, zone: string): void {
    if (this.closed) return;
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
    const key = person.indexPath;
    const limit = Math.max(1, Math.min(options.limit ?? 10, 50));
    const queryVector = this.embedQuery(query);
    const { index, rows, generation } = await this.locks.run(key, async () => {
      const slot = await this.slotFor(person);
      const index = await slot.index;
      const stale = slot.dirty || Date.now() - slot.syncedAt > (this.options.freshMs ?? 30_000);
      // What a search had to read itself gets its vectors afterwards, off this search's path.
      if (stale && (await this.syncSlot(slot, index, zone)).read > 0) this.inBackground(this.embedMissing(key));
      const expression = matchExpression(queryTerms(query));
      const rows = expression ? await index.keywordMatches(expression, CANDIDATES, WEIGHTS) : [];
      return { index, rows, generation: await index.generation() };
    });
    const keyword = rankKeyword(rows);
    const semantic = await this.semanticIds(key, index, generation, await queryVector);
    const hits = semantic.length > 0 ? await fuse(index, keyword, semantic) : keyword;
    return dedupe(hits).slice(0, limit);
  }

  /**
   * Brings the index up to date with the files now, embeddings included: for a short-lived
   * process (the operator CLI) that cannot leave the work to the background.
   */
  async update(person: IndexedPerson, zone: string): Promise<void> {
    await this.locks.run(person.indexPath, async () => {
      const slot = await this.slotFor(person);
      await this.syncSlot(slot, await slot.index, zone);
    });
    await this.embedMissing(person.indexPath);
  }

  /** Reads every file of the person again (the operator's `reindex`). */
  async reindex(person: IndexedPerson, zone: string): Promise<SyncReport> {
    const key = person.indexPath;
    const report = await this.locks.run(key, async () => {
      const slot = await this.slotFor(person);
      const index = await slot.index;
      const rebuilt = await index.rebuild(zone);
      slot.syncedAt = Date.now();
      slot.dirty = false;
      return rebuilt;
    });
    await this.embedMissing(key);
    return report;
  }

  /** Runs the pending background syncs now and waits for them (shutdown, tests, a CLI's end). */
  async settle(): Promise<void> {
    for (const { timer, zone, person } of this.timers.values()) {
      clearTimeout(timer);
      this.syncInBackground(person, zone);
    }
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async close(): Promise<void> {
    await this.settle();
    this.closed = true;
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.allSettled(slots.map(async (slot) => (await slot.index).close()));
  }

  private syncInBackground(person: IndexedPerson, zone: string): void {
    const key = person.indexPath;
    this.timers.delete(key);
    if (this.closed) return;
    const work = this.locks
      .run(key, async () => {
        const slot = await this.slotFor(person);
        await this.syncSlot(slot, await slot.index, zone);
      })
      .then(() => this.embedMissing(key));
    this.inBackground(work);
  }

  private inBackground(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) =>
      this.options.onError?.("the recall index could not read the latest changes; the next search retries", error),
    );
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  private async syncSlot(slot: Slot, index: PersonIndex, zone: string): Promise<SyncReport> {
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

  /** Called under the person's lock. Keeps at most OPEN_INDEXES databases open. */
  private async slotFor(person: IndexedPerson): Promise<Slot> {
    const key = person.indexPath;
    let slot = this.slots.get(key);
    if (slot) {
      // Most recently used last.
      this.slots.delete(key);
      this.slots.set(key, slot);
      return slot;
    }
    slot = { index: PersonIndex.open(person.dir, person.indexPath), syncedAt: 0, dirty: true };
    slot.index.catch(() => this.slots.delete(key));
    this.slots.set(key, slot);
    for (const [oldest, old] of this.slots) {
      if (this.slots.size <= OPEN_INDEXES) break;
      this.slots.delete(oldest);
      this.vectors.forget(oldest);
      void this.locks.run(oldest, async () => (await old.index).close()).catch(() => {});
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

  private async semanticIds(key: string, index: PersonIndex, generation: number, vector: number[] | undefined): Promise<number[]> {
    const embedder = this.options.embedder;
    if (!embedder || !vector) return [];
    const near = await this.vectors.nearest(index.db, key, embedder.model, generation, vector, CANDIDATES);
    return near.map((n) => n.id);
  }

  /** Embeds the units that have no vector yet, a batch at a time, outside the person's lock. */
  private async embedMissing(key: string): Promise<void> {
    const embedder = this.options.embedder;
    if (!embedder || Date.now() < this.embedPausedUntil) return;
    for (;;) {
      const slot = this.slots.get(key);
      if (!slot || this.closed) return;
      const index = await slot.index;
      const missing = await index.unitsWithoutVector(embedder.model, EMBED_BATCH);
      if (missing.length === 0) return;
      let vectors: number[][];
      try {
        vectors = await embedder.embed(missing.map(embeddingInput), AbortSignal.timeout(EMBED_TIMEOUT_MS * 4));
        if (vectors.length !== missing.length) throw new Error(`asked for ${missing.length} embeddings, got ${vectors.length}`);
      } catch (error) {
        this.embedPausedUntil = Date.now() + EMBED_BACKOFF_MS;
        this.options.onError?.("embeddings failed; the index keeps working with keywords and tries again later", error);
        return;
      }
      await this.locks.run(key, () => index.storeVectors(embedder.model, missing.map((u, i) => ({ id: u.id, blob: vectorBlob(vectors[i]!) }))));
    }
  }
}

function embeddingInput(unit: UnitRow): string {
  const text = unit.title ? `${unit.title}\n${unit.text}` : unit.text;
  return [...text].slice(0, 2000).join("");
}

function toHit(row: UnitRow, score: number): RecallHit {
  const spoken = row.name ? `${row.name}: ${row.text}` : row.text;
  const text = countChars(spoken) <= MAX_TEXT_CHARS ? spoken : `${[...spoken].slice(0, MAX_TEXT_CHARS - 1).join("")}…`;
  return { source: row.source, date: row.date, title: row.title, text, score, file: row.path, ord: row.ord, ords: [row.ord] };
}

interface Ranked {
  id: number;
  hit: RecallHit;
}

/** BM25 first (FTS5's rank is lower-is-better), newer first among equals. */
function rankKeyword(rows: (UnitRow & { rank: number })[]): Ranked[] {
  return rows
    .map((row) => ({ id: row.id, hit: toHit(row, Number((-row.rank).toPrecision(6))) }))
    .sort((a, b) => b.hit.score - a.hit.score || b.hit.date.localeCompare(a.hit.date));
}

/** Keyword and semantic rankings merged by reciprocal rank; the score is the fused one. */
async function fuse(index: PersonIndex, keyword: Ranked[], semanticIds: number[]): Promise<Ranked[]> {
  const fused = fuseRankings([keyword.map((k) => k.id), semanticIds]);
  const rows = new Map(keyword.map((k) => [k.id, k.hit]));
  const missing = semanticIds.filter((id) => !rows.has(id));
  for (const row of await index.unitsById(missing)) rows.set(row.id, toHit(row, 0));
  return [...fused.entries()]
    .filter(([id]) => rows.has(id))
    .map(([id, score]) => ({ id, hit: { ...rows.get(id)!, score: Number(score.toPrecision(6)) } }))
    .sort((a, b) => b.hit.score - a.hit.score || b.hit.date.localeCompare(a.hit.date));
}

/** The same text twice (a log entry also in the archive) is shown once. */
function dedupe(ranked: Ranked[]): RecallHit[] {
  const seen = new Set<string>();
  return ranked.map((r) => r.hit).filter((hit) => {
    const key = `${hit.source}|${hit.date}|${hit.text.trim()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
