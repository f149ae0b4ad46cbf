import { describe, expect, it } from 'vitest';
import { baseToUsd, feeEstimate, liquidityOf, notional, ratePercent, shareOfBalance, usdToBase } from './sizing';

describe('order sizing', () => {
  it('estimates a fee as quantity x price x rate, exactly', () => {
    expect(feeEstimate('0.02', '50001', '0.006')).toBe('6.00012');
    // 0.1 x 0.3 is 0.030000000000000002 in binary floating point
    expect(feeEstimate('0.1', '0.3', '1')).toBe('0.03');
    expect(feeEstimate('', '50000', '0.006')).toBeNull();
    expect(notional('0.02', '50001')).toBe('1000.02');
  });

  it('turns USD into a base quantity at the price, rounded down to the increment', () => {
    // 1000 / 50001 = 0.019999600007999...
    expect(usdToBase('1000', '50001', '0.00000001')).toBe('0.0199996');
    expect(usdToBase('100', '0.4512', '0.1')).toBe('221.6'); // 221.631...
    expect(usdToBase('100', '3', '1')).toBe('33');
    expect(usdToBase('100', '0', '0.00000001')).toBeNull();
    expect(usdToBase('abc', '50000', '0.00000001')).toBeNull();
  });

  it('shows what a base quantity comes to in USD, rounded down to the cent', () => {
    expect(baseToUsd('0.0199996', '50001')).toBe('999.99');
    expect(baseToUsd('2', '50000')).toBe('100000');
  });

  it('sizes a BUY from available USD net of the fee, so 100% stays within it', () => {
    const buy = (percent: number) => shareOfBalance({ side: 'BUY', percent, available: '10000', price: '50000', feeRate: '0.006', increment: '0.00000001' });
    // 10000 / (50000 x 1.006) = 0.198807157...
    expect(buy(100)).toBe('0.19880715');
    expect(buy(50)).toBe('0.09940357');
    expect(buy(25)).toBe('0.04970178');
    const q = buy(100)!;
    const cost = Number(notional(q, '50000')) + Number(feeEstimate(q, '50000', '0.006'));
    expect(cost).toBeLessThanOrEqual(10000);
  });

  it('sizes a SELL from the available base asset', () => {
    const sell = (percent: number) => shareOfBalance({ side: 'SELL', percent, available: '0.12345679', price: '50000', feeRate: '0.006', increment: '0.00000001' });
    expect(sell(100)).toBe('0.12345679');
    expect(sell(50)).toBe('0.06172839'); // 0.061728395 rounded down
    expect(sell(25)).toBe('0.03086419');
  });

  it('says which fee an order pays: a limit that crosses the book takes, a resting one makes', () => {
    const book = { bid: '49999', ask: '50001' };
    expect(liquidityOf({ orderType: 'market', side: 'BUY', price: '' }, book)).toBe('taker');
    expect(liquidityOf({ orderType: 'stop_loss', side: 'SELL', price: '45000' }, book)).toBe('taker');
    expect(liquidityOf({ orderType: 'limit', side: 'BUY', price: '49000' }, book)).toBe('maker');
    expect(liquidityOf({ orderType: 'limit', side: 'BUY', price: '50001' }, book)).toBe('taker');
    expect(liquidityOf({ orderType: 'limit', side: 'SELL', price: '49999' }, book)).toBe('taker');
    expect(liquidityOf({ orderType: 'limit', side: 'SELL', price: '51000' }, book)).toBe('maker');
  });

  it('writes a rate as a percent', () => {
    expect(ratePercent('0.006')).toBe('0.6%');
    expect(ratePercent('0.0055')).toBe('0.55%');
    expect(ratePercent('0')).toBe('0%');
  });
});
