import { useState } from 'react';
import { Link } from 'react-router-dom';
import { btn, inputClass } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { ApiError, errorMessage } from '@/lib/api';
import { useIsOperator } from '../../../strategies/api';
import { useRunBacktest } from '../../../backtest/api';
import { AI_MODES, defaultForm, formErrors, isEstimate, toAsk, validateBacktest, type BacktestErrors, type BacktestForm } from '../../../backtest/model';
import type { BacktestAsk, LiveEstimate } from '../../../backtest/types';
import { useDataPeriod } from '@/lib/coverage';
import type { PromptHistory } from '../../promptApi';
import { templateLabel } from '../../promptModel';
import { ConfirmLive } from '../../../backtest/components/ConfirmLive';
import { PeriodStatus } from '@/components/PeriodStatus';

const selectClass = `${inputClass} py-1.5`;

/**
 * "Backtest this prompt": a run of one strategy version (the active one
 * by default) on a chosen period, replaying recorded answers or asking the
 * live model, through the backtest API; the run opens on the Backtest screen.
 */
export function PromptBacktest({ name, symbols, history }: { name: string; symbols: string[]; history: PromptHistory }) {
  const operator = useIsOperator();
  const [version, setVersion] = useState(history.active_version);
  const [form, setForm] = useState<BacktestForm>(() => ({ ...defaultForm(), strategy_name: name, symbol: symbols[0] ?? 'BTC-USD', ai_mode: 'recorded' }));
  const period = useDataPeriod(form, setForm);
  const [errors, setErrors] = useState<BacktestErrors>({});
  const [estimate, setEstimate] = useState<{ ask: BacktestAsk; e: LiveEstimate } | null>(null);
  const [queued, setQueued] = useState<{ id: string; version: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = useRunBacktest();
  const modes = AI_MODES.filter((m) => m.value === 'recorded' || (m.value === 'live' && operator));
  const set = (k: keyof BacktestForm, v: string) => setForm((f) => ({ ...f, [k]: v }));

  const send = (ask: BacktestAsk) => {
    setFailure(null);
    run.mutate(ask, {
      onSuccess: (r) => {
        if (isEstimate(r)) {
          setEstimate({ ask, e: r });
          return;
        }
        setEstimate(null);
        setQueued({ id: r.id, version: ask.strategy_version ?? history.active_version });
      },
      onError: (e) => {
        setEstimate(null);
        if (e instanceof ApiError && Object.keys(e.fields).length) setErrors(formErrors(e.fields));
        setFailure(errorMessage(e, 'Failed to start the backtest'));
      },
    });
  };
  const start = () => {
    const e = validateBacktest(form, period.span);
    setErrors(e);
    setQueued(null);
    if (Object.keys(e).length) return;
    send({ ...toAsk(form), strategy_version: version });
  };
  const v = history.versions.find((x) => x.version === version);

  return (
    <Card title="Backtest this prompt">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">
          <span className="font-medium text-slate-700 dark:text-slate-300">Strategy version</span>
          <select aria-label="Strategy version to backtest" value={version} onChange={(e) => setVersion(Number(e.target.value))} className={selectClass}>
            {history.versions.map((x) => (
              <option key={x.version} value={x.version}>
                v{x.version}
                {x.active ? ' (active)' : ''} · {templateLabel(x)}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          <span className="font-medium text-slate-700 dark:text-slate-300">Decisions</span>
          <select aria-label="AI mode" value={form.ai_mode} onChange={(e) => set('ai_mode', e.target.value)} className={selectClass}>
            {modes.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          <span className="font-medium text-slate-700 dark:text-slate-300">Symbol</span>
          <select aria-label="Backtest symbol" value={form.symbol} onChange={(e) => set('symbol', e.target.value)} className={selectClass}>
            {(symbols.length ? symbols : ['BTC-USD']).map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <div className="grid grid-cols-2 gap-2">
          <label className="block text-sm">
            <span className="font-medium text-slate-700 dark:text-slate-300">Start</span>
            <input type="date" aria-label="Backtest start date" value={form.start_date} onChange={(e) => set('start_date', e.target.value)} className={selectClass} aria-invalid={!!errors.start_date} />
          </label>
          <label className="block text-sm">
            <span className="font-medium text-slate-700 dark:text-slate-300">End</span>
            <input type="date" aria-label="Backtest end date" value={form.end_date} onChange={(e) => set('end_date', e.target.value)} className={selectClass} aria-invalid={!!errors.end_date} />
          </label>
        </div>
      </div>
      <PeriodStatus period={period} className="mt-2 block" />
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{AI_MODES.find((m) => m.value === form.ai_mode)?.hint}</p>
      {Object.values(errors).filter(Boolean).length > 0 && (
        <ul role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {Object.entries(errors).map(([k, msg]) => (
            <li key={k}>{msg}</li>
          ))}
        </ul>
      )}
      {failure && !Object.keys(errors).length && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {failure}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className={btn.primary} disabled={run.isPending || !period.known} onClick={start}>
          {run.isPending ? 'Starting...' : `Backtest v${version}`}
        </button>
        {v && <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{templateLabel(v)}</span>}
      </div>
      {estimate && (
        <div className="mt-3">
          <ConfirmLive e={estimate.e} onConfirm={() => send({ ...estimate.ask, confirm_live: true })} onCancel={() => setEstimate(null)} />
        </div>
      )}
      {queued && (
        <p role="status" className="mt-3 text-sm text-emerald-700 dark:text-emerald-400">
          Backtest of v{queued.version} queued.{' '}
          <Link className="font-semibold underline" to={`/strategy/backtest?run=${encodeURIComponent(queued.id)}`}>
            Open the run
          </Link>
        </p>
      )}
    </Card>
  );
}
