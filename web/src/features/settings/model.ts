import type { ApiSettings, Effect, PlatformSettings, SettingsOptions, TradingSettings } from './types';

/** Default trading settings (spec section 9); the trading tab falls back to them. */
export const DEFAULT_TRADING: TradingSettings = {
  defaultParameters: { quantity: 0.01, orderType: 'market' },
  riskManagement: {
    maxPositionSize: 0.1,
    dailyLossLimit: 0.05,
    maxDrawdown: 0.15,
    stopLossPercent: 0.02,
    maxOpenPositions: 10,
    maxDailyTrades: 50,
    minTradeAmount: 10,
    maxTradeAmount: 10000,
    maxLeverage: 1,
    takeProfitPercent: 0.04,
  },
  automation: { autoTrading: false, emergencyStop: false, confirmTrades: true, enableStopLoss: true, enableTakeProfit: false, trailingStopLoss: false },
  promotion: { paperStartingUSD: '10000', paper: { requireWalkForward: true, minOOSTrades: 30, minOOSSharpe: 0.5 }, live: { minPaperDays: 14, minPaperTrades: 20 } },
};

/** Option lists used until GET /settings/options answers (spec section 9, Options). */
export const FALLBACK_OPTIONS: SettingsOptions = {
  themeModes: ['light', 'dark', 'auto'],
  fontSizes: ['small', 'medium', 'large'],
  chartTypes: ['candlestick', 'line', 'area'],
  timeframes: ['1m', '5m', '15m', '1h', '4h', '1d'],
  currencies: ['USD', 'EUR', 'GBP', 'BTC', 'ETH'],
  decimalPlaces: [0, 2, 4, 6, 8],
  dateFormats: ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'],
  timeFormats: ['12h', '24h'],
  separators: [',', '.', ' '],
  timezones: ['UTC'],
  logLevels: ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'],
  aiModels: ['gpt-4.1-nano', 'gpt-4-turbo', 'claude-3-sonnet', 'llama-2-70b'],
  orderTypes: ['market', 'limit'],
  exchangeProviders: ['sandbox', 'coinbase'],
  marketSources: ['replay', 'coinbase'],
  aiProviders: ['builtin', 'replicate', 'openai'],
};

/**
 * Input bounds (spec section 5, Settings input bounds), in the unit the input
 * shows; scale converts that unit to what is stored (milliseconds, or a
 * fraction for a limit shown in percent).
 */
export interface Bound {
  min: number;
  max?: number;
  step: number;
  scale?: number;
  unit?: string;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Risk limits are stored as fractions (0.05) and shown as percentages (5 %). */
const PERCENT = 0.01;

export const BOUNDS = {
  exchangeTimeout: { min: 1000, max: 120000, step: 1000, unit: 'ms' },
  exchangeRateLimit: { min: 1, max: 100, step: 1, unit: 'requests/sec' },
  aiTimeout: { min: 10000, max: 300000, step: 1000, unit: 'ms' },
  backtestMaxModelCalls: { min: 1, max: 100000, step: 100, unit: 'calls' },
  quantity: { min: 0.001, step: 0.001 },
  maxPositionSize: { min: 1, max: 100, step: 1, scale: PERCENT, unit: '%' },
  dailyLossLimit: { min: 1, max: 50, step: 1, scale: PERCENT, unit: '%' },
  maxDrawdown: { min: 5, max: 50, step: 1, scale: PERCENT, unit: '%' },
  stopLossPercent: { min: 0.5, max: 10, step: 0.5, scale: PERCENT, unit: '%' },
  takeProfitPercent: { min: 0.5, max: 100, step: 0.5, scale: PERCENT, unit: '%' },
  maxOpenPositions: { min: 1, max: 100, step: 1 },
  maxDailyTrades: { min: 1, max: 1000, step: 1 },
  minTradeAmount: { min: 1, max: 1000, step: 1, unit: 'USD' },
  maxTradeAmount: { min: 100, max: 1000000, step: 1, unit: 'USD' },
  maxLeverage: { min: 1, max: 10, step: 0.1, unit: 'x' },
  minOOSTrades: { min: 0, max: 100000, step: 1 },
  minOOSSharpe: { min: -10, max: 10, step: 0.01 },
  minPaperDays: { min: 0, max: 365, step: 1, unit: 'days' },
  minPaperTrades: { min: 0, max: 100000, step: 1 },
  refreshInterval: { min: 1000, max: 30000, step: 1000, unit: 'ms' },
  healthCheckInterval: { min: 10000, max: 300000, step: 1000, unit: 'ms' },
  logRetention: { min: 1, max: 365, step: 1, unit: 'days' },
  backupInterval: { min: 1, max: 168, step: 1, scale: HOUR, unit: 'hours' },
  backupRetention: { min: 1, max: 365, step: 1, unit: 'backups' },
  smtpPort: { min: 1, max: 65535, step: 1 },
  sessionTimeout: { min: 5, max: 1440, step: 1, scale: MINUTE, unit: 'minutes' },
  cacheTimeout: { min: 1, max: 60, step: 1, scale: MINUTE, unit: 'minutes' },
  maxConcurrentRequests: { min: 1, max: 100, step: 1 },
  requestTimeout: { min: 5, max: 120, step: 1, scale: 1000, unit: 'seconds' },
  retentionDays: { min: 0, max: 3650, step: 1, unit: 'days' },
  storedBacktests: { min: 1, max: 10000, step: 1, unit: 'reports' },
  activeBacktests: { min: 1, max: 100, step: 1 },
  activeSweeps: { min: 1, max: 20, step: 1 },
  requestBacktests: { min: 1, max: 100, step: 1, unit: 'reports' },
  minFreeDiskMB: { min: 0, max: 1000000, step: 1, unit: 'MB' },
} satisfies Record<string, Bound>;

/** Structural equality for plain JSON values. */
export function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJSON((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * What the server does with a dotted key: the most specific entry of effects
 * that is the key itself or one of its parents ("system.backup" covers
 * "system.backup.backupInterval").
 */
export function effectOf(effects: Record<string, string> | null | undefined, key: string): Effect | undefined {
  if (!effects) return undefined;
  const parts = key.split('.');
  for (let n = parts.length; n > 0; n--) {
    const v = effects[parts.slice(0, n).join('.')];
    if (v === 'applied' || v === 'stored') return v;
  }
  return undefined;
}

/** True when the key, or anything under it, is only stored. */
export function anyStoredUnder(effects: Record<string, string> | null | undefined, key: string): boolean {
  if (effectOf(effects, key) === 'stored') return true;
  if (!effects) return false;
  return Object.entries(effects).some(([k, v]) => v === 'stored' && k.startsWith(`${key}.`));
}

/** platform-settings-{YYYY-MM-DD}.json for the given local date. */
export function exportFileName(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `platform-settings-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}.json`;
}

/** Sets a value at a path inside a copy of obj (copies only along the path). */
export function setIn<T>(obj: T, path: readonly string[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path as [string, ...string[]];
  const src = (obj ?? {}) as Record<string, unknown>;
  return { ...src, [head]: setIn(src[head], rest, value) } as T;
}

/** Reads a value at a path, undefined when any step is missing. */
export function getIn(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Whether the provider's Test Connection button can be used. */
export function canTestConnection(provider: 'exchange' | 'ai', s: PlatformSettings): boolean {
  if (provider === 'exchange') {
    const ex = s.api?.exchange;
    if (!ex) return false;
    if (ex.provider === 'sandbox') return true;
    return ex.apiKey.trim() !== '' && ex.apiSecret.trim() !== '';
  }
  const ai = s.api?.ai;
  if (!ai) return false;
  if (ai.provider === 'builtin') return true;
  // An OpenAI-compatible endpoint (e.g. a local Ollama) may need no token.
  if (ai.provider === 'openai') return ai.baseUrl.trim() !== '' && ai.model.trim() !== '';
  return ai.apiToken.trim() !== '';
}


/** Where orders go and on which prices, as the status card shows it. */
export function venueLabel(s: PlatformSettings): string {
  const api = s.api as ApiSettings;
  if (api.exchange.provider === 'coinbase') return 'Coinbase (real orders) · live Coinbase prices';
  return api.marketData?.source === 'coinbase' ? 'Paper · live Coinbase prices' : 'Paper · replayed Coinbase candles';
}

/**
 * The confirmation a save needs when it switches the venue or its market
 * (an operator action: the engine restarts on the new one), or null.
 */
export function venueSwitchConfirm(saved: PlatformSettings, draft: PlatformSettings): string | null {
  const from = venueLabel(saved);
  const to = venueLabel(draft);
  if (from === to) return null;
  return `Switch trading from "${from}" to "${to}"? The engine restarts on it, orders already placed stay where they are, and the portfolio history starts again.`;
}

const MASK_PREFIX = '••••';

/** A secret the server holds, sent back masked (kept) rather than replaced. */
function keptSecret(v: string | undefined): boolean {
  return !!v && v.startsWith(MASK_PREFIX);
}

/**
 * The addresses a save moves a saved secret to: the AI provider or base URL (with the AI token kept),
 * the SMTP host (with its password kept) and the Telegram API URL (every Telegram channel's bot token
 * goes there). The server keeps such a secret only with the operator's password; without it the AI
 * token and the SMTP password are cleared and a new Telegram API URL is refused.
 */
export function endpointMoves(saved: PlatformSettings, draft: PlatformSettings): string[] {
  const out: string[] = [];
  const sa = saved.api?.ai;
  const da = draft.api?.ai;
  if (sa && da && (sa.provider !== da.provider || sa.baseUrl !== da.baseUrl) && keptSecret(da.apiToken)) out.push('the AI token to the new AI endpoint');
  const sn = saved.system?.notifications;
  const dn = draft.system?.notifications;
  if (sn && dn && sn.smtpHost !== dn.smtpHost && keptSecret(dn.smtpPassword)) out.push('the SMTP password to the new mail server');
  if (sn && dn && dn.telegramApiUrl && sn.telegramApiUrl !== dn.telegramApiUrl) out.push("every Telegram channel's bot token to the new Telegram API URL");
  return out;
}
