import { useState } from 'react';
import { btn } from '@/components/Modal';
import { Tabs } from '@/components/Tabs';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { toCSV } from '@/lib/csv';
import { formatShare } from '@/lib/format';
import { useAIDecisions, useSignals, useSignalStream, useStrategies } from '../api';
import { confidenceClass, CSV_COLUMNS, evaluationRows, exportFileName, MSG, summarize } from '../model';
import type { EvalFilters, Evaluation } from '../types';
import { EvaluationTable } from './EvaluationTable';
import { useSymbolChoices } from '@/lib/products';

const TABS = ['AI Decisions', 'Strategy Signals', 'Analytics'] as const;
type Tab = (typeof TABS)[number];
const NO_FILTERS: EvalFilters = { symbol: '', strategy: '', executed: '' };

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

const selectClass = 'mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800';

/** Strategy History and Analytics: AI decisions, every strategy's signals, and figures over them. */
export function HistoryView() {
  useSignalStream();
  const [tab, setTab] = useState<Tab>('AI Decisions');
  const [f, setF] = useState<EvalFilters>(NO_FILTERS);
  const symbols = useSymbolChoices(f.symbol);
  const strategies = useStrategies();
  const all = strategies.data ?? [];
  const names = f.strategy ? [f.strategy] : all.map((s) => s.name);
  const aiNames = new Set(all.filter((s) => s.type !== 'technical').map((s) => s.name));
  // A technical strategy makes no AI decisions: nothing to ask for.
  const technicalPicked = !!f.strategy && !aiNames.has(f.strategy);
  const decisions = useAIDecisions(f, !technicalPicked && !strategies.isLoading);
  const signals = useSignals(names, { symbol: f.symbol, executed: f.executed });
  const decisionRows = technicalPicked ? [] : (decisions.data ?? []);
  const shown: Evaluation[] = tab === 'AI Decisions' ? decisionRows : signals.data;
  const set = (k: keyof EvalFilters, v: string) => setF((x) => ({ ...x, [k]: v }));

  return (
    <div className="space-y-4">
      <Card>
        <div className="grid items-end gap-3 md:grid-cols-5">
          <label className="text-sm">
            Symbol
            <select aria-label="Symbol filter" className={selectClass} value={f.symbol} onChange={(e) => set('symbol', e.target.value)}>
              <option value="">All symbols</option>
              {symbols.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            Strategy
            <select aria-label="Strategy filter" className={selectClass} value={f.strategy} onChange={(e) => set('strategy', e.target.value)}>
              <option value="">All strategies</option>
              {all.map((s) => (
                <option key={s.name}>{s.name}</option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            Execution status
            <select aria-label="Execution status filter" className={selectClass} value={f.executed} onChange={(e) => set('executed', e.target.value)}>
              <option value="">All</option>
              <option value="true">Executed</option>
              <option value="false">Not Executed</option>
            </select>
          </label>
          <button type="button" className={btn.secondary} onClick={() => setF(NO_FILTERS)}>
            Clear Filters
          </button>
          <button type="button" className={btn.primary} disabled={shown.length === 0} onClick={() => download(exportFileName(new Date()), toCSV(CSV_COLUMNS, evaluationRows(shown)))}>
            Export Data
          </button>
        </div>
        {strategies.error && (
          <p role="alert" className="mt-2 text-sm text-red-600">
            {MSG.loadStrategies}
          </p>
        )}
      </Card>
      <Tabs tabs={TABS} value={tab} onChange={setTab} />
      {tab === 'AI Decisions' && (
        <Card title="AI Decisions">
          {decisions.isLoading && !technicalPicked ? <Spinner /> : decisions.error ? <p role="alert" className="text-sm text-red-600">{MSG.loadDecisions}</p> : <EvaluationTable rows={decisionRows} empty={MSG.noDecisions} showModel />}
        </Card>
      )}
      {tab === 'Strategy Signals' && (
        <Card title="Strategy Signals">
          {signals.isLoading ? <Spinner /> : signals.error ? <p role="alert" className="text-sm text-red-600">{MSG.loadSignals}</p> : <EvaluationTable rows={signals.data} empty="No strategy signals found" />}
        </Card>
      )}
      {tab === 'Analytics' && <Analytics evs={signals.data} />}
      <p className="text-xs text-slate-500 dark:text-slate-400">The latest 100 of each list; new signals appear as they are made.</p>
    </div>
  );
}

function Analytics({ evs }: { evs: Evaluation[] }) {
  if (evs.length === 0)
    return (
      <Card title="Analytics">
        <p className="text-sm text-slate-500 dark:text-slate-400">{MSG.noAnalysis}</p>
      </Card>
    );
  const s = summarize(evs);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card title="Overview">
        <dl className="grid grid-cols-2 gap-3 text-sm" data-testid="history-analytics">
          <Fig label="Signals" value={String(s.total)} />
          <Fig label="Executed" value={String(s.executed)} />
          <Fig label="Execution Rate" value={formatShare(s.executionRate * 100, 1)} />
          <Fig label="Average Confidence" value={formatShare(s.avgConfidence * 100, 1)} cls={confidenceClass(s.avgConfidence)} />
        </dl>
      </Card>
      <Breakdown title="By Decision" rows={s.decisions} />
      <Breakdown title="By Strategy" rows={s.strategies} />
      <Breakdown title="By Symbol" rows={s.symbols} />
      <Breakdown title="Outcome (why not executed)" rows={s.reasons} className="md:col-span-2" />
    </div>
  );
}

function Fig({ label, value, cls = '' }: { label: string; value: string; cls?: string }) {
  return (
    <div>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${cls}`}>{value}</dd>
    </div>
  );
}

function Breakdown({ title, rows, className = '' }: { title: string; rows: ReturnType<typeof summarize>['decisions']; className?: string }) {
  return (
    <Card title={title} className={className}>
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-xs uppercase text-slate-500 dark:text-slate-400">
            <th className="py-1">{title.startsWith('Outcome') ? 'Outcome' : title.replace('By ', '')}</th>
            <th className="py-1 text-right">Count</th>
            <th className="py-1 text-right">Executed</th>
            <th className="py-1 text-right">Avg confidence</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-t border-slate-100 tabular-nums dark:border-slate-800">
              <td className="py-1">{r.key}</td>
              <td className="py-1 text-right">{r.count}</td>
              <td className="py-1 text-right">{r.executed}</td>
              <td className={`py-1 text-right ${confidenceClass(r.avgConfidence)}`}>{formatShare(r.avgConfidence * 100, 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
