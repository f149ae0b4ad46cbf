import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxOf, minOf, thinSeries } from './extent';

/** Every source file under web/src. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) ? [p] : [];
  });
}

describe('extent', () => {
  it('finds the extremes of more numbers than a call can take as arguments', () => {
    const many = Array.from({ length: 600_000 }, (_, i) => Math.sin(i / 1000) * 100 + i / 1e6);
    expect(() => Math.min(...many)).toThrow(RangeError); // what crashed the backtest screen
    expect(minOf(many)).toBe(many.reduce((a, b) => (b < a ? b : a)));
    expect(maxOf(many)).toBe(many.reduce((a, b) => (b > a ? b : a)));
    expect(minOf([], 0)).toBe(0);
    expect(maxOf([3, 1], 5)).toBe(5);
  });

  it('thins a long series to a chart of its extremes, in order', () => {
    const pts = Array.from({ length: 525_600 }, (_, i) => ({ t: i, v: i === 300_001 ? -50 : i === 7 ? 999 : Math.sin(i / 5000) }));
    const thin = thinSeries(pts, (p) => p.v);
    expect(thin.length).toBeLessThanOrEqual(4000);
    expect(thin.map((p) => p.t)).toEqual([...thin.map((p) => p.t)].sort((a, b) => a - b));
    for (const t of [0, 7, 300_001, 525_599]) expect(thin.some((p) => p.t === t)).toBe(true);
    const short = pts.slice(0, 100);
    expect(thinSeries(short, (p) => p.v)).toEqual(short);
  });

  it('is the only way web/src takes the extremes of an array: nothing spreads one into Math.min or Math.max', () => {
    const root = join(__dirname, '..');
    const spread = /Math\.(min|max)\([^)]*\.\.\./;
    const found = sources(root).filter((p) => spread.test(readFileSync(p, 'utf8')));
    expect(found).toEqual([]);
  });
});
