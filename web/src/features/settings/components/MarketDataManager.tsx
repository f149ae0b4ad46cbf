import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ErrorBox } from '@/components/Field';
import { ApiError, errorMessage } from '@/lib/api';
import { formatCount, formatDate, formatDateTime } from '@/lib/format';
import { realtime } from '@/lib/useRealtime';
import { active, BACKFILL_GRANULARITIES, duration, GRANULARITIES, marketDataApi, marketDataKeys, type Backfill, type BackfillRequest } from '../marketDataApi';
import { timeframeLabel } from '@/lib/timeframe';
import { useSymbols } from '@/lib/products';

const th = 'px-2 py-1.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400';
const td = 'px-2 py-1.5 whitespace-nowrap';
const input = 'mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800';
const button = 'rounded bg-blue-600 px-3 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50';
const cancelButton =
  'rounded border border-red-300 bg-white px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50 disabled:opacity-50 dark:border-red-800 dark:bg-slate-800 dark:text-red-300';
const linkButton = 'text-blue-700 underline hover:text-blue-900 dark:text-blue-300';

// A UTC calendar day in the chosen date order.
const day = (iso: string) => formatDate(iso.slice(0, 10));
const STATUS: Record<string, string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };

// The jobs channel is shared: the last user to unmount unsubscribes.
let jobStreamUsers = 0;

/** Follows backfill jobs over the WebSocket's jobs channel while mounted: each change refetches the list. */
function useBackfillStream(onChange: (done: boolean) => void) {
  useEffect(() => {
    const off = realtime.onMessage((m) => {
      const j = m.data as { kind?: string; status?: string } | null;
      if (m.type === 'job_update' && j?.kind === 'backfill') onChange(j.status === 'completed' || j.status === 'failed' || j.status === 'cancelled');
    });
    if (jobStreamUsers++ === 0) realtime.subscribe(['jobs']);
    return () => {
      off();
      if (--jobStreamUsers === 0) realtime.unsubscribe(['jobs']);
    };
  }, [onChange]);
}

/**
 * Settings -> Market data: what the candle store holds per symbol, granularity and source, what history
 * backtests can use, gap reports, and backfills of Coinbase's public candles (operators) with their progress.
 */
export function MarketDataManager({ isOperator }: { isOperator: boolean }) {
  const qc = useQueryClient();
  const coverage = useQuery({ queryKey: marketDataKeys.coverage, queryFn: marketDataApi.coverage });
  const backfills = useQuery({
    queryKey: marketDataKeys.backfills,
    queryFn: marketDataApi.backfills,
    // The jobs channel brings each change; the poll is the net under it while one runs.
    refetchInterval: (q) => ((q.state.data ?? []).some(active) ? 2000 : false),
  });
  const [gapFor, setGapFor] = useState<{ symbol: string; granularity: string } | null>(null);
  const [onChange] = useState(() => (done: boolean) => {
    void qc.invalidateQueries({ queryKey: marketDataKeys.backfills });
    if (done) void qc.invalidateQueries({ queryKey: marketDataKeys.all });
  });
  useBackfillStream(onChange);

  const rows = coverage.data?.coverage ?? [];
  const listed = useSymbols().symbols;
  const symbols = [...new Set([...(coverage.data?.backtests ?? []).map((b) => b.symbol), ...listed])].sort();

  return (
    <div className="space-y-6 text-sm">
      <section aria-labelledby="md-backtests">
        <h3 id="md-backtests" className="mb-2 font-semibold">
          What backtests can use
        </h3>
        {coverage.isError && <ErrorBox message={errorMessage(coverage.error, 'Could not load the coverage')} />}
        {coverage.isPending && <p className="text-slate-500 dark:text-slate-400">Reading the candle store...</p>}
        <ul className="space-y-1" data-testid="md-backtests">
          {(coverage.data?.backtests ?? []).map((b) => (
            <li key={b.symbol}>
              <strong>{b.symbol}</strong>: {b.message.replace(`Market data for ${b.symbol} covers`, 'history from')} ({b.sources.join(', ')})
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          A backtest reads, bucket by bucket, the candles stored at its timeframe, else builds them from a narrower stored width (the widest holding the bucket whole); one- and five-minute candles are generated inside
          the 15-minute ones. Its report names the sources it read.
        </p>
      </section>

      <section aria-labelledby="md-coverage">
        <h3 id="md-coverage" className="mb-2 font-semibold">
          Coverage
        </h3>
        <div className="overflow-x-auto">
          <table className="min-w-full" data-testid="md-coverage">
            <thead>
              <tr>
                <th className={th}>Symbol</th>
                <th className={th}>Granularity</th>
                <th className={th}>Source</th>
                <th className={th}>From</th>
                <th className={th}>To</th>
                <th className={`${th} text-right`}>Candles</th>
                <th className={`${th} text-right`}>Gaps</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={`${c.symbol}|${c.granularity}|${c.source}`} className="border-t border-slate-100 dark:border-slate-800">
                  <td className={td}>{c.symbol}</td>
                  <td className={td}>{timeframeLabel(c.granularity)}</td>
                  <td className={td}>{c.source}</td>
                  <td className={td}>{formatDateTime(c.from)}</td>
                  <td className={td}>{formatDateTime(c.to)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatCount(c.candles)}</td>
                  <td className={`${td} text-right tabular-nums`}>
                    <button type="button" className={linkButton} onClick={() => setGapFor({ symbol: c.symbol, granularity: c.granularity })} aria-label={`Gap report ${c.symbol} ${c.granularity}`}>
                      {c.gaps.length}
                    </button>
                  </td>
                </tr>
              ))}
              {coverage.isSuccess && rows.length === 0 && (
                <tr>
                  <td className={td} colSpan={7}>
                    The candle store is empty.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>

      <GapReportView symbols={symbols} value={gapFor} onChange={setGapFor} />

      <section aria-labelledby="md-backfill">
        <h3 id="md-backfill" className="mb-2 font-semibold">
          Backfill from Coinbase
        </h3>
        {isOperator ? (
          <BackfillForm symbols={symbols} onQueued={() => void qc.invalidateQueries({ queryKey: marketDataKeys.backfills })} />
        ) : (
          <p className="text-slate-500 dark:text-slate-400">Only operators start backfills: they write the candle store every backtest reads.</p>
        )}
        {backfills.isError && <ErrorBox message={errorMessage(backfills.error, 'Could not load the backfills')} />}
        <BackfillList items={backfills.data ?? []} canCancel={isOperator} onCancelled={() => void qc.invalidateQueries({ queryKey: marketDataKeys.backfills })} />
      </section>
    </div>
  );
}

/** The default range: the last 90 days, to the current hour (UTC). */
function defaultRange(): { start: string; end: string } {
  const end = new Date();
  end.setUTCMinutes(0, 0, 0);
  const start = new Date(end.getTime() - 90 * 86_400_000);
  return { start: start.toISOString().slice(0, 16), end: end.toISOString().slice(0, 16) };
}

function BackfillForm({ symbols, onQueued }: { symbols: string[]; onQueued: () => void }) {
  const [form, setForm] = useState<BackfillRequest>(() => ({ symbol: 'BTC-USD', granularity: 'ONE_HOUR', ...defaultRange() }));
  const [fields, setFields] = useState<Record<string, string>>({});
  const submit = useMutation({
    // The inputs hold UTC times without a zone: the API takes RFC 3339.
    mutationFn: () => marketDataApi.backfill({ ...form, start: `${form.start}:00Z`, end: `${form.end}:00Z` }),
    onSuccess: () => {
      setFields({});
      onQueued();
    },
    onError: (err) => setFields(err instanceof ApiError ? err.fields : {}),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit.mutate();
  };
  const set = (k: keyof BackfillRequest) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const err = (k: string) =>
    fields[k] ? (
      <span id={`bf-${k}-error`} className="mt-1 block text-xs text-red-600 dark:text-red-400">
        {fields[k]}
      </span>
    ) : null;
  return (
    <form onSubmit={onSubmit} className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5" aria-label="Backfill">
      <label className="block">
        <span className="text-xs font-medium">Symbol</span>
        <select className={input} value={form.symbol} onChange={set('symbol')} aria-invalid={!!fields.symbol}>
          {symbols.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        {err('symbol')}
      </label>
      <label className="block">
        <span className="text-xs font-medium">Granularity</span>
        <select className={input} value={form.granularity} onChange={set('granularity')} aria-invalid={!!fields.granularity}>
          {BACKFILL_GRANULARITIES.map((g) => (
            <option key={g} value={g}>
              {timeframeLabel(g)}
            </option>
          ))}
        </select>
        {err('granularity')}
      </label>
      <label className="block">
        <span className="text-xs font-medium">Start (UTC)</span>
        <input type="datetime-local" className={input} value={form.start} onChange={set('start')} aria-invalid={!!fields.start} />
        {err('start')}
      </label>
      <label className="block">
        <span className="text-xs font-medium">End (UTC)</span>
        <input type="datetime-local" className={input} value={form.end} onChange={set('end')} aria-invalid={!!fields.end} />
        {err('end')}
      </label>
      <div className="flex items-end">
        <button type="submit" className={button} disabled={submit.isPending}>
          {submit.isPending ? 'Queueing...' : 'Start backfill'}
        </button>
      </div>
      {submit.isError && Object.keys(fields).length === 0 && (
        <div className="sm:col-span-2 lg:col-span-5">
          <ErrorBox message={errorMessage(submit.error, 'The backfill could not be queued')} />
        </div>
      )}
      <p className="text-xs text-slate-500 dark:text-slate-400 sm:col-span-2 lg:col-span-5">
        Fetches Coinbase&apos;s public candles (no key) in pages of 350, at most 3 requests a second, and stores them with the source &quot;coinbase&quot;; candles the shipped data holds keep
        their source. Only closed candles are stored. It survives a restart and carries on from its last page.
      </p>
    </form>
  );
}

function BackfillList({ items, canCancel, onCancelled }: { items: Backfill[]; canCancel: boolean; onCancelled: () => void }) {
  const cancel = useMutation({ mutationFn: marketDataApi.cancel, onSettled: onCancelled });
  if (items.length === 0) return <p className="text-slate-500 dark:text-slate-400">No backfill yet.</p>;
  return (
    <ul className="space-y-3" data-testid="md-backfills">
      {items.slice(0, 10).map((b) => {
        const pct = Math.floor(b.progress * 100);
        return (
          <li key={b.id} className="rounded border border-slate-200 p-3 dark:border-slate-800" data-testid="md-backfill">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span>
                <strong>{b.symbol}</strong> {timeframeLabel(b.granularity)} · {day(b.start)} to {day(b.end)} · {formatCount(b.planned)} candles
              </span>
              <span className="flex items-center gap-2">
                <span data-testid="md-backfill-status">{STATUS[b.status] ?? b.status}</span>
                {canCancel && active(b) && (
                  <button type="button" className={cancelButton} onClick={() => cancel.mutate(b.id)} disabled={cancel.isPending}>
                    Cancel
                  </button>
                )}
              </span>
            </div>
            <div
              role="progressbar"
              aria-label={`Backfill ${b.symbol} ${b.granularity} progress`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
              className="mt-2 h-2.5 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800"
            >
              <div className={`h-full transition-[width] ${b.status === 'failed' ? 'bg-red-500' : b.status === 'cancelled' ? 'bg-slate-400' : 'bg-blue-600'}`} style={{ width: `${pct}%` }} />
            </div>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {pct}% · {b.requests} requests, {formatCount(b.fetched)} candles fetched, {formatCount(b.written)} stored
              {b.cursor ? ` · stored up to ${formatDateTime(b.cursor)}` : ''}
              {b.error ? ` · ${b.error}` : ''}
            </p>
          </li>
        );
      })}
      {cancel.isError && <ErrorBox message={errorMessage(cancel.error, 'The backfill could not be cancelled')} />}
    </ul>
  );
}

function GapReportView({
  symbols,
  value,
  onChange,
}: {
  symbols: string[];
  value: { symbol: string; granularity: string } | null;
  onChange: (v: { symbol: string; granularity: string }) => void;
}) {
  const sel = value ?? { symbol: 'BTC-USD', granularity: 'ONE_HOUR' };
  const report = useQuery({ queryKey: marketDataKeys.gaps(sel.symbol, sel.granularity), queryFn: () => marketDataApi.gaps(sel.symbol, sel.granularity) });
  const r = report.data;
  return (
    <section aria-labelledby="md-gaps">
      <h3 id="md-gaps" className="mb-2 font-semibold">
        Gap report
      </h3>
      <div className="mb-2 flex flex-wrap gap-3">
        <label className="block">
          <span className="text-xs font-medium">Symbol</span>
          <select className={input} value={sel.symbol} onChange={(e) => onChange({ ...sel, symbol: e.target.value })} aria-label="Gap report symbol">
            {symbols.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="text-xs font-medium">Granularity</span>
          <select className={input} value={sel.granularity} onChange={(e) => onChange({ ...sel, granularity: e.target.value })} aria-label="Gap report granularity">
            {GRANULARITIES.map((g) => (
              <option key={g} value={g}>
                {timeframeLabel(g)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {report.isError && <ErrorBox message={errorMessage(report.error, 'Could not load the gap report')} />}
      {report.isFetching && <p className="text-xs text-slate-500 dark:text-slate-400">Reading...</p>}
      {r && (
        <div data-testid="md-gap-report">
          <p>
            A {timeframeLabel(r.granularity)} backtest of {r.symbol} reads {formatCount(r.candles)} candles from {formatDateTime(r.from)} to {formatDateTime(r.to)} ({r.source || 'no source'}
            {r.synthetic ? '; generated inside the 15-minute candles' : ''}); {r.gaps.length === 0 ? 'no gaps.' : `${r.gaps.length} gap${r.gaps.length === 1 ? '' : 's'}:`}
          </p>
          {r.gaps.length > 0 && (
            <ul className="mt-1 max-h-48 space-y-0.5 overflow-y-auto text-xs tabular-nums">
              {r.gaps.slice(0, 200).map((g) => (
                <li key={g.from}>
                  {formatDateTime(g.from)} to {formatDateTime(g.to)} ({duration(g.from, g.to)})
                </li>
              ))}
              {r.gaps.length > 200 && <li>and {r.gaps.length - 200} more</li>}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
