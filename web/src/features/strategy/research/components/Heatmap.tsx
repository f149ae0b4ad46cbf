import { useState } from 'react';
import { Card } from '@/components/Screen';
import { breakEven, heatColor, heatmap, OBJECTIVES, show } from '../model';
import type { SweepTrial } from '../types';

const sel = 'mt-1 rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';

/** The objective over two chosen parameters: one cell per pair of values with its value, red below break-even and green above it; a halted trial's cell says so. */
export function Heatmap({ trials, names, objective }: { trials: SweepTrial[]; names: string[]; objective: string }) {
  const [xName, setX] = useState(names[0] ?? '');
  const [yName, setY] = useState(names[1] ?? names[0] ?? '');
  if (names.length < 2) return null;
  const { xs, ys, cells, min, max } = heatmap(trials, xName, yName);
  const label = OBJECTIVES.find((o) => o.value === objective)?.label ?? objective;
  const more = names.length > 2;
  const centre = breakEven(objective);
  const halted = new Set(trials.filter((t) => t.halted).map((t) => t.index));
  return (
    <Card title="Heatmap">
      <div className="mb-3 flex flex-wrap gap-3 text-sm">
        <label>
          Across{' '}
          <select aria-label="Heatmap columns" className={sel} value={xName} onChange={(e) => setX(e.target.value)}>
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <label>
          Down{' '}
          <select aria-label="Heatmap rows" className={sel} value={yName} onChange={(e) => setY(e.target.value)}>
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
      </div>
      <div className="overflow-x-auto" data-testid="heatmap">
        <table className="border-separate border-spacing-1 text-xs">
          <thead>
            <tr>
              <th className="px-1 text-left font-normal text-slate-500">
                {yName} ↓ / {xName} →
              </th>
              {xs.map((x) => (
                <th key={JSON.stringify(x)} className="px-1 font-semibold">
                  {show(x)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {cells.map((row, i) => (
              <tr key={JSON.stringify(ys[i])}>
                <th className="px-1 text-right font-semibold">{show(ys[i])}</th>
                {row.map((c) => (
                  <td
                    key={JSON.stringify(c.x)}
                    data-testid="heat-cell"
                    data-halted={c.trial !== null && halted.has(c.trial) ? 'true' : undefined}
                    title={c.trial === null ? `${c.count} trial(s), none eligible` : `trial ${c.trial}: ${label} ${show(c.score)}${halted.has(c.trial) ? ' (halted by a risk limit)' : ''}`}
                    className="h-9 min-w-14 rounded text-center font-mono text-white"
                    style={{ background: c.score === null || min === null || max === null ? '#94a3b8' : heatColor(c.score, min, max, centre) }}
                  >
                    {c.score === null ? 'N/A' : show(c.score, 3)}
                    {c.trial !== null && halted.has(c.trial) && <sup aria-label="halted" className="ml-0.5 font-sans font-bold">H</sup>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {min !== null && max !== null && (
        <div className="mt-3 flex items-center gap-2 text-xs" data-testid="heat-legend">
          <span>{show(min, 3)}</span>
          <span
            className="h-3 w-40 rounded"
            style={{
              background: `linear-gradient(to right, ${[min, ...(min < centre && max > centre ? [centre] : []), max].map((v) => heatColor(v, min, max, centre)).join(', ')})`,
            }}
          />
          <span>{show(max, 3)}</span>
          <span className="text-slate-500 dark:text-slate-400">{label}</span>
        </div>
      )}
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        Each cell is the {label.toLowerCase()} of the eligible trial with those two values{more ? ' (the best over the other parameters)' : ''}: red below {centre}, green above,
        deeper the further; grey N/A: no eligible trial (objective undefined or fewer trades than the minimum); H: a trial a risk limit halted.
      </p>
    </Card>
  );
}
