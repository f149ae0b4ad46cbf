import type { TradingAnalytics } from './types';

/** A Trading Performance answer with every figure present. */
export function tradingData(over: Partial<TradingAnalytics> = {}): TradingAnalytics {
  return {
    totalTrades: 12,
    winningTrades: 8,
    losingTrades: 4,
    winRate: 0.6667,
    totalPnL: '1234.5',
    averageWin: '250',
    averageLoss: '-191.37',
    profitFactor: 2.61,
    sharpeRatio: 1.84,
    maxDrawdown: 0.0712,
    totalVolume: '48210.4',
    averageTradeSize: '4017.53',
    dailyPnL: [
      { date: '2026-11-20', pnl: '300', cumulative: '300' },
      { date: '2026-11-21', pnl: '-65.5', cumulative: '234.5' },
      { date: '2026-11-22', pnl: '1000', cumulative: '1234.5' },
    ],
    tradeDistribution: [
      { range: '$0-1k', count: 3 },
      { range: '$1k-5k', count: 7 },
      { range: '$5k+', count: 2 },
    ],
    monthlyPerformance: [{ month: '2026-11', pnl: '1234.5', trades: 12 }],
    ...over,
  };
}

/** The same tab with too little data: figures null, series empty. */
export function tradingEmpty(): TradingAnalytics {
  return {
    totalTrades: 0,
    winningTrades: 0,
    losingTrades: 0,
    winRate: null,
    totalPnL: null,
    averageWin: null,
    averageLoss: null,
    profitFactor: null,
    sharpeRatio: null,
    maxDrawdown: null,
    totalVolume: null,
    averageTradeSize: null,
    dailyPnL: [],
    tradeDistribution: [],
    monthlyPerformance: [],
  };
}
