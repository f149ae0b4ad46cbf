import { useState } from 'react';
import { btn, Modal } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatDateTime, formatMoney, formatNumber, formatPercent, formatPrice, formatQty, formatSignedMoney, pnlClass } from '@/lib/format';
import { useIsOperator } from '../../strategies/api';
import { useApprove, useClosePositions, useDemote, useDrift, usePromotions, refusedGates, type DriftSymbol, type PromotionGate, type PromotionSettings, type PromotionStage } from '../promotionApi';
import { Badge } from '../../strategies/components/controls';
import type { useFlash } from '@/components/Flash';

type Flash = ReturnType<typeof useFlash>;

const DEMOTED = 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200';
const STATUS: Record<string, string> = {
  running: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200',
  promoted: 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-200',
  demoted: DEMOTED,
};

/** A gate's figure: a count as it is, a ratio to 2 places. */
const figure = (n: number) => formatNumber(n, Number.isInteger(n) ? 0 : 2);

/** What a refused promotion said: each gate, the figure required and the one seen. */
export function GateTable({ gates }: { gates: PromotionGate[] }) {
  return (
    <table className="w-full text-sm" aria-label="Gates">
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
          <th className="py-1.5 pr-3">Gate</th>
          <th className="py-1.5 pr-3">Required</th>
          <th className="py-1.5 pr-3">Seen</th>
          <th className="py-1.5">Detail</th>
        </tr>
      </thead>
      <tbody>
        {gates.map((g) => (
          <tr key={g.setting} data-testid="gate-row" className="border-b border-slate-100 dark:border-slate-800">
            <td className="py-1.5 pr-3">
              <span className={g.passed ? 'text-emerald-700 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}>{g.passed ? '✓' : '✗'}</span> {g.name}
              <div className="font-mono text-xs text-slate-500 dark:text-slate-400">{g.setting}</div>
            </td>
            <td className="py-1.5 pr-3 tabular-nums">{figure(g.required)}</td>
            <td className="py-1.5 pr-3 tabular-nums">{g.seen === null ? 'none' : figure(g.seen)}</td>
            <td className="py-1.5 text-xs">{g.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The gate settings in words, so a person knows what a version will be checked against. */
function GateSummary({ s }: { s: PromotionSettings }) {
  const paper = s.paper.requireWalkForward
    ? `a finished walk-forward sweep with at least ${s.paper.minOOSTrades} out-of-sample trades and a mean out-of-sample Sharpe ratio of at least ${formatNumber(s.paper.minOOSSharpe, 2)}`
    : 'no walk-forward sweep (not required by the settings)';
  return (
    <p className="mb-3 text-xs text-slate-500 dark:text-slate-400" data-testid="gate-summary">
      To paper: {paper}; the paper account starts with {formatMoney(s.paperStartingUSD)}. To live: an operator&apos;s approval after at least {s.live.minPaperDays} days and{' '}
      {s.live.minPaperTrades} filled orders on paper. Settings → Trading → Promotion.
    </p>
  );
}

/**
 * The promotion of an instance's versions: a refused promotion's gates, the
 * stages with their status and paper accounts, Approve for live
 * (operators), Demote, and a paper stage's drift report.
 */
export function PromotionPanel({ name, refused, onDismiss, flash }: { name: string; refused: { version: number; gates: PromotionGate[] } | null; onDismiss: () => void; flash: Flash }) {
  const q = usePromotions(name);
  const [drift, setDrift] = useState('');
  const [demoting, setDemoting] = useState<PromotionStage | null>(null);
  return (
    <>
      {refused && (
        <Card title={`Version ${refused.version} was not promoted`}>
          <div role="alert">
            <p className="mb-2 text-sm text-red-700 dark:text-red-300">The server checked these gates and refused the promotion:</p>
            <GateTable gates={refused.gates} />
          </div>
          <button type="button" className={`${btn.small} mt-2`} onClick={onDismiss}>
            Dismiss
          </button>
        </Card>
      )}
      <Card title="Promotion: paper and live">
        {q.isLoading && <Spinner />}
        {q.error && <p role="alert" className="text-sm text-red-600">Failed to load the promotions: {(q.error as Error).message}</p>}
        {q.data && <GateSummary s={q.data.settings} />}
        {q.data && q.data.stages.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No version of {name} has been promoted yet. Promote one from the history above.</p>}
        <ul className="space-y-3">
          {q.data?.stages.map((s) => (
            <StageRow key={s.id} name={name} s={s} flash={flash} onDrift={() => setDrift(drift === s.id ? '' : s.id)} showingDrift={drift === s.id} onDemote={() => setDemoting(s)} />
          ))}
        </ul>
      </Card>
      {drift && <DriftView name={name} id={drift} />}
      {demoting && <DemoteDialog name={name} s={demoting} flash={flash} onClose={() => setDemoting(null)} />}
    </>
  );
}

function StageRow({ name, s, flash, onDrift, showingDrift, onDemote }: { name: string; s: PromotionStage; flash: Flash; onDrift: () => void; showingDrift: boolean; onDemote: () => void }) {
  const operator = useIsOperator();
  const approve = useApprove(name);
  const close = useClosePositions(name);
  const [gates, setGates] = useState<PromotionGate[]>([]);
  const [confirmClose, setConfirmClose] = useState(false);
  const running = s.status === 'running';
  const holding = (s.paper_account?.positions ?? []).filter((p) => Number(p.quantity) > 0);
  const closeAll = () =>
    close.mutate(s.id, {
      onSuccess: (r) => {
        setConfirmClose(false);
        if (r.warning) flash.fail(`Closed ${r.count} position(s) of version ${s.version}; not all`, new Error(r.warning));
        else flash.ok(`Closed ${r.count} position(s) of version ${s.version}'s paper account`);
      },
      onError: (err) => {
        setConfirmClose(false);
        flash.fail(`Failed to close the positions of version ${s.version}`, err);
      },
    });
  const usd = s.paper_account?.balances.find((b) => b.currency === 'USD');
  const goLive = () =>
    approve.mutate(s.id, {
      onSuccess: (p) => {
        setGates([]);
        flash.ok(`${name} now runs version ${p.version} live`);
      },
      onError: (err) => {
        const g = refusedGates(err);
        setGates(g);
        if (g.length === 0) flash.fail(`Failed to approve version ${s.version} for live`, err);
      },
    });
  return (
    <li data-testid="stage-row" className="rounded border border-slate-200 p-3 text-sm dark:border-slate-800">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">v{s.version}</span>
        <Badge className="bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200">{s.stage === 'paper' ? 'Paper' : 'Live'}</Badge>
        <Badge className={STATUS[s.status] ?? DEMOTED}>{s.status}</Badge>
        <span className="text-slate-500 dark:text-slate-400">
          since {formatDateTime(s.started_at)} by {s.started_by}
          {s.approved_by ? ` · approved by ${s.approved_by}` : ''}
          {s.ended_at ? ` · ended ${formatDateTime(s.ended_at)} by ${s.ended_by}${s.reason ? ` (${s.reason})` : ''}` : ''}
        </span>
        <span className="ml-auto flex gap-2">
          {s.stage === 'paper' && (
            <button type="button" className={btn.small} onClick={onDrift} aria-expanded={showingDrift}>
              {showingDrift ? 'Hide drift report' : 'Drift report'}
            </button>
          )}
          {running && s.stage === 'paper' && (
            <button type="button" className={btn.small} disabled={!operator || approve.isPending} onClick={goLive} title={operator ? undefined : 'Only operators approve a version for live'}>
              Approve for live
            </button>
          )}
          {running && operator && (
            <button type="button" className={btn.small} onClick={onDemote}>
              Demote
            </button>
          )}
          {!running && s.stage === 'paper' && holding.length > 0 && operator && (
            <button type="button" className={btn.small} disabled={close.isPending} onClick={() => setConfirmClose(true)}>
              Close positions
            </button>
          )}
        </span>
      </div>
      {s.paper_account && (
        <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-6" aria-label={`Paper account of version ${s.version}`}>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Equity</dt>
            <dd className="tabular-nums" data-testid="stage-equity">
              {s.paper_account.equity === null ? (
                'no price'
              ) : (
                <>
                  {formatMoney(s.paper_account.equity)}{' '}
                  <span className={pnlClass(Number(s.paper_account.equity) - Number(s.starting_usd))}>
                    ({formatPercent(((Number(s.paper_account.equity) - Number(s.starting_usd)) / Number(s.starting_usd)) * 100)} since {formatMoney(s.starting_usd)})
                  </span>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Cash available</dt>
            <dd className="tabular-nums">{usd ? formatMoney(usd.available) : '—'}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Positions</dt>
            <dd className="tabular-nums">{s.paper_account.positions.filter((p) => Number(p.quantity) !== 0).map((p) => `${formatQty(p.quantity)} ${p.symbol}`).join(', ') || 'none'}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Orders filled</dt>
            <dd className="tabular-nums">{s.paper_account.orders_filled}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Fills</dt>
            <dd className="tabular-nums">{s.paper_account.fills}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Open orders</dt>
            <dd className="tabular-nums">{s.paper_account.open_orders}</dd>
          </div>
        </dl>
      )}
      {confirmClose && (
        <Modal title={`Close the positions of version ${s.version}?`} onClose={() => setConfirmClose(false)}>
          <p className="text-sm">
            Sells at market, in this stage&apos;s own paper account: {holding.map((p) => `${formatQty(p.quantity)} ${p.symbol}`).join(', ')}. The main account is not touched.
          </p>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className={btn.secondary} onClick={() => setConfirmClose(false)}>
              Cancel
            </button>
            <button type="button" className={btn.danger} disabled={close.isPending} onClick={closeAll}>
              Sell at market
            </button>
          </div>
        </Modal>
      )}
      {gates.length > 0 && (
        <div role="alert" className="mt-2">
          <p className="mb-1 text-red-700 dark:text-red-300">Not approved: the live gates refused it.</p>
          <GateTable gates={gates} />
        </div>
      )}
    </li>
  );
}

function DemoteDialog({ name, s, flash, onClose }: { name: string; s: PromotionStage; flash: Flash; onClose: () => void }) {
  const demote = useDemote(name);
  const [reason, setReason] = useState('');
  const run = () =>
    demote.mutate(
      { id: s.id, reason },
      {
        onSuccess: () => {
          flash.ok(`The ${s.stage} stage of version ${s.version} was demoted`);
          onClose();
        },
        onError: (err) => {
          flash.fail(`Failed to demote version ${s.version}`, err);
          onClose();
        },
      },
    );
  return (
    <Modal title={`Demote version ${s.version} from ${s.stage}?`} onClose={onClose}>
      <p className="text-sm">
        {s.stage === 'paper'
          ? 'Its engine stops at once and its resting orders are cancelled. Its fills, balances and positions stay in its paper account.'
          : `${name} is disabled at once: it places no new orders. Its open positions and orders stay as they are.`}
      </p>
      <label className="mt-3 block text-sm">
        Reason (optional)
        <input className="mt-1 w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </label>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className={btn.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={btn.danger} disabled={demote.isPending} onClick={run}>
          Demote
        </button>
      </div>
    </Modal>
  );
}

function DriftView({ name, id }: { name: string; id: string }) {
  const q = useDrift(name, id);
  if (q.isLoading) return <Spinner />;
  if (q.error || !q.data) return <p role="alert" className="text-sm text-red-600">Failed to load the drift report: {(q.error as Error | null)?.message ?? ''}</p>;
  const r = q.data;
  return (
    <Card title={`Drift report · version ${r.promotion.version} on paper against a backtest of the same window`}>
      <div data-testid="drift-report" className="space-y-3 text-sm">
        {r.from && r.to ? (
          <p>
            Window {formatDateTime(r.from)} – {formatDateTime(r.to)} ({r.market === 'replay' ? 'the replay' : 'Coinbase live market'}, {r.timeframe} candles)
            {r.market === 'replay' && r.data_from && r.data_to ? `; the backtest read the same history at its real dates, ${formatDateTime(r.data_from)} – ${formatDateTime(r.data_to)}` : ''}.
          </p>
        ) : null}
        <ul className="list-disc space-y-1 pl-5 text-xs text-slate-600 dark:text-slate-300" aria-label="How to read it">
          {r.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
        {r.symbols.map((s) => (
          <SymbolDriftView key={s.symbol} s={s} />
        ))}
      </div>
    </Card>
  );
}

const money = (v: string | null) => (v === null ? '—' : formatSignedMoney(v));

function SymbolDriftView({ s }: { s: DriftSymbol }) {
  const [all, setAll] = useState(false);
  const rows = all ? s.rows : s.rows.filter((r) => !r.agree || r.paper_fill || r.backtest_fill || (r.paper && r.paper.decision !== 'HOLD') || (r.backtest && r.backtest.decision !== 'HOLD'));
  const side = (label: string, t: DriftSymbol['paper']) => (
    <tr>
      <th className="py-1 pr-3 text-left font-medium">{label}</th>
      <td className="py-1 pr-3 tabular-nums">{t.evaluations}</td>
      <td className="py-1 pr-3 tabular-nums">
        {t.buy_signals} / {t.sell_signals}
      </td>
      <td className="py-1 pr-3 tabular-nums">{t.fills}</td>
      <td className="py-1 pr-3 tabular-nums">{formatMoney(t.fees)}</td>
      <td className="py-1 pr-3 tabular-nums">{formatQty(t.open_quantity)}</td>
      <td className={`py-1 tabular-nums ${t.pnl === null ? '' : pnlClass(t.pnl)}`}>{money(t.pnl)}</td>
    </tr>
  );
  return (
    <section aria-label={`Drift of ${s.symbol}`} className="rounded border border-slate-200 p-3 dark:border-slate-800">
      <h3 className="font-semibold">{s.symbol}</h3>
      {s.error && <p className="text-amber-700 dark:text-amber-300">{s.error}</p>}
      <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="drift-summary">
        {s.compared} candles both evaluated, {s.agreed} decided alike; {s.only_paper} only on paper, {s.only_backtest} only in the backtest. Mean slippage{' '}
        {s.mean_slippage_bps === null ? 'none (no fill on both sides)' : `${formatNumber(s.mean_slippage_bps, 2)} bps`}.
      </p>
      <table className="mt-2 w-full text-xs">
        <thead>
          <tr className="text-left uppercase text-slate-500 dark:text-slate-400">
            <th className="py-1 pr-3" />
            <th className="py-1 pr-3">Evaluations</th>
            <th className="py-1 pr-3">Buy / sell signals</th>
            <th className="py-1 pr-3">Fills</th>
            <th className="py-1 pr-3">Fees</th>
            <th className="py-1 pr-3">Still held</th>
            <th className="py-1">P&amp;L at the mark</th>
          </tr>
        </thead>
        <tbody>
          {side('Paper', s.paper)}
          {side('Backtest', s.backtest)}
        </tbody>
      </table>
      <label className="mt-2 flex items-center gap-2 text-xs">
        <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
        Show every candle ({s.rows.length}), not only signals, fills and disagreements ({rows.length})
      </label>
      <div className="mt-1 max-h-80 overflow-auto">
        <table className="w-full text-xs">
          <thead>
            <tr className="border-b border-slate-200 text-left uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
              <th className="py-1 pr-3">Candle</th>
              <th className="py-1 pr-3">Paper</th>
              <th className="py-1 pr-3">Backtest</th>
              <th className="py-1 pr-3">Paper fill</th>
              <th className="py-1 pr-3">Backtest fill</th>
              <th className="py-1">Slippage</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.candle_time} data-testid="drift-row" className={`border-b border-slate-100 dark:border-slate-800 ${r.paper && r.backtest && !r.agree ? 'bg-amber-50 dark:bg-amber-950/40' : ''}`}>
                <td className="py-1 pr-3 tabular-nums">{formatDateTime(r.candle_time)}</td>
                <td className="py-1 pr-3">{r.paper ? `${r.paper.decision} ${formatNumber(r.paper.confidence, 2)}${r.paper.executed ? ' · executed' : ''}` : 'not evaluated'}</td>
                <td className="py-1 pr-3">{r.backtest ? `${r.backtest.decision} ${formatNumber(r.backtest.confidence, 2)}` : 'not evaluated'}</td>
                <td className="py-1 pr-3 tabular-nums">{r.paper_fill ? `${r.paper_fill.side} ${formatQty(r.paper_fill.quantity)} @ ${formatPrice(r.paper_fill.price, s.symbol)}` : '—'}</td>
                <td className="py-1 pr-3 tabular-nums">{r.backtest_fill ? `${r.backtest_fill.side} ${formatQty(r.backtest_fill.quantity)} @ ${formatPrice(r.backtest_fill.price, s.symbol)}` : '—'}</td>
                <td className="py-1 tabular-nums">{r.slippage_bps === null ? '—' : `${formatNumber(r.slippage_bps, 2)} bps`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(s.paper_other_fills.length > 0 || s.backtest_other_fills.length > 0) && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
          Fills no evaluation explains: {s.paper_other_fills.length} on paper (protective orders), {s.backtest_other_fills.length} in the backtest (protective orders and its close at
          the end of the data, left out of its totals).
        </p>
      )}
    </section>
  );
}
