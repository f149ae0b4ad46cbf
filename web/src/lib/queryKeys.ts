/**
 * Every React Query key of the app, in one place. Features read and invalidate
 * through these, and so does the realtime cache writer (lib/realtime.ts): a
 * frame refreshes a view only when both name the same key, so neither spells
 * one by hand. Keys are prefixes of one another on purpose: invalidating
 * `strategyKeys.all` refreshes every strategy view.
 */
export const authKeys = {
  me: ['auth', 'me'] as const,
  setup: ['auth', 'setup'] as const,
  sessions: ['auth', 'sessions'] as const,
  totp: ['auth', 'totp'] as const,
};

export const userKeys = {
  list: ['users'] as const,
  /** Any user's tokens (a prefix of `tokens`). */
  allTokens: ['tokens'] as const,
  tokens: (userId?: string) => ['tokens', userId ?? 'me'] as const,
};

export const notifyKeys = {
  all: ['notifications'] as const,
  channels: ['notifications', 'channels'] as const,
  routing: ['notifications', 'routing'] as const,
  deliveries: (allFailures: boolean) => ['notifications', 'deliveries', allFailures] as const,
};

export const settingsKeys = {
  doc: ['settings'] as const,
  options: ['settings-options'] as const,
};

export const alertKeys = {
  all: ['alerts'] as const,
  open: ['alerts', 'open'] as const,
};

export const systemKeys = {
  all: ['system'] as const,
  status: ['system', 'status'] as const,
  metrics: ['system', 'metrics'] as const,
  health: ['system', 'health'] as const,
};

export const marketKeys = {
  products: ['products'] as const,
  ticker: (symbol: string) => ['ticker', symbol] as const,
  stats: (symbol: string) => ['stats', symbol] as const,
  candles: (symbol: string, timeframe: string, limit: number) => ['candles', symbol, timeframe, limit] as const,
  /** Everything under /market-data (coverage, backfills, gaps, order books). */
  all: ['market-data'] as const,
  coverage: ['market-data', 'coverage'] as const,
  backfills: ['market-data', 'backfills'] as const,
  gaps: (symbol: string, granularity: string) => ['market-data', 'gaps', symbol, granularity] as const,
  orderbook: (symbol: string) => ['market-data', 'orderbook', symbol] as const,
};

/**
 * The trading views a trade changes; each is the first element of its keys,
 * so invalidating `[k]` refreshes every variant (all order statuses, limits...).
 */
export const tradingKeys = ['orders', 'positions', 'history', 'performance', 'portfolio', 'balances', 'system'] as const;

export const tradeKeys = {
  positions: ['positions'] as const,
  orders: (status: string, limit: number) => ['orders', status, limit] as const,
  history: (limit: number) => ['history', limit] as const,
  symbolHistory: (symbol: string, limit: number) => ['history', 'symbol', symbol, limit] as const,
  performance: ['performance'] as const,
  portfolio: ['portfolio'] as const,
  portfolioHistory: (range: string) => ['portfolio', 'history', range] as const,
  balances: ['balances'] as const,
};

export const strategyKeys = {
  all: ['strategy'] as const,
  list: ['strategy', 'list'] as const,
  types: ['strategy', 'types'] as const,
  config: (name: string) => ['strategy', 'config', name] as const,
  /** Every signal listing of one instance, whatever its filters (a prefix of `signals`). */
  signalsOf: (name: string) => ['strategy', 'signals', name] as const,
  signals: <F extends object>(name: string, f: F) => ['strategy', 'signals', name, f] as const,
  allDecisions: ['strategy', 'decisions'] as const,
  decisions: <F extends object>(f: F) => ['strategy', 'decisions', f] as const,
  performance: ['strategy', 'performance'] as const,
  allAIPerformance: ['strategy', 'ai-performance'] as const,
  aiPerformance: (name: string) => ['strategy', 'ai-performance', name] as const,
  indicators: (symbol: string, type: string, granularity: string) => ['strategy', 'indicators', symbol, type, granularity] as const,
};

export const versionKeys = {
  all: ['strategy', 'versions'] as const,
  /** One instance's versions; its prompt history is under it, so a save refreshes both. */
  list: (name: string) => ['strategy', 'versions', name] as const,
  prompts: (name: string) => ['strategy', 'versions', name, 'prompts'] as const,
};

export const promotionKeys = {
  list: (name: string) => ['strategy', 'promotions', name] as const,
  drift: (name: string, id: string) => ['strategy', 'promotions', name, id, 'drift'] as const,
};

export const aiKeys = {
  spend: ['strategy', 'ai-spend'] as const,
  shadows: (name: string, days: number) => ['strategy', 'shadows', name, days] as const,
  promptCheck: (name: string, version: number, symbol: string, settled: string) => ['strategy', 'prompt-check', name, version, symbol, settled] as const,
};

export const backtestKeys = {
  all: ['backtests'] as const,
  list: ['backtests', 'list'] as const,
  one: (id: string) => ['backtests', 'run', id] as const,
  candles: (symbol: string, granularity: string, start: string, end: string) => ['backtests', 'candles', symbol, granularity, start, end] as const,
};

export const researchKeys = {
  list: ['sweeps', 'list'] as const,
  one: (id: string) => ['sweeps', 'one', id] as const,
};

export const analyticsKeys = {
  all: ['analytics'] as const,
  tab: (tab: string, period: string, symbol: string) => ['analytics', tab, period, symbol] as const,
};
