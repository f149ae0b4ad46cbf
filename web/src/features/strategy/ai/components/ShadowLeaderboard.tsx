import { Card } from '@/components/Screen';
import { formatCount, formatDateTime, formatShare } from '@/lib/format';
import { boardBasis, returnPercent, shadowLabel } from '../shadowModel';
import type { ShadowBoardModel, ShadowLeaderboard as Board } from '../types';

function cost(m: ShadowBoardModel): string {
  if (m.cost == null) return m.unpriced_decisions > 0 ? `unknown (${m.unpriced_decisions} unpriced; priced part $${m.known_cost})` : 'unknown';
  return `$${m.cost}`;
}

/**
 * The live model against each shadow model (docs/ANALYTICS.md, Shadow leaderboard): each model's own calls
 * traded on paper over the evaluations in which they were asked together.
 */
export function ShadowLeaderboard({ board, error }: { board: Board | undefined; error: unknown }) {
  if (error) return <Card title="Shadow Model Leaderboard"><p role="alert" className="text-sm text-red-600">Could not load the shadow leaderboard.</p></Card>;
  if (!board) return <Card title="Shadow Model Leaderboard"><p className="text-sm text-slate-500">Loading...</p></Card>;
  return (
    <Card title="Shadow Model Leaderboard">
      <div className="space-y-3" data-testid="shadow-leaderboard">
        <p className="text-xs text-slate-500 dark:text-slate-400">{boardBasis(board, formatDateTime)}</p>
        {board.models.length > 0 && (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
                  <th className="py-2 pr-3">Model</th>
                  <th className="py-2 pr-3 text-right">Decisions</th>
                  <th className="py-2 pr-3 text-right">Buy / Sell</th>
                  <th className="py-2 pr-3 text-right">Failed</th>
                  <th className="py-2 pr-3 text-right" title="Closed paper round trips, compounded, net of fees, averaged over the symbols">Realised return</th>
                  <th className="py-2 pr-3 text-right" title="Closed round trips with a net profit / closed round trips">Hit rate</th>
                  <th className="py-2 pr-3 text-right">Round trips</th>
                  <th className="py-2 text-right">Cost (USD)</th>
                </tr>
              </thead>
              <tbody>
                {board.models.map((m) => (
                  <tr key={`${m.role} ${m.provider} ${m.model}`} data-testid="leaderboard-row" className="border-b border-slate-100 dark:border-slate-800">
                    <td className="py-2 pr-3">
                      <span className="font-medium">{shadowLabel(m)}</span>
                      <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">{m.role === 'live' ? 'live' : 'shadow'}</span>
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatCount(m.decisions)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">
                      {m.buys} / {m.sells}
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatCount(m.failed)}</td>
                    <td className={`py-2 pr-3 text-right font-semibold tabular-nums ${Number(m.realised_return) < 0 ? 'text-red-600 dark:text-red-400' : Number(m.realised_return) > 0 ? 'text-emerald-700 dark:text-emerald-400' : ''}`}>
                      {returnPercent(m.realised_return)}
                      {m.open_positions > 0 && <span className="block text-xs font-normal text-slate-500">{m.open_positions} open</span>}
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{m.hit_rate == null ? '—' : formatShare(m.hit_rate, 0)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatCount(m.round_trips)}</td>
                    <td className="py-2 text-right tabular-nums">{cost(m)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </Card>
  );
}
