import { describe, expect, it } from 'vitest';
import { describeOverrides, getAt, overrideFields, returnSeries, setAt } from './overrides';
import type { StrategyConfig } from '../strategies/types';

const technical = {
  name: 't', type: 'technical', enabled: false, min_confidence: 0.6, max_position_size: 0.15, risk_multiplier: 1.2, symbols: ['BTC-USD'], timeframe: 'ONE_HOUR',
  indicators: { rsi_period: 14, rsi_oversold: 30, rsi_overbought: 70, sma_short: 10, sma_long: 20, macd_fast: 12, macd_slow: 26, macd_signal: 9, bollinger_period: 20, bollinger_std: 2 },
} as StrategyConfig;

describe('overrides', () => {
  it("offers every parameter the strategy has, and only those, with its saved value", () => {
    const f = overrideFields(technical);
    expect(f.map((x) => x.path.join('.'))).toEqual([
      'min_confidence', 'max_position_size', 'risk_multiplier', 'timeframe',
      'indicators.rsi_period', 'indicators.rsi_oversold', 'indicators.rsi_overbought', 'indicators.sma_short', 'indicators.sma_long',
      'indicators.macd_fast', 'indicators.macd_slow', 'indicators.macd_signal', 'indicators.bollinger_period', 'indicators.bollinger_std',
    ]);
    expect(f.find((x) => x.path[1] === 'rsi_oversold')?.saved).toBe(30);
    const ai = { ...technical, type: 'ai_driven', indicators: undefined, temperature: 0.3, context_length: 50, max_tokens: 500 } as StrategyConfig;
    expect(overrideFields(ai).map((x) => x.path.join('.'))).toEqual(['min_confidence', 'max_position_size', 'risk_multiplier', 'timeframe', 'temperature', 'context_length', 'max_tokens']);
  });

  it('sets and removes nested values without leaving empty objects', () => {
    let o = setAt({}, ['indicators', 'rsi_oversold'], 40);
    o = setAt(o, ['timeframe'], 'FIFTEEN_MINUTE');
    expect(o).toEqual({ indicators: { rsi_oversold: 40 }, timeframe: 'FIFTEEN_MINUTE' });
    expect(getAt(o, ['indicators', 'rsi_oversold'])).toBe(40);
    expect(setAt(o, ['indicators', 'rsi_oversold'], undefined)).toEqual({ timeframe: 'FIFTEEN_MINUTE' });
    expect(describeOverrides(o)).toBe('rsi_oversold 40, timeframe 15 minutes');
    expect(describeOverrides(undefined)).toBe('');
  });

  it("gives a run's equity as its return since the start, one point per time, in time order", () => {
    const s = returnSeries({
      initial_equity: '10000',
      equity_curve: [
        { time: '2026-01-01T01:00:00Z', equity: '10500', drawdown: 0 },
        { time: '2026-01-01T00:00:00Z', equity: '10000', drawdown: 0 },
        { time: '2026-01-01T01:00:00Z', equity: '9000', drawdown: 0.1 },
      ],
    });
    expect(s).toEqual([
      { time: 1767225600, value: 0 },
      { time: 1767229200, value: -10 },
    ]);
  });
});
