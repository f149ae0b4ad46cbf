/** Pure helpers of the prompt editor: the line diff between two templates and how a version's template is named. */

export type DiffKind = 'same' | 'add' | 'del';

export interface DiffLine {
  kind: DiffKind;
  text: string;
  /** Line numbers (from 1) in the old and the new text; absent on the side the line is not in. */
  from?: number;
  to?: number;
}

/** A run of unchanged lines left out of a collapsed diff. */
export interface DiffGap {
  kind: 'gap';
  count: number;
}

/** Lines of a text; a final newline does not make an empty last line. */
export function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.replace(/\r\n/g, '\n').split('\n');
  if (out.at(-1) === '') out.pop();
  return out;
}

/**
 * A line diff of a against b: the longest common subsequence of lines kept,
 * the rest deleted from a or added in b, deletions before additions where
 * they meet. Templates are at most 16 KB, a few hundred lines, so the
 * quadratic table is small.
 */
export function lineDiff(a: string, b: string): DiffLine[] {
  const x = lines(a);
  const y = lines(b);
  const n = x.length;
  const m = y.length;
  // lcs[i][j]: the common subsequence length of x[i:] and y[j:].
  const lcs: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      out.push({ kind: 'same', text: x[i]!, from: i + 1, to: j + 1 });
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ kind: 'del', text: x[i]!, from: i + 1 });
      i++;
    } else {
      out.push({ kind: 'add', text: y[j]!, to: j + 1 });
      j++;
    }
  }
  return out;
}

/** Keeps `context` unchanged lines around each change and folds the rest into gaps. */
export function collapse(diff: DiffLine[], context = 3): (DiffLine | DiffGap)[] {
  const near = diff.map(() => false);
  diff.forEach((d, k) => {
    if (d.kind === 'same') return;
    for (let c = Math.max(0, k - context); c <= Math.min(diff.length - 1, k + context); c++) near[c] = true;
  });
  const out: (DiffLine | DiffGap)[] = [];
  diff.forEach((d, k) => {
    if (near[k]) {
      out.push(d);
      return;
    }
    const last = out.at(-1);
    if (last?.kind === 'gap') last.count++;
    else out.push({ kind: 'gap', count: 1 });
  });
  return out;
}

/** How many lines were added and deleted. */
export function diffStats(diff: DiffLine[]): { added: number; deleted: number } {
  return { added: diff.filter((d) => d.kind === 'add').length, deleted: diff.filter((d) => d.kind === 'del').length };
}

/** A version's template as the screen names it: "Custom (custom:1a2b…)" or "Shipped v2". */
export function templateLabel(v: { custom: boolean; template_version: string }): string {
  return v.custom ? `Custom · ${v.template_version}` : `Shipped ${v.template_version}`;
}

/** The text a version renders: its own template, or the shipped one's (the only shipped text the server gives is the default's). */
export function templateText(v: { custom: boolean; template?: string; template_version: string }, shipped: { template_version: string; template: string }): string | null {
  if (v.custom) return v.template ?? '';
  return v.template_version === shipped.template_version ? shipped.template : null;
}

/** What a save sends: the shipped text itself saves as "the default", not as a custom copy. */
export function templateParam(draft: string, shipped: string): string {
  return draft.trim() === '' || draft === shipped ? '' : draft;
}
