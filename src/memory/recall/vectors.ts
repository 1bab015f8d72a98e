import type { SqliteDb } from "../../lib/sqlite-db.js";

/** Embeddings from the model server, handed in by the agent layer (the memory layer calls no network itself). */
export interface Embedder {
  /** OPENAI_EMBEDDING_MODEL: vectors of another model are not compared with this one's. */
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface Neighbour {
  id: number;
  similarity: number;
}

interface Matrix {
  generation: number;
  ids: Int32Array;
  dims: number;
  values: Float32Array;
}

/** Bytes of vectors kept in memory across people; a larger index is read per search instead. */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Nearest units by cosine similarity, brute force: a person's index holds some ten thousand
 * messages, which a plain scan handles in milliseconds; no vector extension is built into
 * the `sqlite3` package, and an approximate index would add a dependency for no gain here.
 */
export class VectorCache {
  private readonly matrices = new Map<string, Matrix>();

  async nearest(db: SqliteDb, key: string, model: string, generation: number, query: number[], k: number): Promise<Neighbour[]> {
    const matrix = await this.load(db, key, model, generation);
    if (!matrix || matrix.dims !== query.length) return [];
    const q = normalise(query);
    const scored: Neighbour[] = [];
    for (let row = 0; row < matrix.ids.length; row++) {
      let dot = 0;
      const offset = row * matrix.dims;
      for (let d = 0; d < matrix.dims; d++) dot += matrix.values[offset + d]! * q[d]!;
      scored.push({ id: matrix.ids[row]!, similarity: dot });
    }
    return scored.sort((a, b) => b.similarity - a.similarity).slice(0, k);
  }

  forget(key: string): void {
    this.matrices.delete(key);
  }

  private async load(db: SqliteDb, key: string, model: string, generation: number): Promise<Matrix | undefined> {
    const cached = this.matrices.get(key);
    if (cached?.generation === generation) return cached;
    this.matrices.delete(key);
    const rows = await db.all<{ unit_id: number; vec: Buffer }>("SELECT unit_id, vec FROM vectors WHERE model = ?", [model]);
    // Refused units have an empty vector.
    const first = rows.find((r) => r.vec.byteLength > 0);
    if (!first) return undefined;
    const dims = first.vec.byteLength / 4;
    const usable = rows.filter((r) => r.vec.byteLength === dims * 4);
    const values = new Float32Array(usable.length * dims);
    usable.forEach((r, i) => values.set(new Float32Array(r.vec.buffer.slice(r.vec.byteOffset, r.vec.byteOffset + r.vec.byteLength)), i * dims));
    const matrix: Matrix = { generation, ids: Int32Array.from(usable, (r) => r.unit_id), dims, values };
    const held = [...this.matrices.values()].reduce((n, m) => n + m.values.byteLength, 0);
    if (held + values.byteLength <= CACHE_BYTES) this.matrices.set(key, matrix);
    return matrix;
  }
}

function normalise(vector: readonly number[]): Float32Array {
  const out = Float32Array.from(vector);
  const length = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= length;
  return out;
}

/** A vector as stored: float32, unit length. */
export function vectorBlob(vector: readonly number[]): Buffer {
  const values = normalise(vector);
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009): each list adds 1/(k + rank) for a unit, so a
 * unit both rankings like comes first without comparing BM25 scores with cosine similarities.
 */
export function fuseRankings(rankings: readonly (readonly number[])[], k = 60): Map<number, number> {
  const fused = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (k + rank + 1)));
  }
  return fused;
}
