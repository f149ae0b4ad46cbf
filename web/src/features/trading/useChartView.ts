import { useSearchParams } from 'react-router-dom';
import { useChartPrefs } from '@/lib/prefs';
import { useSymbols } from '@/lib/products';
import { viewFromQuery, type ChartView } from './chartModel';

/**
 * The dashboard chart's symbol and timeframe, kept in the URL (?symbol=ETH-USD&tf=1h) so a link reproduces the
 * view; without them, the first market and the timeframe of the chart settings.
 */
export function useChartView(): ChartView & { setSymbol: (s: string) => void; setTimeframe: (tf: string) => void } {
  const prefs = useChartPrefs();
  const [query, setQuery] = useSearchParams();
  const { symbols } = useSymbols();
  const view = viewFromQuery(query, prefs.timeframe, symbols);
  const set = (next: Partial<ChartView>) =>
    setQuery(
      (prev) => {
        const q = new URLSearchParams(prev);
        const v = { ...view, ...next };
        q.set('symbol', v.symbol);
        q.set('tf', v.tf);
        return q;
      },
      { replace: true },
    );
  return { ...view, setSymbol: (symbol) => set({ symbol }), setTimeframe: (tf) => set({ tf }) };
}
