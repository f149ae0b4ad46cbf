import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './api';
import { DEFAULT_PREFS, setDisplayPrefs, setPriceIncrements } from './format';
import type { Ticker } from './types';
import { useProducts } from './products';
import { marketKeys, settingsKeys } from './queryKeys';

/** The parts of GET /settings the app follows outside the Settings screen (same query key). */
interface SettingsDoc {
  settings: {
    trading?: {
      defaultParameters?: { quantity?: number; orderType?: string };
      automation?: { confirmTrades?: boolean };
    };
    ui?: {
      theme?: { fontSize?: string };
      dashboard?: { refreshInterval?: number; showMetrics?: boolean; showCharts?: boolean; showRecentTrades?: boolean };
      display?: { currency?: string; decimalPlaces?: number; thousandsSeparator?: string; dateFormat?: string; timeFormat?: string };
      language?: { timezone?: string };
      notifications?: { trades?: boolean };
      charts?: { type?: string; timeframe?: string };
    };
  };
}

function useSettingsDoc() {
  return useQuery({ queryKey: settingsKeys.doc, queryFn: () => api.get<SettingsDoc>('/settings') });
}

export interface TradingPrefs {
  defaultQuantity: string;
  defaultOrderType: 'market' | 'limit';
  confirmTrades: boolean;
}

/** Default quantity and order type prefill the trading form; confirmTrades asks before sending. */
export function useTradingPrefs(): TradingPrefs | undefined {
  const q = useSettingsDoc();
  if (!q.data) return undefined;
  const t = q.data.settings.trading;
  return {
    defaultQuantity: t?.defaultParameters?.quantity ? String(t.defaultParameters.quantity) : '',
    defaultOrderType: t?.defaultParameters?.orderType === 'limit' ? 'limit' : 'market',
    confirmTrades: t?.automation?.confirmTrades ?? true,
  };
}

export interface DashboardPrefs {
  refreshMs: number;
  showMetrics: boolean;
  showCharts: boolean;
  showRecentTrades: boolean;
}

/** The dashboard's refresh interval and which of its cards to show. */
export function useDashboardPrefs(): DashboardPrefs {
  const d = useSettingsDoc().data?.settings.ui?.dashboard;
  return {
    refreshMs: d?.refreshInterval && d.refreshInterval >= 1000 ? d.refreshInterval : 5000,
    showMetrics: d?.showMetrics ?? true,
    showCharts: d?.showCharts ?? true,
    showRecentTrades: d?.showRecentTrades ?? true,
  };
}

const FONT_SIZE: Record<string, string> = { small: '14px', medium: '16px', large: '18px' };

/**
 * Applies the user's display settings app-wide: number, date and time
 * formats, time zone, the display currency (BTC and ETH converted at the live
 * price), each market's price places and the font size. Called once by the
 * signed-in layout, which draws the screens once it returns true.
 */
export function useDisplaySync(): boolean {
  const doc = useSettingsDoc();
  const ui = doc.data?.settings.ui;
  const cur = ui?.display?.currency ?? 'USD';
  const pair = cur === 'BTC' || cur === 'ETH' ? `${cur}-USD` : '';
  const t = useQuery({ queryKey: marketKeys.ticker(pair), queryFn: () => api.get<Ticker>(`/market-data/ticker/${pair}`), enabled: pair !== '', refetchInterval: 10_000 });
  const price = Number(t.data?.price ?? 0);
  // Prices show the places their market's increment needs (same query as the trading form's).
  const products = useProducts();
  if (products.data) setPriceIncrements(products.data);
  setDisplayPrefs({
    currency: pair ? cur : 'USD',
    decimals: ui?.display?.decimalPlaces ?? DEFAULT_PREFS.decimals,
    separator: [',', '.', ' '].includes(ui?.display?.thousandsSeparator ?? '') ? ui!.display!.thousandsSeparator! : ',',
    dateFormat: ui?.display?.dateFormat ?? DEFAULT_PREFS.dateFormat,
    timeFormat: ui?.display?.timeFormat ?? DEFAULT_PREFS.timeFormat,
    timezone: ui?.language?.timezone ?? DEFAULT_PREFS.timezone,
    rate: pair ? (price > 0 ? 1 / price : 0) : 1,
  });
  const size = FONT_SIZE[ui?.theme?.fontSize ?? 'medium'] ?? '16px';
  useEffect(() => {
    document.documentElement.style.fontSize = size;
  }, [size]);
  // Settled: the settings (and a BTC or ETH price) answered or failed; screens drawn before would mix formats.
  return !doc.isPending && (pair === '' || !t.isPending);
}

/** Whether to show a notice when an order fills (ui.notifications.trades). */
export function useTradeNotifications(): boolean {
  return useSettingsDoc().data?.settings.ui?.notifications?.trades ?? true;
}

/** The dashboard chart's type (candlestick, line, area) and timeframe (1m ... 1d). */
export function useChartPrefs(): { type: string; timeframe: string } {
  const c = useSettingsDoc().data?.settings.ui?.charts;
  return { type: c?.type ?? 'candlestick', timeframe: c?.timeframe ?? '1h' };
}
