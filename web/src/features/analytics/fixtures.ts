import type { AIAnalytics, AIDecision, MarketAnalytics, PortfolioAnalytics, RiskAnalytics, TradingAnalytics } from './types';

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

export function portfolioData(over: Partial<PortfolioAnalytics> = {}): PortfolioAnalytics {
  return {
    totalValue: '25000',
    totalCost: '23000',
    totalUnrealizedPnL: '2000',
    totalUnrealizedPnLPercent: 0.087,
    diversificationRatio: 1.18,
    beta: 0.93,
    volatility: 0.512,
    sharpeRatio: 1.21,
    holdings: [
      { symbol: 'BTC-USD', quantity: '0.2', currentPrice: '90000', marketValue: '18000', costBasis: '16500', unrealizedPnL: '1500', unrealizedPnLPercent: 0.0909, allocation: 0.72 },
      { symbol: 'ETH-USD', quantity: '2.123456', currentPrice: '3296.6', marketValue: '7000', costBasis: '6500', unrealizedPnL: '500', unrealizedPnLPercent: 0.0769, allocation: 0.28 },
    ],
    valueHistory: [
      { date: '2026-11-21', value: '24000' },
      { date: '2026-11-22', value: '25000' },
    ],
    ...over,
  };
}

export function portfolioEmpty(): PortfolioAnalytics {
  return { totalValue: '0', totalCost: '0', totalUnrealizedPnL: null, totalUnrealizedPnLPercent: null, diversificationRatio: null, beta: null, volatility: null, sharpeRatio: null, holdings: [], valueHistory: [] };
}

export function riskData(over: Partial<RiskAnalytics> = {}): RiskAnalytics {
  return {
    metrics: {
      portfolioValue: '25000',
      totalExposure: '25000',
      var95: 0.032,
      var99: 0.051,
      parametricVar95: 0.0345,
      parametricVar99: 0.0488,
      expectedShortfall: 0.0427,
      maxDrawdown: 0.118,
      currentDrawdown: 0.021,
      recoveryFactor: 1.7,
      volatility: 0.48,
      beta: 0.95,
      sharpeRatio: 1.3,
      sortinoRatio: 1.9,
      calmarRatio: 2.4,
    },
    varHistory: [{ date: '2026-11-22', var95: '800', var99: '1275', actualPnL: '-120' }],
    drawdownHistory: [{ date: '2026-11-22', drawdown: 0.021, underwater: 0.021, recovery: 0 }],
    stressTests: [
      { scenario: 'Market crash', portfolioImpact: '-7500', impactPercent: -0.3, probability: 0.05, description: 'Every holding falls 30%' },
      { scenario: 'Minor correction', portfolioImpact: '-3750', impactPercent: -0.15, probability: 0.2, description: 'Every holding falls 15%' },
    ],
    correlationRisks: [
      { asset1: 'BTC-USD', asset2: 'ETH-USD', correlation: 0.86, riskContribution: 0.64 },
      { asset1: 'BTC-USD', asset2: 'ADA-USD', correlation: 0.55, riskContribution: 0.1 },
    ],
    riskDecomposition: [
      { component: 'BTC-USD', contribution: 0.0012, percentage: 0.75 },
      { component: 'ETH-USD', contribution: 0.0004, percentage: 0.25 },
    ],
    ...over,
  };
}

export function riskEmpty(): RiskAnalytics {
  const m = riskData().metrics;
  const nulls = Object.fromEntries(Object.keys(m).map((k) => [k, null])) as unknown as RiskAnalytics['metrics'];
  return { metrics: { ...nulls, portfolioValue: '0', totalExposure: '0' }, varHistory: [], drawdownHistory: [], stressTests: [], correlationRisks: [], riskDecomposition: [] };
}

export function decisions(n: number): AIDecision[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    timestamp: `2026-11-22T${String(10 + (i % 10)).padStart(2, '0')}:00:00Z`,
    symbol: i % 2 ? 'ETH-USD' : 'BTC-USD',
    recommendation: (['BUY', 'SELL', 'HOLD'] as const)[i % 3]!,
    confidence: i === 0 ? 0.85 : 0.5,
    reasoning: `Reason ${i}`,
    executed: i % 3 !== 2,
    outcome: (['profit', 'loss', 'pending'] as const)[i % 3]!,
    pnl: i % 3 === 2 ? null : i % 3 === 0 ? '42.5' : '-10',
  }));
}

export function aiData(over: Partial<AIAnalytics> = {}): AIAnalytics {
  return {
    metrics: { totalDecisions: 40, executedDecisions: 25, accuracyRate: 0.64, averageConfidence: 0.72, totalPnL: '310.25', winRate: 0.6, averageResponseTime: 1.234, modelVersion: 'gpt-4.1-nano' },
    decisions: decisions(12),
    strategies: [
      { strategyName: 'ai_strategy', totalTrades: 25, winRate: 0.6, totalPnL: '310.25', sharpeRatio: 1.1, maxDrawdown: 0.05, averageConfidence: 0.72, isActive: true },
      { strategyName: 'hybrid', totalTrades: 0, winRate: null, totalPnL: null, sharpeRatio: null, maxDrawdown: null, averageConfidence: null, isActive: false },
    ],
    confidenceDistribution: [
      { range: '0.5-0.6', count: 5 },
      { range: '0.6-0.7', count: 10 },
      { range: '0.7-0.8', count: 15 },
      { range: '0.8-1.0', count: 10 },
    ],
    decisionBreakdown: [
      { type: 'BUY', count: 20, successRate: 0.65 },
      { type: 'SELL', count: 12, successRate: 0.58 },
      { type: 'HOLD', count: 8, successRate: null },
    ],
    performanceHistory: [{ date: '2026-11-22', pnl: '310.25', cumulative: '310.25' }],
    ...over,
  };
}

export function aiEmpty(): AIAnalytics {
  return {
    metrics: { totalDecisions: 0, executedDecisions: 0, accuracyRate: null, averageConfidence: null, totalPnL: null, winRate: null, averageResponseTime: null, modelVersion: 'gpt-4.1-nano' },
    decisions: [],
    strategies: [],
    confidenceDistribution: [],
    decisionBreakdown: [],
    performanceHistory: [],
  };
}

export function marketData(over: Partial<MarketAnalytics> = {}): MarketAnalytics {
  return {
    metrics: { marketCap: '2134000000000', volume24h: '58760000000', dominance: 0.62, volatilityIndex: 0.452, fearGreedIndex: 63, trendStrength: 0.4, supplySource: 'Kestrel supply table (issuers and block explorers)', supplyDate: '2026-11-01' },
    trends: [
      { symbol: 'BTC-USD', price: '90000', change24h: '1200', changePercent24h: 0.0135, volume: '32000000000', marketCap: '1790000000000', trend: 'bullish' },
      { symbol: 'ADA-USD', price: '0.4123', change24h: '-0.01', changePercent24h: -0.0237, volume: '410000000', marketCap: '14800000000', trend: 'bearish' },
    ],
    volatility: [
      { symbol: 'BTC-USD', volatility: 0.41, averageVolatility: 0.45, riskLevel: 'Medium' },
      { symbol: 'ADA-USD', volatility: 0.78, averageVolatility: 0.7, riskLevel: 'High' },
    ],
    correlations: [
      { symbol1: 'BTC-USD', symbol2: 'ETH-USD', correlation: 0.82 },
      { symbol1: 'BTC-USD', symbol2: 'ADA-USD', correlation: 0.25 },
    ],
    priceHistory: { 'BTC-USD': [{ date: '2026-11-21', price: '88000' }, { date: '2026-11-22', price: '90000' }] },
    volumeAnalysis: [{ date: '2026-11-22', volume: '32000000000', avgVolume: '30000000000' }],
    ...over,
  };
}

export function marketEmpty(): MarketAnalytics {
  return {
    metrics: { marketCap: null, volume24h: null, dominance: null, volatilityIndex: null, fearGreedIndex: null, trendStrength: null, supplySource: 'Kestrel supply table', supplyDate: '2026-11-01' },
    trends: [],
    volatility: [],
    correlations: [],
    priceHistory: {},
    volumeAnalysis: [],
  };
}
