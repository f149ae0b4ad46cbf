import { timeframeLabel } from '@/lib/timeframe';
import { TIMEFRAMES } from '../api';
import { useSymbolChoices } from '@/lib/products';

/** The market the chart shows: one of the product's symbols. */
export function SymbolSelect({ value, onChange }: { value: string; onChange: (symbol: string) => void }) {
  const symbols = useSymbolChoices(value);
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-slate-500 dark:text-slate-400">Symbol</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800">
        {symbols.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The chart's bar width: one button per timeframe the candles endpoint serves. */
export function TimeframeSwitch({ value, onChange }: { value: string; onChange: (tf: string) => void }) {
  return (
    <div role="group" aria-label="Timeframe" className="flex flex-wrap gap-1">
      {Object.keys(TIMEFRAMES).map((tf) => (
        <button
          key={tf}
          type="button"
          aria-pressed={tf === value}
          title={timeframeLabel(tf)}
          onClick={() => onChange(tf)}
          className={`rounded px-1 py-1 text-xs font-medium sm:px-2 tabular-nums ${tf === value ? 'bg-blue-600 text-white' : 'border border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800'}`}
        >
          {tf}
        </button>
      ))}
    </div>
  );
}
