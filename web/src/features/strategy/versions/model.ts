/** Pure helpers of the Versions tab: flattening params and diffing two versions. */

/** A param's value as shown: numbers and text as they are, lists comma-joined, JSON otherwise. */
export function show(v: unknown): string {
  if (v === undefined) return '—';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Flattens params into dotted keys (indicators.rsi_period); lists stay one
 * value. An empty object stays one value so it is not lost from a diff.
 */
export function flatten(params: Record<string, unknown> | undefined, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) {
      Object.assign(out, flatten(v as Record<string, unknown>, key));
    } else {
      out[key] = v;
    }
  }
  return out;
}

export interface DiffRow {
  key: string;
  from: string;
  to: string;
  changed: boolean;
}

/** Param by param, sorted by key: every key of either version, and whether it differs. */
export function diffParams(from: Record<string, unknown> | undefined, to: Record<string, unknown> | undefined): DiffRow[] {
  const a = flatten(from);
  const b = flatten(to);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.map((key) => {
    const f = show(a[key]);
    const t = show(b[key]);
    return { key, from: f, to: t, changed: f !== t };
  });
}
