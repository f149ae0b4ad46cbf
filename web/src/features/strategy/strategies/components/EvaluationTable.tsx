import { formatDateTime, formatShare } from '@/lib/format';
import { confidenceClass, DECISION_CLASS, executionText, modelLabel } from '../model';
import { shadowLabel } from '../../ai/shadowModel';
import type { ShadowDecision } from '../../ai/types';
import type { Evaluation } from '../types';
import { Badge } from './controls';

/** Signals or AI decisions, newest first: what was decided, how sure, why, and whether it traded (or why not). */
export function EvaluationTable({ rows, empty, showModel = false, shadows }: { rows: Evaluation[]; empty: string; showModel?: boolean; shadows?: Map<string, ShadowDecision[]> }) {
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{empty}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
            <th className="py-2 pr-3">Time</th>
            <th className="py-2 pr-3">Strategy</th>
            <th className="py-2 pr-3">Symbol</th>
            <th className="py-2 pr-3">Decision</th>
            <th className="py-2 pr-3">Confidence</th>
            <th className="py-2 pr-3">Reasoning</th>
            <th className="py-2">Execution</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.id} data-testid="evaluation-row" className="border-b border-slate-100 align-top dark:border-slate-800">
              <td className="whitespace-nowrap py-2 pr-3 tabular-nums">{formatDateTime(e.timestamp)}</td>
              <td className="py-2 pr-3">
                <span>{e.strategy_name}</span>
                {e.strategy_version ? <span className="ml-1 text-xs text-slate-500 dark:text-slate-400" title="The configuration version it ran">v{e.strategy_version}</span> : null}
              </td>
              <td className="py-2 pr-3">{e.symbol}</td>
              <td className="py-2 pr-3">
                <Badge className={e.error ? DECISION_CLASS.SELL! : (DECISION_CLASS[e.decision] ?? DECISION_CLASS.HOLD!)}>{e.error ? 'FAILED' : e.decision}</Badge>
              </td>
              <td className={`py-2 pr-3 font-semibold tabular-nums ${confidenceClass(e.confidence)}`}>{formatShare(e.confidence * 100, 0)}</td>
              <td className="max-w-md py-2 pr-3">
                {e.error ? <span className="text-red-600 dark:text-red-400">{e.error}</span> : e.reasoning}
                {showModel && modelLabel(e) && (
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {modelLabel(e)}
                    {e.latency_ms ? ` · ${e.latency_ms} ms` : ''}
                    {e.template_version ? (
                      <span className="font-mono" title="The prompt template the decision rendered">
                        {` · prompt ${e.template_version}`}
                      </span>
                    ) : null}
                  </span>
                )}
                {shadows?.get(e.id)?.length ? <ShadowAnswers rows={shadows.get(e.id)!} /> : null}
              </td>
              <td className={`max-w-xs py-2 text-xs ${e.executed ? 'font-semibold text-emerald-700 dark:text-emerald-400' : 'text-slate-600 dark:text-slate-400'}`}>{executionText(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The shadow models' answers to the same prompt: recorded, never traded. */
function ShadowAnswers({ rows }: { rows: ShadowDecision[] }) {
  return (
    <ul className="mt-1 space-y-0.5 border-l-2 border-slate-200 pl-2 text-xs dark:border-slate-700" aria-label="Shadow models">
      {rows.map((d) => (
        <li key={d.id} data-testid="shadow-answer" title={d.error || d.reasoning}>
          <span className="text-slate-500 dark:text-slate-400">Shadow {shadowLabel(d)}: </span>
          {d.error ? (
            <span className="text-red-600 dark:text-red-400">failed ({d.error})</span>
          ) : (
            <>
              <Badge className={DECISION_CLASS[d.decision] ?? DECISION_CLASS.HOLD!}>{d.decision}</Badge> <span className="tabular-nums">{formatShare(d.confidence * 100, 0)}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
