import { Row, Stat } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { displayPrefs, formatCount, formatDate, formatMoney, formatPercent, formatSignedMoney, pnlClass, timeLabel } from '@/lib/format';
import { timeframeLabel } from '@/lib/timeframe';
import { AI_MODES, derived, pct, ratio, signalCounts, signedPctOrNA, winRateClass } from '../model';
import type { AIRun, Assumptions, BacktestReport } from '../types';

// A UTC calendar day in the chosen date order.
const day = (iso: string) => formatDate(iso.slice(0, 10));
const signedPct = (f: number) => formatPercent(f * 100);
const fee = (s: string) => pct(Number(s));
/** An RFC 3339 time in UTC (market dates are UTC), in the chosen date order and clock: "12/29/2025 15:00 UTC". */
const utc = (iso: string) => `${timeLabel(Date.parse(iso) / 1000, true, { ...displayPrefs(), timezone: 'UTC' })} UTC`;

/**
 * Which market history the run read: the source, its real dates and how its
 * candles add up (warm-up + the period's = read); runs stored before the
 * candle store have none.
 */
function DataNote({ data, evaluated }: { data: Assumptions['data'] | undefined; evaluated?: number }) {
  if (!data) return null;
  const n = formatCount;
  const split = evaluated != null && evaluated <= data.candles ? `: ${n(data.candles - evaluated)} to warm up + ${n(evaluated)} in the period` : ', warm-up included';
  return (
    <>
      <p className="mt-1" data-testid="bt-data">
        Data: {data.source}, real market dates {utc(data.from)} to {utc(data.to)} ({n(data.candles)} candles read{split}).
      </p>
      {data.synthetic && (
        <p className="mt-1 font-semibold text-amber-800 dark:text-amber-300" data-testid="bt-synthetic">
          Synthetic candles: the data has 15-minute candles; these 1- or 5-minute candles were cut from a generated price path inside each of them, not
          from trades.
        </p>
      )}
    </>
  );
}

/** The fill model every number rests on, and the strategy version the overrides were applied to (0 or absent: a run from before versions). */
export function AssumptionsBanner({ a, evaluated, strategyVersion }: { a: Assumptions; evaluated?: number; strategyVersion?: number }) {
  const items = [
    strategyVersion ? `strategy configuration version ${strategyVersion}` : '',
    `Taker fee ${fee(a.taker_fee)}`,
    `maker fee ${fee(a.maker_fee)}`,
    `slippage ${a.slippage_bps} bps`,
    a.half_spread != null && `half-spread ${pct(Number(a.half_spread), 4)}`,
    `volume cap ${a.volume_cap}`,
    `timeframe ${timeframeLabel(a.timeframe)}`,
    `${formatCount(a.candles)} candles (sha256 ${a.candles_hash.slice(0, 12)})`,
    `engine v${a.engine_version}`,
    a.build && `build ${a.build}`,
    a.ai_mode && `AI decisions: ${AI_MODES.find((m) => m.value === a.ai_mode)?.label ?? a.ai_mode}`,
    a.ai_provider && `AI provider ${a.ai_provider}`,
    a.replayed_answers_hash && `replayed answers sha256 ${a.replayed_answers_hash.slice(0, 12)}`,
  ].filter(Boolean);
  const p = a.policy;
  return (
    <div role="note" aria-label="Assumptions" className="rounded border border-sky-300 bg-sky-50 p-3 text-xs text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200">
      <p className="font-semibold">Assumptions</p>
      <p className="mt-1">{items.join(' · ')}</p>
      <DataNote data={a.data} evaluated={evaluated} />
      <p className="mt-1">Fills: {a.fills}.</p>
      {p && (
        <p className="mt-1" data-testid="bt-policy">
          Policy: stop-loss {p.stop_loss ? fee(p.stop_loss_percent) : 'off'} · take-profit {p.take_profit ? fee(p.take_profit_percent) : 'off'} · max position{' '}
          {fee(p.max_position_size)} · daily loss limit {fee(p.daily_loss_limit)} · max drawdown {fee(p.max_drawdown)} · trades ${p.min_trade_amount}-${p.max_trade_amount} · max{' '}
          {p.max_daily_trades} trades a day · max {p.max_open_positions} open positions · leverage {p.max_leverage}x
        </p>
      )}
    </div>
  );
}

/**
 * Said first when the maximum drawdown limit stopped trading for good: from
 * then on the report describes a flat account, not the strategy.
 */
export function HaltedCallout({ h }: { h: NonNullable<BacktestReport['halted']> }) {
  const n = formatCount;
  return (
    <div role="alert" data-testid="bt-halted" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
      <p className="font-semibold">
        Trading halted: {h.reason} on {day(h.at)}: {n(h.untraded_days)} of {n(h.total_days)} days untraded.
      </p>
      <p className="mt-1 text-xs">
        The limit refused {n(h.refused)} signal{h.refused === 1 ? '' : 's'}, and the equity stayed at or beyond it from {utc(h.at)} to the end, so the figures below describe
        the strategy up to then and an idle account after.
      </p>
    </div>
  );
}

/** Where an AI strategy's decisions came from, with the counts and any warning. */
export function AIRunNote({ ai }: { ai: AIRun }) {
  const warn = ai.missing > 0 || ai.failed > 0 || (ai.warnings?.length ?? 0) > 0;
  return (
    <div
      role="note"
      aria-label="AI run"
      data-testid="bt-ai-note"
      className={`rounded border p-3 text-xs ${warn ? 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200' : 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200'}`}
    >
      <p className="font-semibold">AI decisions: {AI_MODES.find((m) => m.value === ai.mode)?.label ?? ai.mode}</p>
      <p className="mt-1">{ai.summary}.</p>
      {ai.mode === 'live' && (
        <p className="mt-1" data-testid="bt-model-usage">
          Model calls: {formatCount(ai.model_calls)}
          {ai.model_call_cap ? ` (cap ${formatCount(ai.model_call_cap)})` : ''} · tokens {formatCount((ai.prompt_tokens ?? 0) + (ai.completion_tokens ?? 0))} · cost{' '}
          {ai.cost !== undefined ? `${ai.cost} as reported for ${ai.cost_reported ?? 0} answers` : 'not reported by the provider'}
        </p>
      )}
      {ai.first_failure && <p className="mt-1">First failure: {ai.first_failure}</p>}
      {ai.warnings?.map((w) => (
        <p key={w} className="mt-1">
          {w}
        </p>
      ))}
    </div>
  );
}

/** The headline figures and every metric of the report. */
export function ReportSummary({ r }: { r: BacktestReport }) {
  const d = derived(r);
  return (
    <>
      <div className="grid grid-cols-2 gap-3 xl:grid-cols-4">
        <Stat label="Total Return" value={signedPct(r.total_return)} valueClass={pnlClass(r.total_return)} sub={`Buy & hold ${signedPct(r.buy_and_hold_return)}`} testId="bt-total-return" />
        <Stat label="Win Rate" value={pct(r.win_rate, 1)} valueClass={winRateClass(r.win_rate)} sub={`${r.winning_trades} won, ${r.losing_trades} lost${r.breakeven_trades ? `, ${r.breakeven_trades} even` : ''} of ${r.total_trades} trades`} testId="bt-win-rate" />
        <Stat label="Max Drawdown" value={pct(r.max_drawdown)} valueClass={r.max_drawdown > 0 ? 'text-red-600 dark:text-red-400' : ''} sub="Below the equity peak" testId="bt-max-drawdown" />
        <Stat label="Final Value" value={d.finalValue} valueClass={pnlClass(r.total_return)} sub={`From ${formatMoney(r.initial_equity)}`} testId="bt-final-value" />
      </div>
      <Card title="Performance Metrics">
        <div className="grid gap-x-8 sm:grid-cols-2" data-testid="bt-metrics">
          <div>
            <Row label="Sharpe Ratio">{ratio(r.sharpe_ratio)}</Row>
            <Row label="Sortino Ratio">{ratio(r.sortino_ratio)}</Row>
            <Row label="Calmar Ratio">
              <span title={r.not_annualised || undefined}>{ratio(r.calmar_ratio)}</span>
            </Row>
            <Row label="CAGR">
              <span title={r.not_annualised || undefined}>{signedPctOrNA(r.cagr)}</span>
            </Row>
            <Row label="Profit Factor">{d.profitFactor}</Row>
            <Row label="Win/Loss Ratio">{d.winLoss}</Row>
            <Row label="Exposure Time">{pct(r.exposure_time, 1)}</Row>
            <Row label="Buy & Hold Return">
              <span className={pnlClass(r.buy_and_hold_return)}>{signedPct(r.buy_and_hold_return)}</span>
            </Row>
          </div>
          <div>
            <Row label="Expectancy">
              <span className={pnlClass(r.expectancy)}>{formatSignedMoney(r.expectancy)}</span>
            </Row>
            <Row label="Average Win">{formatMoney(r.average_win)}</Row>
            <Row label="Average Loss">{formatMoney(r.average_loss)}</Row>
            <Row label="Average Trade">{d.averageTrade}</Row>
            <Row label="Fees Paid">{formatMoney(r.fees_paid)}</Row>
            <Row label="Initial Equity">{formatMoney(r.initial_equity)}</Row>
            <Row label="Final Equity">{formatMoney(r.final_equity)}</Row>
            <Row label="Candles">{formatCount(r.candles)}</Row>
          </div>
        </div>
        {r.not_annualised && <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{r.not_annualised}.</p>}
      </Card>
    </>
  );
}

/** Which run this is: strategy, symbol, period and when it ran. */
export function ReportTitle({ r }: { r: BacktestReport }) {
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300">
      <span className="font-semibold">{r.strategy_name}</span> on <span className="font-semibold">{r.symbol}</span>, {day(r.start_date)} to {day(r.end_date)}, capital{' '}
      {formatMoney(r.initial_equity)}
    </p>
  );
}

/** How many signals there were and why some did not trade. */
export function NotExecuted({ r }: { r: BacktestReport }) {
  const { total, traded, notExecuted: rows } = signalCounts(r);
  const n = formatCount;
  return (
    <Card title="Signals Not Executed">
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-300" data-testid="bt-signals">
        {n(total)} BUY/SELL signals{traded != null && `: ${n(traded)} traded`}; {n(rows.reduce((k, [, c]) => k + c, 0))} did not trade.
      </p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">Every signal traded.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
              <th className="py-1 font-medium">Reason</th>
              <th className="py-1 text-right font-medium">Signals</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([why, n]) => (
              <tr key={why} className="border-b border-slate-100 dark:border-slate-800/60">
                <td className="py-1">{why}</td>
                <td className="py-1 text-right tabular-nums">{n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
