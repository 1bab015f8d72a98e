/** Small, dependency-free statistics for the benchmark. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile (p in 0..100) of already sorted values; NaN when empty. */
function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = n === 0 ? Number.NaN : sorted.reduce((sum, v) => sum + v, 0) / n;
  return {
    n,
    p50: percentileOfSorted(sorted, 50),
    p95: percentileOfSorted(sorted, 95),
    p99: percentileOfSorted(sorted, 99),
    min: n === 0 ? Number.NaN : sorted[0]!,
    max: n === 0 ? Number.NaN : sorted[n - 1]!,
    mean,
  };
}

/** How many requests fell in the busiest sliding window of `windowMs`. */
export function peakInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) start++;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

export function ratio(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Number.NaN;
  if (b === 0) return a === 0 ? 1 : Number.POSITIVE_INFINITY;
  return a / b;
}

export function round(value: number, digits = 1): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
