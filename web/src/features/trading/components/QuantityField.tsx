import { inputClass } from '@/components/Modal';
import { useConnectionLost } from '@/lib/connection';
import { formatMoney, formatQty } from '@/lib/format';
import { useBalances } from '../api';
import { SHARES } from '../sizing';
import { plainDecimal } from '../validate';

export type QuantityUnit = 'base' | 'usd';

/** A currency's available funds from the balances query: the amount, or why it is not known. */
export function useAvailable(asset: string): { amount?: string; stale: boolean; note?: string } {
  const balances = useBalances();
  const lost = useConnectionLost() !== null;
  if (balances.data) {
    const amount = balances.data.find((b) => b.asset === asset)?.available ?? '0';
    return { amount, stale: balances.isError || lost };
  }
  if (balances.isError) return { stale: true, note: 'unknown (balances could not be loaded)' };
  return { stale: false, note: 'Loading...' };
}

/** What is free to trade for the side: USD for a BUY, the base asset for a SELL (not the total, which includes holds). */
export function AvailableLine({ asset, isCash }: { asset: string; isCash: boolean }) {
  const a = useAvailable(asset);
  const shown = a.amount === undefined ? a.note : isCash ? formatMoney(a.amount) : `${formatQty(a.amount)} ${asset}`;
  return (
    <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="tf-available">
      Available {asset}: <span className={`font-medium tabular-nums ${a.stale ? 'text-amber-600 dark:text-amber-400' : 'text-slate-700 dark:text-slate-200'}`}>{shown}</span>
      {a.amount !== undefined && a.stale && ' (last known)'}
    </p>
  );
}

interface Props {
  unit: QuantityUnit;
  onUnit: (u: QuantityUnit) => void;
  value: string;
  onChange: (v: string) => void;
  base: string;
  step: string;
  error?: string;
  /** The base quantity that will be sent (in USD mode), or why there is none. */
  converted: string;
  convertedFrom: string;
  minSize?: string;
  /** The base quantity for a share of the balance, or null when it cannot be computed now (with why). */
  onShare: (percent: number) => void;
  shareDisabled: string | null;
}

/** Quantity in the base asset or in USD, with the 25/50/100% shares of the available balance. */
export function QuantityField(p: Props) {
  const usd = p.unit === 'usd';
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor="tf-quantity" className="block text-sm font-medium">
          {usd ? 'Amount (USD)' : 'Quantity'}
        </label>
        <div className="flex overflow-hidden rounded border border-slate-300 text-xs dark:border-slate-700" role="group" aria-label="Size in">
          {(['base', 'usd'] as const).map((u) => (
            <button
              key={u}
              type="button"
              aria-pressed={p.unit === u}
              onClick={() => p.onUnit(u)}
              className={`px-2 py-0.5 ${p.unit === u ? 'bg-slate-700 text-white dark:bg-slate-200 dark:text-slate-900' : ''}`}
            >
              {u === 'usd' ? 'USD' : p.base}
            </button>
          ))}
        </div>
      </div>
      <input
        id="tf-quantity"
        type="number"
        step={usd ? '0.01' : p.step}
        min="0"
        inputMode="decimal"
        className={inputClass}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        aria-invalid={!!p.error}
      />
      <div className="mt-2 grid grid-cols-3 gap-2" role="group" aria-label="Share of available balance">
        {SHARES.map((s) => (
          <button key={s} type="button" className="rounded border border-slate-300 py-1 text-xs hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800" onClick={() => p.onShare(s)} disabled={p.shareDisabled !== null} title={p.shareDisabled ?? undefined}>
            {s}%
          </button>
        ))}
      </div>
      {usd && (
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="tf-converted">
          Sends <span className="font-medium tabular-nums text-slate-700 dark:text-slate-200">{p.converted}</span> {p.convertedFrom}
        </p>
      )}
      {p.error ? (
        <p className="mt-1 text-xs text-red-600 dark:text-red-400">{p.error}</p>
      ) : (
        p.minSize && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Min {plainDecimal(p.minSize)} {p.base}</p>
      )}
    </div>
  );
}
