/**
 * The smallest and largest of many numbers, by a loop: spreading an array into the arguments of Math.min or Math.max
 * passes every element as an argument, and past about 100,000 of them the engine throws (a year of one-minute
 * equity points crashed the backtest screen). No code spreads an array into them (extent.test.ts checks the sources).
 */
export function minOf(values: Iterable<number>, start = Infinity): number {
  let m = start;
  for (const v of values) if (v < m) m = v;
  return m;
}

export function maxOf(values: Iterable<number>, start = -Infinity): number {
  let m = start;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** A series' points thinned to at most about `buckets` x 4 for a chart: in each bucket of equal counts, its first point and those with the lowest and highest value, and the last point of all (min/max per bucket, so no peak or trough is lost). */
export function thinSeries<T>(points: readonly T[], value: (p: T) => number, buckets = 1000): T[] {
  const n = points.length;
  if (n <= buckets * 4) return [...points];
  const keep: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets);
    const hi = Math.floor(((b + 1) * n) / buckets);
    if (lo >= hi) continue;
    let minI = lo;
    let maxI = lo;
    for (let i = lo + 1; i < hi; i++) {
      const v = value(points[i]!);
      if (v < value(points[minI]!)) minI = i;
      if (v > value(points[maxI]!)) maxI = i;
    }
    keep.push(lo, minI, maxI);
  }
  keep.push(n - 1);
  const idx = [...new Set(keep)].sort((a, b) => a - b);
  return idx.map((i) => points[i]!);
}
