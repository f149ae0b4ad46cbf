import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatPrice, toNum } from '@/lib/format';
import { useChartPrefs } from '@/lib/prefs';
import { timeframeLabel } from '@/lib/timeframe';
import type { Candle } from '@/lib/types';
import { TIMEFRAMES, useCandles, usePositions, useSymbolFills, useTicker } from '../api';
import { positionLevels, tradeMarkers, type Bar, type ChartMarker, type PriceLevel } from '../chartModel';
import { CandleCanvas } from './CandleCanvas';
import { SymbolSelect, TimeframeSwitch } from './ChartControls';

const toBar = (k: Candle): Bar => ({ time: Math.floor(Date.parse(k.timestamp) / 1000), open: toNum(k.open), high: toNum(k.high), low: toNum(k.low), close: toNum(k.close) });

export interface PriceChartProps {
  symbol: string;
  timeframe: string;
  onSymbol: (symbol: string) => void;
  onTimeframe: (tf: string) => void;
}

/**
 * The last 100 candles of the chosen symbol and timeframe (type from the settings), refreshed every 60 s and moved
 * by the live price; the account's fills on the symbol as markers, and its open position's entry, stop-loss and
 * take-profit as labelled lines.
 */
export function PriceChart({ symbol, timeframe, onSymbol, onTimeframe }: PriceChartProps) {
  const prefs = useChartPrefs();
  const candles = useCandles(symbol, 100, timeframe);
  const ticker = useTicker(symbol).data;
  const positions = usePositions().data;
  const fills = useSymbolFills(symbol).data;
  const bars = useMemo(() => (candles.data ?? []).map(toBar), [candles.data]);
  const levels = useMemo(() => positionLevels(positions, symbol), [positions, symbol]);
  const markers = useMemo(() => tradeMarkers(fills ?? [], symbol, bars.map((b) => b.time)), [fills, symbol, bars]);
  const tick = useMemo(() => (ticker && ticker.symbol === symbol ? { price: toNum(ticker.price), at: Math.floor(Date.parse(ticker.timestamp) / 1000) } : null), [ticker, symbol]);
  return (
    <Card title={`${symbol} Price Chart · ${timeframeLabel(timeframe)}`}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <SymbolSelect value={symbol} onChange={onSymbol} />
        <TimeframeSwitch value={timeframe} onChange={onTimeframe} />
      </div>
      {candles.isError && (
        <p role="alert" className="mb-2 text-sm text-red-600 dark:text-red-400">
          Failed to load chart data: {candles.error instanceof Error && candles.error.message ? candles.error.message : 'Unknown error'}
        </p>
      )}
      {candles.isPending && <Spinner />}
      <CandleCanvas bars={bars} type={prefs.type} levels={levels} markers={markers} tick={tick} barSeconds={(TIMEFRAMES[timeframe] ?? TIMEFRAMES['1h']!).seconds} symbol={symbol} />
      <ChartLegend levels={levels} markers={markers} symbol={symbol} />
    </Card>
  );
}

/** The lines and markers in words: what each means and the price each line is at. */
function ChartLegend({ levels, markers, symbol }: { levels: PriceLevel[]; markers: ChartMarker[]; symbol: string }) {
  if (levels.length === 0 && markers.length === 0) return null;
  return (
    <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500 dark:text-slate-400" data-testid="chart-legend">
      {markers.length > 0 && (
        <span>
          {markers.length} of your fills: <span className="text-emerald-600 dark:text-emerald-400">▲ buy</span> <span className="text-red-600 dark:text-red-400">▼ sell</span>
        </span>
      )}
      {levels.map((l, i) => (
        <span key={i} data-testid={`chart-level-${l.kind}`}>
          <span style={{ color: l.color }}>━</span> {l.title} @ {formatPrice(l.price, symbol)}
        </span>
      ))}
      {levels.length > 0 && <span>(Entry: average cost per unit, buy fees included; SL stop-loss, TP take-profit, with the quantity each covers)</span>}
    </div>
  );
}
