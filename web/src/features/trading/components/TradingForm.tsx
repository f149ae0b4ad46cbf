import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorBox } from '@/components/Field';
import { RetryingNote, useRetrying } from '@/components/Retrying';
import { btn, inputClass } from '@/components/Modal';
import { ApiError } from '@/lib/api';
import { formatPrice, formatQty } from '@/lib/format';
import { useTradingPrefs } from '@/lib/prefs';
import { newClientOrderId, orderFailureMessage, sendWithRetry } from '@/lib/retry';
import type { Order } from '@/lib/types';
import { submitOrder, useFeeRates, useInvalidateTrading, useProduct, useSystemStatus, useTicker, type TradeInput } from '../api';
import { baseToUsd, feeEstimate, liquidityOf, notional, ratePercent, shareOfBalance, usdToBase } from '../sizing';
import { validateTrade } from '../validate';
import { OrderConfirm, OrderSummary, type OrderFigures } from './OrderConfirm';
import { AvailableLine, QuantityField, useAvailable, type QuantityUnit } from './QuantityField';
import { TrailingFields } from './TrailingFields';
import { useSymbolChoices } from '@/lib/products';

const FALLBACK: Record<TradeInput['orderType'], string> = {
  market: 'Failed to execute trade',
  limit: 'Failed to create limit order',
  stop_loss: 'Failed to create stop-loss order',
  trailing_stop: 'Failed to create trailing stop order',
};

/** The trading form: used on New Trade, in the Trading Center and in the Quick Trade modal. */
export function TradingForm({ onExecuted, initialSymbol = 'BTC-USD' }: { onExecuted?: (o: Order) => void; initialSymbol?: string }) {
  const [t, setT] = useState<TradeInput>({ symbol: initialSymbol, side: 'BUY', orderType: 'market', quantity: '', price: '', strategy: '' });
  const [advanced, setAdvanced] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  // An order whose outcome is unknown stays said until the next submission: it must not vanish unread.
  const [errorSticks, setErrorSticks] = useState(false);
  const [done, setDone] = useState<Order | null>(null);
  const [unit, setUnit] = useState<QuantityUnit>('base');
  const [usd, setUsd] = useState('');
  const [confirming, setConfirming] = useState<{ order: TradeInput; figures: OrderFigures } | null>(null);
  const fees = useFeeRates();
  const ticker = useTicker(t.symbol);
  const product = useProduct(t.symbol);
  const onCoinbase = useSystemStatus().data?.exchange_api_key === 'coinbase_api';
  const refresh = useInvalidateTrading();
  const prefs = useTradingPrefs();
  const [prefilled, setPrefilled] = useState(false);
  const symbols = useSymbolChoices(t.symbol);

  // The settings' default parameters prefill an untouched form once.
  useEffect(() => {
    if (!prefs || prefilled) return;
    setPrefilled(true);
    setT((prev) => (prev.quantity === '' && prev.orderType === 'market' ? { ...prev, quantity: prefs.defaultQuantity, orderType: prefs.defaultOrderType } : prev));
    if (prefs.defaultOrderType !== 'market') setAdvanced(true);
  }, [prefs, prefilled]);

  useEffect(() => {
    if (!submitError || errorSticks) return;
    const id = setTimeout(() => setSubmitError(null), 5000);
    return () => clearTimeout(id);
  }, [submitError, errorSticks]);

  const { retrying, onRetry, clear: clearRetrying } = useRetrying();
  // One client order id per submission; every repeat of it sends the same id.
  const mutation = useMutation({
    mutationFn: (v: { t: TradeInput; clientOrderId: string }) => sendWithRetry(() => submitOrder(v.t, v.clientOrderId), { onRetry }),
    retry: 0,
    onSettled: clearRetrying,
    onSuccess: (res) => {
      setDone(res.order);
      setT((prev) => ({ ...prev, quantity: '', price: '', trail: '', activation: '' }));
      setUsd('');
      refresh();
      onExecuted?.(res.order);
    },
    onError: (err, v) => {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        const f = { ...err.fields };
        if (f.stop_price) f.price = f.stop_price;
        if (f.trail_percent ?? f.trail_amount) f.trail = f.trail_percent ?? f.trail_amount ?? '';
        if (f.activation_price) f.activation = f.activation_price;
        setErrors(f);
      }
      setErrorSticks(err instanceof ApiError && err.status === 0);
      setSubmitError(orderFailureMessage(err, v.clientOrderId, FALLBACK[v.t.orderType]));
    },
  });

  const clearError = (k: string) =>
    setErrors((prev) => {
      const next = { ...prev };
      delete next[k];
      return next;
    });
  const set = <K extends keyof TradeInput>(k: K, v: TradeInput[K]) => {
    setT((prev) => ({ ...prev, [k]: v }));
    clearError(k);
  };
  const setAmount = (v: string) => {
    setUsd(v);
    clearError('quantity');
  };

  const trailing = t.orderType === 'trailing_stop';
  const needsPrice = t.orderType !== 'market' && !trailing;
  // Steps follow the symbol's increments; until the products load, any value may be typed.
  const priceStep = product?.price_increment ?? 'any';
  const qtyStep = product?.base_increment ?? '0.00000001';
  const base = product?.base_currency ?? t.symbol.split('-')[0] ?? '';
  const quote = product?.quote_currency ?? 'USD';

  // Market and trailing orders are estimated at the price they would fill at now: the ask for a BUY, the bid for a SELL.
  const market = ticker.data ? (t.side === 'BUY' ? ticker.data.ask : ticker.data.bid) : undefined;
  const priceStr = needsPrice ? t.price.trim() || undefined : market;
  // The base quantity sent: typed, or converted from USD and rounded down to the increment.
  const quantity = unit === 'usd' ? (priceStr && usd.trim() ? (usdToBase(usd, priceStr, qtyStep) ?? '') : '') : t.quantity;
  const order: TradeInput = { ...t, quantity };
  const liquidity = liquidityOf(t, ticker.data);
  const rate = fees.data ? (liquidity === 'taker' ? fees.data.taker_rate : fees.data.maker_rate) : undefined;
  const figures: OrderFigures = {
    price: priceStr,
    priceNote: needsPrice ? '' : t.side === 'BUY' ? 'at the ask' : 'at the bid',
    total: priceStr && quantity ? notional(quantity, priceStr) : null,
    fee: rate && priceStr && quantity ? feeEstimate(quantity, priceStr, rate) : null,
    feeLabel: rate ? `Est. Fee (${ratePercent(rate)} ${liquidity})` : 'Est. Fee',
  };

  const available = useAvailable(t.side === 'BUY' ? quote : base).amount;
  const shareDisabled =
    available === undefined
      ? 'The available balance is not known'
      : t.side === 'BUY' && !rate
        ? 'The fee rate is not known'
        : (t.side === 'BUY' || unit === 'usd') && !priceStr
          ? 'Enter a price first'
          : null;
  const share = (percent: number) => {
    if (available === undefined) return;
    const q = shareOfBalance({ side: t.side, percent, available, price: priceStr ?? '0', feeRate: rate ?? '0', increment: qtyStep });
    if (q === null) return;
    if (unit === 'usd') setAmount(priceStr ? (baseToUsd(q, priceStr) ?? '') : '');
    else set('quantity', q);
  };
  const changeUnit = (u: QuantityUnit) => {
    if (u === unit) return;
    if (u === 'usd') setUsd(priceStr && t.quantity.trim() ? (baseToUsd(t.quantity, priceStr) ?? '') : '');
    else set('quantity', quantity);
    setUnit(u);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setDone(null);
    setSubmitError(null);
    const v = validateTrade(order, product);
    setErrors(v);
    if (Object.keys(v).length > 0) return;
    // What is confirmed is what is sent: the order and its figures as they stand now.
    if (prefs?.confirmTrades !== false) setConfirming({ order, figures });
    else mutation.mutate({ t: order, clientOrderId: newClientOrderId() });
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="Trading form">
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="tf-symbol" className="block text-sm font-medium">
            Symbol
          </label>
          <select id="tf-symbol" className={inputClass} value={t.symbol} onChange={(e) => set('symbol', e.target.value)}>
            {symbols.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
          {errors.symbol && <p className="mt-1 text-xs text-red-600">{errors.symbol}</p>}
        </div>
        <div>
          <span className="block text-sm font-medium">Current Price</span>
          <p className="mt-1 py-2 text-lg font-semibold tabular-nums" data-testid="tf-current-price">
            {ticker.data ? formatPrice(ticker.data.price, t.symbol) : ticker.isError ? 'Unavailable' : 'Loading...'}
          </p>
        </div>
      </div>

      <div className="grid grid-cols-2 gap-2" role="group" aria-label="Side">
        {(['BUY', 'SELL'] as const).map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={t.side === s}
            onClick={() => set('side', s)}
            className={`rounded py-2 text-sm font-semibold ${
              t.side === s ? (s === 'BUY' ? 'bg-emerald-600 text-white' : 'bg-red-600 text-white') : 'border border-slate-300 dark:border-slate-700'
            }`}
          >
            {s}
          </button>
        ))}
      </div>

      <AvailableLine asset={t.side === 'BUY' ? quote : base} isCash={t.side === 'BUY'} />

      <button type="button" className="text-sm text-blue-600 hover:underline dark:text-blue-400" onClick={() => setAdvanced((a) => !a)}>
        {advanced ? 'Hide Advanced' : 'Show Advanced'}
      </button>
      {advanced && (
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="tf-type" className="block text-sm font-medium">
              Order Type
            </label>
            <select id="tf-type" className={inputClass} value={t.orderType} onChange={(e) => set('orderType', e.target.value as TradeInput['orderType'])}>
              <option value="market">Market</option>
              <option value="limit">Limit</option>
              <option value="stop_loss">Stop-Loss</option>
              <option value="trailing_stop">Trailing Stop</option>
            </select>
          </div>
          <div>
            <label htmlFor="tf-strategy" className="block text-sm font-medium">
              Strategy
            </label>
            <input id="tf-strategy" className={inputClass} placeholder="manual" value={t.strategy} onChange={(e) => set('strategy', e.target.value)} />
          </div>
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <QuantityField
          unit={unit}
          onUnit={changeUnit}
          value={unit === 'usd' ? usd : t.quantity}
          onChange={(v) => (unit === 'usd' ? setAmount(v) : set('quantity', v))}
          base={base}
          step={qtyStep}
          error={errors.quantity}
          converted={quantity ? formatQty(quantity) : '—'}
          convertedFrom={`${base}${priceStr ? ` at ${formatPrice(priceStr, t.symbol)}, rounded down` : ''}`}
          minSize={product?.base_min_size}
          onShare={share}
          shareDisabled={shareDisabled}
        />
        {needsPrice && (
          <div>
            <label htmlFor="tf-price" className="block text-sm font-medium">
              {t.orderType === 'limit' ? 'Limit Price' : 'Stop Price'}
            </label>
            <input
              id="tf-price"
              type="number"
              step={priceStep}
              min="0"
              inputMode="decimal"
              className={inputClass}
              value={t.price}
              onChange={(e) => set('price', e.target.value)}
              aria-invalid={!!errors.price}
            />
            {errors.price && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.price}</p>}
            {t.orderType === 'stop_loss' && onCoinbase && (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="coinbase-stop-note">
                Coinbase has no stop-market order: this is placed as a stop-limit whose limit sits 1% beyond the stop, so a fast
                market can pass it unfilled.
              </p>
            )}
          </div>
        )}
      </div>

      {trailing && <TrailingFields t={t} set={set} errors={errors} priceStep={priceStep} onCoinbase={onCoinbase} />}

      <OrderSummary t={order} f={figures} feeUnknown={fees.data === null} />

      <ErrorBox message={submitError} />
      <RetryingNote retrying={retrying} what="order (same client order id)" />
      {done && (
        <p role="status" className="rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
          Order {done.status === 'filled' ? 'executed' : 'placed'}: {done.side} {formatQty(done.quantity)} {done.symbol}
          {done.average_fill_price ? ` at ${formatPrice(done.average_fill_price, t.symbol)}` : ''} ({done.status})
        </p>
      )}

      <button type="submit" className={`${btn.primary} w-full py-3`} disabled={quantity.trim() === '' || mutation.isPending}>
        {mutation.isPending ? 'Processing...' : `${t.side} ${t.symbol}`}
      </button>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Risk disclaimer: trading cryptocurrencies carries a high level of risk and may not be suitable for every investor. Prices move quickly and you may lose some or all of
        your capital. Only trade with money you can afford to lose.
      </p>
      {confirming && (
        <OrderConfirm
          t={confirming.order}
          base={base}
          f={confirming.figures}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            mutation.mutate({ t: confirming.order, clientOrderId: newClientOrderId() });
          }}
        />
      )}
    </form>
  );
}
