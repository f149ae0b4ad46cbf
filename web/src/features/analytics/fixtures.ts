import type { AIAnalytics, AIDecision, Coverage, MarketAnalytics, PortfolioAnalytics, RiskAnalytics, TradingAnalytics } from './types';

/** Every answer's coverage: the whole 30 days asked for. */
const coverage: Coverage = { requestedFrom: '2026-10-23T12:00:00Z', from: '2026-10-23T12:00:00Z', to: '2026-11-22T12:00:00Z', complete: true };

/** A Trading Performance answer with every figure present. */
export function tradingData(over: Partial<TradingAnalytics> = {}): TradingAnalytics {
  return {
    period: '30d',
    symbol: '',
    coverage,
    totalTrades: 12,
    winningTrades: 8,
    losingTrades: 4,
    winRate: 66.7,
    totalPnL: '1234.5',
    averageWin: '250',
    averageLoss: '-191.37',
    profitFactor: 2.61,
    winLossRatio: 2,
    sharpeRatio: 1.84,
    maxDrawdown: '265.5',
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
    period: '30d',
    symbol: '',
    coverage,
    totalTrades: 0,
    winningTrades: 0,
    losingTrades: 0,
    winRate: null,
    totalPnL: null,
    averageWin: null,
    averageLoss: null,
    profitFactor: null,
    winLossRatio: null,
    sharpeRatio: null,
    maxDrawdown: null,
    totalVolume: '0',
    averageTradeSize: null,
    dailyPnL: [],
    tradeDistribution: [],
    monthlyPerformance: [],
  };
}

export function portfolioData(over: Partial<PortfolioAnalytics> = {}): PortfolioAnalytics {
  return {
    period: '30d',
    coverage,
    totalValue: '25000',
    cashBalance: '0',
    totalCost: '23000',
    totalUnrealizedPnL: '2000',
    totalUnrealizedPnLPercent: '8.7',
    diversificationRatio: 1.18,
    beta: 0.93,
    volatility: 0.512,
    sharpeRatio: 1.21,
    holdings: [
      { symbol: 'BTC-USD', quantity: '0.2', currentPrice: '90000', marketValue: '18000', costBasis: '16500', unrealizedPnL: '1500', unrealizedPnLPercent: '9.09', allocation: '72' },
      { symbol: 'ETH-USD', quantity: '2.123456', currentPrice: '3296.6', marketValue: '7000', costBasis: '6500', unrealizedPnL: '500', unrealizedPnLPercent: '7.69', allocation: '28' },
    ],
    valueHistory: [
      { date: '2026-11-21', value: '24000' },
      { date: '2026-11-22', value: '25000' },
    ],
    allocationHistory: [
      { date: '2026-11-21', totalValue: '24000', assets: [{ asset: 'USD', quantity: '24000', close: '1', value: '24000', allocation: '100' }] },
      {
        date: '2026-11-22',
        totalValue: '25000',
        assets: [
          { asset: 'BTC-USD', quantity: '0.2', close: '90000', value: '18000', allocation: '72' },
          { asset: 'ETH-USD', quantity: '2.123456', close: '3296.6', value: '7000', allocation: '28' },
          { asset: 'USD', quantity: '0', close: '1', value: '0', allocation: '0' },
        ],
      },
    ],
    benchmark: 'BTC-USD',
    correlationMatrix: { symbols: ['BTC-USD', 'ETH-USD'], matrix: [[1, 0.8612], [0.8612, 1]] },
    ...over,
  };
}

export function portfolioEmpty(): PortfolioAnalytics {
  return {
    period: '30d',
    coverage,
    benchmark: 'BTC-USD',
    totalValue: '0',
    cashBalance: '0',
    totalCost: '0',
    // Never null from the server: the screen still shows a dash for it.
    totalUnrealizedPnL: null as unknown as string,
    totalUnrealizedPnLPercent: null,
    diversificationRatio: null,
    beta: null,
    volatility: null,
    sharpeRatio: null,
    holdings: [],
    valueHistory: [],
    allocationHistory: [],
    correlationMatrix: { symbols: [], matrix: [] },
  };
}

export function riskData(over: Partial<RiskAnalytics> = {}): RiskAnalytics {
  return {
    limitsState: { venue: 'Coinbase · live Coinbase prices', since: '2026-05-01T10:00:00Z', peakValue: '25400', dayStartValue: '25100', tradesToday: 3 },
    period: '30d',
    coverage,
    benchmark: 'BTC-USD',
    metrics: {
      portfolioValue: '25000',
      totalExposure: '25000',
      var95: 0.032,
      var99: 0.051,
      var95Amount: '800',
      var99Amount: '1275',
      parametricVar95: 0.0345,
      parametricVar99: 0.0488,
      expectedShortfall: 0.0427,
      expectedShortfallAmount: '1067.5',
      maxDrawdown: 0.118,
      currentDrawdown: 0.021,
      recoveryFactor: 1.7,
      volatility: 0.48,
      beta: 0.95,
      sharpeRatio: 1.3,
      sortinoRatio: 1.9,
      calmarRatio: 2.4,
      returnsUsed: 29,
    },
    varHistory: [{ date: '2026-11-22', var95: '800', var99: '1275', actualPnL: '-120' }],
    drawdownHistory: [{ date: '2026-11-22', drawdown: -0.021, underwater: true, recovery: 0.4 }],
    stressTests: [
      { scenario: 'Crypto crash -30%', portfolioImpact: '-7500', impactPercent: '-30', probability: 0.013889, probabilityBasis: '10 of 720 30-day windows of the daily closes 2024-04-18 to 2026-05-07', occurrences: 10, windows: 720, horizonDays: 30, description: 'Every crypto holding falls 30%' },
      { scenario: 'Flash crash -15%', portfolioImpact: '-3750', impactPercent: '-15', probability: null, probabilityBasis: 'Never happened in the 749 1-day windows of the daily closes 2024-04-18 to 2026-05-07', occurrences: 0, windows: 749, horizonDays: 1, description: 'Every crypto holding falls 15%' },
    ],
    scenarioAnalysis: [
      { scenario: 'BTC-USD falls 10% or more in a day', description: 'BTC holdings lose 10%', impact: '-1800', impactPercent: '-7.2', probability: 0.001335, probabilityBasis: '1 of 749 1-day windows of the daily closes 2024-04-18 to 2026-05-07', occurrences: 1, windows: 749, horizonDays: 1, dataFrom: '2024-04-18', dataTo: '2026-05-07' },
      { scenario: 'Broad market falls 20% or more over 7 days', description: 'Every holding loses 20%', impact: '-5000', impactPercent: '-20', probability: 0.006729, probabilityBasis: '5 of 743 7-day windows of the daily closes 2024-04-18 to 2026-05-07', occurrences: 5, windows: 743, horizonDays: 7, dataFrom: '2024-04-18', dataTo: '2026-05-07' },
    ],
    correlationRisks: [
      { asset1: 'BTC-USD', asset2: 'ETH-USD', correlation: 0.86, riskContribution: 64 },
      { asset1: 'BTC-USD', asset2: 'ADA-USD', correlation: 0.55, riskContribution: 10 },
    ],
    riskDecomposition: [
      { component: 'BTC-USD', contribution: 0.0012, percentage: 75 },
      { component: 'ETH-USD', contribution: 0.0004, percentage: 25 },
    ],
    ...over,
  };
}

export function riskEmpty(): RiskAnalytics {
  const m = riskData().metrics;
  const nulls = Object.fromEntries(Object.keys(m).map((k) => [k, null])) as unknown as RiskAnalytics['metrics'];
  const r = riskData();
  return { limitsState: r.limitsState, period: r.period, coverage, benchmark: r.benchmark, metrics: { ...nulls, portfolioValue: '0', totalExposure: '0', returnsUsed: 0 }, varHistory: [], drawdownHistory: [], stressTests: [], scenarioAnalysis: [], correlationRisks: [], riskDecomposition: [] };
}

export function decisions(n: number): AIDecision[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    timestamp: `2026-11-22T${String(10 + (i % 10)).padStart(2, '0')}:00:00Z`,
    strategyName: '',
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
    period: '30d',
    since: '2026-10-23T12:00:00Z',
    coverage,
    metrics: { totalDecisions: 40, executedDecisions: 25, failedDecisions: 0, resolvedDecisions: 25, accuracyRate: 64, averageConfidence: 0.72, totalPnL: '310.25', winRate: 60, averageResponseTime: 1.234, modelVersion: 'gpt-4.1-nano' },
    decisions: decisions(12),
    strategies: [
      { strategyName: 'ai_strategy', totalTrades: 25, winRate: 60, totalPnL: '310.25', sharpeRatio: 1.1, maxDrawdown: '45.2', averageConfidence: 0.72, isActive: true, decisions: 40 },
      { strategyName: 'hybrid', totalTrades: 0, winRate: null, totalPnL: null, sharpeRatio: null, maxDrawdown: null, averageConfidence: null, isActive: false, decisions: 0 },
    ],
    confidenceDistribution: [
      { range: '0.5-0.6', min: 0.5, max: 0.6, count: 5 },
      { range: '0.6-0.7', min: 0.6, max: 0.7, count: 10 },
      { range: '0.7-0.8', min: 0.7, max: 0.8, count: 15 },
      { range: '0.8-1.0', min: 0.8, max: 1, count: 10 },
    ],
    decisionBreakdown: [
      { type: 'BUY', count: 20, executed: 15, resolved: 15, successRate: 65 },
      { type: 'SELL', count: 12, executed: 10, resolved: 10, successRate: 58.3 },
      { type: 'HOLD', count: 8, executed: 0, resolved: 0, successRate: null },
    ],
    performance: [{ date: '2026-11-22', decisions: 40, executed: 25, pnl: '310.25' }],
    ...over,
  };
}

export function aiEmpty(): AIAnalytics {
  return {
    period: '30d',
    since: '2026-10-23T12:00:00Z',
    coverage,
    metrics: { totalDecisions: 0, executedDecisions: 0, failedDecisions: 0, resolvedDecisions: 0, accuracyRate: null, averageConfidence: null, totalPnL: null, winRate: null, averageResponseTime: null, modelVersion: 'gpt-4.1-nano' },
    decisions: [],
    strategies: [],
    // As the server sends them with no decisions: every bucket and type at 0.
    confidenceDistribution: [
      ['0-0.5', 0, 0.5],
      ['0.5-0.6', 0.5, 0.6],
      ['0.6-0.7', 0.6, 0.7],
      ['0.7-0.8', 0.7, 0.8],
      ['0.8-0.9', 0.8, 0.9],
      ['0.9-1.0', 0.9, 1],
    ].map(([range, min, max]) => ({ range: range as string, min: min as number, max: max as number, count: 0 })),
    decisionBreakdown: ['BUY', 'SELL', 'HOLD'].map((type) => ({ type, count: 0, executed: 0, resolved: 0, successRate: null })),
    performance: [],
  };
}

export function marketData(over: Partial<MarketAnalytics> = {}): MarketAnalytics {
  return {
    period: '7d',
    symbol: 'BTC-USD',
    asOf: '2026-11-22T12:00:00Z',
    coverage,
    metrics: { marketCap: '2134000000000', volume24h: '58760000000', dominance: '83.88', dominanceScope: 'the four tracked assets', volatilityIndex: 0.452, fearGreedIndex: 63.4, fearGreedLabel: 'Greed', marketIndex: { value: 63.4, label: 'Greed', momentum: 70, volatility: 55, volume: 65.2, name: 'Kestrel market index' }, trendStrength: 50 },
    trends: [
      { symbol: 'BTC-USD', price: '90000', change24h: '1200', changePercent24h: '1.35', volume: '355555.5', volumeUsd: '32000000000', marketCap: '1790000000000', trend: 'bullish', sma20: '87000', sma50: '85000' },
      { symbol: 'ADA-USD', price: '0.4123', change24h: '-0.01', changePercent24h: '-2.37', volume: '994421537', volumeUsd: '410000000', marketCap: '14800000000', trend: 'bearish', sma20: '0.43', sma50: '0.45' },
    ],
    volatility: [
      { symbol: 'BTC-USD', volatility: 0.41, averageVolatility: 0.45, riskLevel: 'Low' },
      { symbol: 'ADA-USD', volatility: 0.78, averageVolatility: 0.7, riskLevel: 'High' },
    ],
    correlations: [
      { symbol1: 'BTC-USD', symbol2: 'ETH-USD', correlation: 0.82, strength: 'strong', days: 7 },
      { symbol1: 'BTC-USD', symbol2: 'ADA-USD', correlation: 0.25, strength: 'weak', days: 7 },
    ],
    priceHistory: { 'BTC-USD': [{ date: '2026-11-21', close: '88000' }, { date: '2026-11-22', close: '90000' }] },
    volumeAnalysis: [{ date: '2026-11-22', volume: '355555.5', avgVolume: '330000' }],
    supply: { asOf: '2025-01-01', source: "BTC: the protocol's issuance schedule; ETH, ADA, SOL: public aggregators", note: 'rounded', supply: { 'BTC-USD': '19800000' }, unverified: ['ETH-USD', 'ADA-USD', 'SOL-USD'] },
    unavailable: { sectorAnalysis: 'no sector data for the tracked assets' },
    dates: { source: 'market', from: '2026-11-15T00:00:00Z', to: '2026-11-22T12:00:00Z', note: "The live market's daily candles" },
    ...over,
  };
}

export function marketEmpty(): MarketAnalytics {
  return {
    period: '7d',
    symbol: 'BTC-USD',
    asOf: '2026-11-22T12:00:00Z',
    coverage,
    metrics: {
      // Never null from the server: the screen still shows dashes for them.
      marketCap: null as unknown as string,
      volume24h: null as unknown as string,
      dominance: null,
      dominanceScope: '',
      volatilityIndex: null,
      fearGreedIndex: null,
      fearGreedLabel: null,
      marketIndex: null,
      trendStrength: null,
    },
    trends: [],
    volatility: [],
    correlations: [],
    priceHistory: {},
    volumeAnalysis: [],
    supply: { asOf: '2025-01-01', source: 'shipped table', note: '', supply: {}, unverified: [] },
    unavailable: {},
    dates: { source: 'market', from: null, to: null, note: "The live market's daily candles" },
  };
}
