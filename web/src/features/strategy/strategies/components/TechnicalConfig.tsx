import { useState, type ReactNode } from 'react';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { formatDateTime, formatNumber, formatShare } from '@/lib/format';
import { useIndicator, useIsOperator, useSignals, useStrategies } from '../api';
import { INDICATOR_CARDS, MSG, rsiStatus, TRADING_FIELDS } from '../model';
import type { StrategyConfig } from '../types';
import { ConfigScreen, TimeframeField, useConfigForm } from './configForm';
import { ActiveBadge, Badge, NumberField, OperatorNote, SymbolsField } from './controls';
import { EvaluationTable } from './EvaluationTable';
import type { useFlash } from '@/components/Flash';
import { timeframeLabel } from '@/lib/timeframe';
import { useSymbolChoices } from '@/lib/products';

const INDICATOR_SPECS = INDICATOR_CARDS.flatMap((c) => c.fields);

/** The technical strategy configuration: sliders, indicator cards, Save, current indicators, status and the rules. */
export function TechnicalConfig({ name, onPick }: { name: string; onPick?: (name: string) => void }) {
  return (
    <ConfigScreen
      name={name}
      onPick={onPick}
      types={['technical', 'hybrid']}
      msgs={{ enabled: MSG.techEnabled, disabled: MSG.techDisabled, enableFailed: MSG.techEnableFailed, disableFailed: MSG.techDisableFailed }}
      form={(config, flash) => <TechnicalForm key={config.name} config={config} flash={flash} />}
    />
  );
}

function TechnicalForm({ config, flash }: { config: StrategyConfig; flash: ReturnType<typeof useFlash> }) {
  const operator = useIsOperator();
  const f = useConfigForm(config, [...TRADING_FIELDS, ...INDICATOR_SPECS], flash, { saved: MSG.techSaved, failed: MSG.saveFailed });
  const signals = useSignals([config.name], { symbol: '', executed: '' });
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <form
        className="space-y-4 lg:col-span-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          f.submit();
        }}
      >
        <Card title="Trading Parameters">
          <div className="grid gap-4 md:grid-cols-2">
            <SymbolsField value={f.symbols} onChange={f.setSymbols} error={f.errors.symbols} disabled={!operator} />
            <TimeframeField value={f.timeframe} onChange={f.setTimeframe} disabled={!operator} />
            {TRADING_FIELDS.map((s) => (
              <NumberField key={s.key} spec={s} draft={f.draft} errors={f.errors} onChange={f.set} disabled={!operator} />
            ))}
          </div>
        </Card>
        <div className="grid gap-4 md:grid-cols-2">
          {INDICATOR_CARDS.map((c) => (
            <Card key={c.title} title={c.title}>
              <div className="space-y-4">
                {c.fields.map((s) => (
                  <NumberField key={s.key} spec={s} draft={f.draft} errors={f.errors} onChange={f.set} disabled={!operator} />
                ))}
              </div>
            </Card>
          ))}
        </div>
        <div className="flex items-center gap-3">
          <button type="submit" className={btn.primary} disabled={!operator || f.saving}>
            {f.saving ? 'Saving...' : 'Save Configuration'}
          </button>
          {!operator && <OperatorNote>Only operators can save strategy configurations.</OperatorNote>}
        </div>
      </form>
      <div className="space-y-4">
        <StatusCard config={config} />
        <CurrentIndicators config={config} />
        <RulesCard config={config} />
      </div>
      <Card title="Recent Signals" className="lg:col-span-3">
        {signals.error ? <p role="alert" className="text-sm text-red-600">{MSG.loadSignals}</p> : <EvaluationTable rows={signals.data.slice(0, 10)} empty="No signals yet" />}
      </Card>
    </div>
  );
}

function StatusCard({ config }: { config: StrategyConfig }) {
  const s = useStrategies().data?.find((x) => x.name === config.name);
  return (
    <Card title="Strategy Status">
      <div className="flex items-center justify-between text-sm">
        <span>Status</span>
        <ActiveBadge on={config.enabled} />
      </div>
      <dl className="mt-2 space-y-1 text-sm">
        <Line label="Symbols">{config.symbols.join(', ')}</Line>
        <Line label="Timeframe">{timeframeLabel(config.timeframe)}</Line>
        <Line label="Signals recorded">{s ? s.total_signals : '—'}</Line>
        <Line label="Average confidence">{s && s.total_signals ? formatShare(s.avg_confidence * 100, 1) : '—'}</Line>
        <Line label="Last signal">{formatDateTime(s?.last_signal_time)}</Line>
      </dl>
    </Card>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

const RSI_CLASS: Record<string, string> = {
  Oversold: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200',
  Overbought: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200',
  Neutral: 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200',
  Unknown: 'bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400',
};

/** Latest RSI and MACD of a symbol on the strategy's timeframe (standard periods: RSI 14, MACD 12/26/9). */
function CurrentIndicators({ config }: { config: StrategyConfig }) {
  const [symbol, setSymbol] = useState(config.symbols[0] ?? 'BTC-USD');
  const symbols = useSymbolChoices(symbol);
  const g = config.timeframe || 'ONE_HOUR';
  const rsi = useIndicator(symbol, 'RSI', g);
  const macd = useIndicator(symbol, 'MACD', g);
  const sig = useIndicator(symbol, 'MACD_SIGNAL', g);
  const hist = useIndicator(symbol, 'MACD_HISTOGRAM', g);
  // An indicator load failure is only logged (spec section 8).
  for (const q of [rsi, macd, sig, hist]) if (q.error) console.error('indicators', q.error);
  const last = (d?: { value: number }[]) => (d && d.length ? d[d.length - 1]!.value : null);
  const r = last(rsi.data);
  const o = config.indicators?.rsi_oversold ?? 30;
  const ob = config.indicators?.rsi_overbought ?? 70;
  const status = rsiStatus(r, o, ob);
  const v = (x: number | null, p = 2) => (x === null ? '—' : formatNumber(x, p));
  return (
    <Card title="Current Indicators">
      <label className="mb-3 flex items-center justify-between gap-2 text-sm">
        <span className="text-slate-500 dark:text-slate-400">Symbol</span>
        <select aria-label="Indicator symbol" value={symbol} onChange={(e) => setSymbol(e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-800">
          {symbols.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <dl className="space-y-1 text-sm" data-testid="current-indicators">
        <div className="flex items-center justify-between gap-3">
          <dt className="text-slate-500 dark:text-slate-400">RSI</dt>
          <dd className="flex items-center gap-2 font-medium tabular-nums">
            {v(r)} <Badge className={RSI_CLASS[status]!}>{status}</Badge>
          </dd>
        </div>
        <Line label="MACD">{v(last(macd.data), 4)}</Line>
        <Line label="MACD Signal">{v(last(sig.data), 4)}</Line>
        <Line label="MACD Histogram">{v(last(hist.data), 4)}</Line>
      </dl>
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        {timeframeLabel(g)} candles, standard periods (RSI 14, MACD 12/26/9); the RSI status uses this strategy&apos;s levels ({o} / {ob}).
      </p>
    </Card>
  );
}

/** The rules and the confidence formula, in words (strategy/doc.go). */
function RulesCard({ config }: { config: StrategyConfig }) {
  const i = config.indicators;
  const mc = config.min_confidence;
  return (
    <Card title="How It Decides">
      <ul className="list-disc space-y-1 pl-4 text-sm">
        <li>RSI{i ? ` (${i.rsi_period})` : ''} below {i?.rsi_oversold ?? 'the oversold level'} votes BUY; above {i?.rsi_overbought ?? 'the overbought level'} votes SELL.</li>
        <li>The short SMA{i ? ` (${i.sma_short})` : ''} crossing above the long SMA{i ? ` (${i.sma_long})` : ''} votes BUY; crossing below votes SELL.</li>
        <li>The MACD line{i ? ` (${i.macd_fast}/${i.macd_slow})` : ''} crossing above its signal line{i ? ` (${i.macd_signal})` : ''} votes BUY; crossing below votes SELL.</li>
        <li>A close at or below the lower Bollinger band{i ? ` (${i.bollinger_period}, ${i.bollinger_std}σ)` : ''} votes BUY; at or above the upper band votes SELL.</li>
      </ul>
      <p className="mt-2 text-sm">
        The side with more votes wins; a tie or no vote is HOLD. Confidence = 0.4 + 0.2 × votes for − 0.2 × votes against (0 to 1): one rule alone gives 0.6, two 0.8, three or more 1.0; HOLD carries 0.5.
      </p>
      <p className="mt-2 text-sm">
        A signal trades only when automation is on, the strategy is enabled, there is no emergency stop, its confidence is at least {mc} and the risk check accepts the order. A BUY aims for a position worth portfolio value × max position size × risk
        multiplier (capped by the risk limits); a SELL closes the strategy&apos;s own position, never going short.
      </p>
    </Card>
  );
}
