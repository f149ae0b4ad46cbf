import { describe, expect, it } from 'vitest';
import { alertKeys, backtestKeys, marketKeys, promotionKeys, strategyKeys, systemKeys, tradeKeys, tradingKeys, versionKeys } from './queryKeys';

/** True when prefix invalidates key (React Query matches keys by prefix). */
const under = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((p, i) => JSON.stringify(p) === JSON.stringify(key[i]));

describe('query keys', () => {
  it('puts every trading view under a key a trade refreshes', () => {
    const views = [tradeKeys.positions, tradeKeys.orders('open', 100), tradeKeys.history(50), tradeKeys.symbolHistory('BTC-USD', 100), tradeKeys.performance, tradeKeys.portfolio, tradeKeys.portfolioHistory('1D'), tradeKeys.balances, systemKeys.status, systemKeys.metrics];
    for (const v of views) expect(tradingKeys.some((k) => under(v, [k]))).toBe(true);
  });

  it('nests the keys a broader refresh must reach', () => {
    expect(under(alertKeys.open, alertKeys.all)).toBe(true);
    expect(under(systemKeys.health, systemKeys.all)).toBe(true);
    expect(under(versionKeys.prompts('a'), versionKeys.list('a'))).toBe(true);
    expect(under(promotionKeys.drift('a', 'p1'), promotionKeys.list('a'))).toBe(true);
    expect(under(strategyKeys.signals('a', { symbol: '' }), strategyKeys.signalsOf('a'))).toBe(true);
    expect(under(strategyKeys.decisions({ symbol: '' }), strategyKeys.allDecisions)).toBe(true);
    expect(under(strategyKeys.aiPerformance('a'), strategyKeys.allAIPerformance)).toBe(true);
    for (const k of [strategyKeys.list, versionKeys.list('a'), promotionKeys.list('a')]) expect(under(k, strategyKeys.all)).toBe(true);
    expect(under(backtestKeys.one('r1'), backtestKeys.all)).toBe(true);
    for (const k of [marketKeys.coverage, marketKeys.backfills, marketKeys.gaps('BTC-USD', 'ONE_HOUR'), marketKeys.orderbook('BTC-USD')]) expect(under(k, marketKeys.all)).toBe(true);
  });
});
