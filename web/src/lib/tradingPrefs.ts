import { useQuery } from '@tanstack/react-query';
import { api } from './api';

/** The part of GET /settings the trading form follows. Same query as the Settings screen. */
interface SettingsDoc {
  settings: {
    trading?: {
      defaultParameters?: { quantity?: number; orderType?: string };
      automation?: { confirmTrades?: boolean };
    };
  };
}

export interface TradingPrefs {
  defaultQuantity: string;
  defaultOrderType: 'market' | 'limit';
  confirmTrades: boolean;
}

/** Default quantity and order type prefill the form; confirmTrades asks before sending. */
export function useTradingPrefs(): TradingPrefs | undefined {
  const q = useQuery({ queryKey: ['settings'], queryFn: () => api.get<SettingsDoc>('/settings') });
  const t = q.data?.settings.trading;
  if (!q.data) return undefined;
  return {
    defaultQuantity: t?.defaultParameters?.quantity ? String(t.defaultParameters.quantity) : '',
    defaultOrderType: t?.defaultParameters?.orderType === 'limit' ? 'limit' : 'market',
    confirmTrades: t?.automation?.confirmTrades ?? true,
  };
}
