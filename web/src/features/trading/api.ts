import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { sendWithRetry, type RetryOptions } from '@/lib/retry';
import { marketKeys, systemKeys, tradeKeys, tradingKeys } from '@/lib/queryKeys';
import { usePollEvery } from './poll';
import type { Balance, Candle, FeeRates, Order, OrderStatus, Performance, PortfolioSummary, Position, Stats24h, SystemMetrics, SystemStatus, Ticker, Trade } from '@/lib/types';

/** Polling intervals of spec section 7; realtime frames refresh sooner. Under a PollEvery (the Dashboard) its interval replaces them. */
export const POLL = { ticker: 2000, positions: 5000, orders: 5000, portfolio: 5000, status: 5000, recent: 5000, history: 10_000, metrics: 10_000, performance: 10_000, candles: 60_000, stats: 60_000 };

export function useTicker(symbol: string) {
  return useQuery({ queryKey: marketKeys.ticker(symbol), queryFn: () => api.get<Ticker>(`/market-data/ticker/${symbol}`), refetchInterval: usePollEvery(POLL.ticker), staleTime: 0 });
}

export { useProduct, useProducts } from '@/lib/products';

/**
 * Chart timeframes, in the order the switch offers them: every granularity the candles endpoint accepts, plus the
 * settings' 4h, built from 1h candles. seconds is the width of one bar as drawn.
 */
export const TIMEFRAMES: Record<string, { granularity: string; group: number; seconds: number }> = {
  '1m': { granularity: 'ONE_MINUTE', group: 1, seconds: 60 },
  '5m': { granularity: 'FIVE_MINUTE', group: 1, seconds: 300 },
  '15m': { granularity: 'FIFTEEN_MINUTE', group: 1, seconds: 900 },
  '30m': { granularity: 'THIRTY_MINUTE', group: 1, seconds: 1800 },
  '1h': { granularity: 'ONE_HOUR', group: 1, seconds: 3600 },
  '2h': { granularity: 'TWO_HOUR', group: 1, seconds: 7200 },
  '4h': { granularity: 'ONE_HOUR', group: 4, seconds: 14_400 },
  '6h': { granularity: 'SIX_HOUR', group: 1, seconds: 21_600 },
  '1d': { granularity: 'ONE_DAY', group: 1, seconds: 86_400 },
};

/** Joins consecutive candles into groups of n aligned to n-candle boundaries of UTC time. */
export function groupCandles(cs: Candle[], n: number, widthMs: number): Candle[] {
  if (n <= 1) return cs;
  const out: Candle[] = [];
  for (const c of cs) {
    const t = new Date(c.timestamp).getTime();
    const start = t - (t % (widthMs * n));
    const last = out[out.length - 1];
    if (last && new Date(last.timestamp).getTime() === start) {
      last.high = String(Math.max(Number(last.high), Number(c.high)));
      last.low = String(Math.min(Number(last.low), Number(c.low)));
      last.close = c.close;
      last.volume = String(Number(last.volume) + Number(c.volume));
    } else {
      out.push({ ...c, timestamp: new Date(start).toISOString() });
    }
  }
  return out;
}

/** The last `limit` candles of a timeframe (default the spec's 100 hourly), refreshed every 60 s. */
export function useCandles(symbol: string, limit = 100, timeframe = '1h') {
  const tf = TIMEFRAMES[timeframe] ?? TIMEFRAMES['1h']!;
  return useQuery({
    queryKey: marketKeys.candles(symbol, timeframe, limit),
    queryFn: () =>
      api
        .get<{ candles: Candle[] }>(`/market-data/candles/${symbol}?granularity=${tf.granularity}&limit=${Math.min(300, limit * tf.group)}`)
        .then((d) => groupCandles(d.candles, tf.group, (tf.seconds / tf.group) * 1000).slice(-limit)),
    refetchInterval: usePollEvery(POLL.candles),
    staleTime: 0,
  });
}

/** A symbol's 24-hour statistics (its open 24 hours ago gives the change against the live price). */
export function useStats24h(symbol: string) {
  return useQuery({ queryKey: marketKeys.stats(symbol), queryFn: () => api.get<Stats24h>(`/market-data/stats/${symbol}`), refetchInterval: usePollEvery(POLL.stats), staleTime: 0 });
}

/** The account's latest fills on one symbol (the key starts with 'history', so a fill over the socket refreshes it). */
export function useSymbolFills(symbol: string, limit = 100) {
  return useQuery({
    queryKey: tradeKeys.symbolHistory(symbol, limit),
    queryFn: () => api.get<{ trades: Trade[] }>(`/trading/history?symbol=${encodeURIComponent(symbol)}&limit=${limit}&offset=0`).then((d) => d.trades),
    refetchInterval: usePollEvery(POLL.history),
    staleTime: 0,
  });
}

export function usePositions() {
  return useQuery({ queryKey: tradeKeys.positions, queryFn: () => api.get<{ positions: Position[] }>('/trading/positions').then((d) => d.positions), refetchInterval: usePollEvery(POLL.positions), staleTime: 0 });
}

export function useOrders(status: OrderStatus | '' = '', limit = 100) {
  return useQuery({
    queryKey: tradeKeys.orders(status, limit),
    queryFn: () => api.get<{ orders: Order[] }>(`/trading/orders?limit=${limit}${status ? `&status_filter=${status}` : ''}`).then((d) => d.orders),
    refetchInterval: usePollEvery(POLL.orders),
    staleTime: 0,
  });
}

export function useHistory(limit: number, interval: number) {
  return useQuery({
    queryKey: tradeKeys.history(limit),
    queryFn: () => api.get<{ trades: Trade[]; total: number }>(`/trading/history?limit=${limit}&offset=0`),
    refetchInterval: interval,
    staleTime: 0,
  });
}

export function usePerformance() {
  return useQuery({ queryKey: tradeKeys.performance, queryFn: () => api.get<Performance>('/trading/performance'), refetchInterval: usePollEvery(POLL.performance), staleTime: 0 });
}

export function usePortfolio() {
  return useQuery({ queryKey: tradeKeys.portfolio, queryFn: () => api.get<PortfolioSummary>('/trading/portfolio'), refetchInterval: usePollEvery(POLL.portfolio), staleTime: 0 });
}

/** GET /trading/balances: funds, and the fee rates when the exchange publishes them. */
const balancesQuery = (every: number) => ({
  queryKey: tradeKeys.balances,
  queryFn: () => api.get<{ balances: Balance[]; fees?: FeeRates }>('/trading/balances'),
  refetchInterval: every,
  staleTime: 0,
});

/** Every currency's funds: available, on hold for resting orders, and total. */
export function useBalances() {
  return useQuery({ ...balancesQuery(usePollEvery(POLL.portfolio)), select: (d) => d.balances });
}

/** The exchange's fee rates, from the same query as the balances; null when the exchange does not publish them. */
export function useFeeRates() {
  return useQuery({ ...balancesQuery(usePollEvery(POLL.portfolio)), select: (d) => d.fees ?? null });
}

export function useSystemStatus() {
  return useQuery({ queryKey: systemKeys.status, queryFn: () => api.get<SystemStatus>('/system/status'), refetchInterval: usePollEvery(POLL.status), staleTime: 0 });
}

export function useSystemMetrics() {
  return useQuery({ queryKey: systemKeys.metrics, queryFn: () => api.get<SystemMetrics>('/system/metrics'), refetchInterval: usePollEvery(POLL.metrics), staleTime: 0 });
}

/** Refreshes every trading view after a change. */
export function useInvalidateTrading() {
  const qc = useQueryClient();
  return () => {
    for (const k of tradingKeys) void qc.invalidateQueries({ queryKey: [k] });
  };
}

export interface TradeInput {
  symbol: string;
  side: 'BUY' | 'SELL';
  orderType: 'market' | 'limit' | 'stop_loss' | 'trailing_stop';
  quantity: string;
  price: string;
  strategy: string;
  /** Trailing stops: the trail, in percent of the best price or in the quote currency, and an optional activation price. */
  trail?: string;
  trailUnit?: 'percent' | 'amount';
  activation?: string;
}

/**
 * Places an order through the endpoint its type uses, with the submission's client order id: a repeat of the same
 * submission (sendWithRetry) is answered with the first order, never placed twice.
 */
export function submitOrder(t: TradeInput, clientOrderId: string): Promise<{ order: Order }> {
  const strategy = t.strategy.trim();
  const client_order_id = clientOrderId;
  switch (t.orderType) {
    case 'limit':
      return api.post('/trading/orders/limit', { symbol: t.symbol, side: t.side, quantity: t.quantity, price: t.price, strategy, client_order_id });
    case 'stop_loss':
      return api.post('/trading/orders/stop-loss', { symbol: t.symbol, side: t.side, quantity: t.quantity, stop_price: t.price, strategy, client_order_id });
    case 'trailing_stop':
      return api.post('/trading/orders/trailing-stop', {
        symbol: t.symbol,
        side: t.side,
        quantity: t.quantity,
        ...(t.trailUnit === 'amount' ? { trail_amount: t.trail } : { trail_percent: t.trail }),
        ...(t.activation?.trim() ? { activation_price: t.activation.trim() } : {}),
        strategy,
        client_order_id,
      });
    default:
      return api.post('/trading/execute', { symbol: t.symbol, action: t.side, quantity: t.quantity, order_type: 'market', strategy, client_order_id });
  }
}

type OnRetry = RetryOptions['onRetry'];

/**
 * Cancels an order, repeating the request when it got no answer or a 502/503/504 (a cancel is safe to repeat). A
 * repeat answered 409 may mean the unanswered first attempt did cancel it: the order's status decides.
 */
export async function cancelOrder(id: string, opts: RetryOptions = {}): Promise<Order> {
  let repeated = false;
  try {
    return await sendWithRetry(() => api.del<Order>(`/trading/orders/${id}`), {
      ...opts,
      onRetry: (...a) => {
        repeated = true;
        opts.onRetry?.(...a);
      },
    });
  } catch (err) {
    if (repeated && err instanceof ApiError && err.status === 409) {
      const { orders } = await api.get<{ orders: Order[] }>('/trading/orders?status_filter=cancelled&limit=100');
      const done = orders.find((o) => o.id === id);
      if (done) return done;
    }
    throw err;
  }
}

export function useCancelOrder(onRetry?: OnRetry) {
  const refresh = useInvalidateTrading();
  return useMutation({ mutationFn: (id: string) => cancelOrder(id, { onRetry }), retry: 0, onSettled: refresh });
}

/**
 * Modifies an order to absolute values, repeating like a cancel (the same values twice leave the same order). On
 * Coinbase a stop is edited in place; where Coinbase edits limit orders only it is replaced (new stop first, old one
 * cancelled after), so the answer's order id may be new.
 */
export function useModifyOrder(onRetry?: OnRetry) {
  const refresh = useInvalidateTrading();
  return useMutation({
    // A stop's new trigger goes as stop_price, so the server never reads it as a limit price.
    mutationFn: (v: { id: string; quantity?: string; price?: string; stopPrice?: string }) =>
      sendWithRetry(() => api.put<Order>(`/trading/orders/${v.id}`, { quantity: v.quantity, price: v.price, stop_price: v.stopPrice }), { onRetry }),
    retry: 0,
    onSettled: refresh,
  });
}
