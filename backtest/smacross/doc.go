// Package smacross is the reference strategy backtests are compared with:
// a simple moving average cross, long only, all in, on fixed-point candles.
// It is small enough to check by hand and fast enough to measure the rest of
// the backtester against (docs/PERFORMANCE.md: tens of millions of candles a
// second on one core).
//
// Rules, with candles numbered from 0 and SMA_n(t) the mean of the closes of
// candles t-n+1 .. t:
//
//   - At the close of candle t (t >= slow) a cross up is
//     SMA_fast(t-1) <= SMA_slow(t-1) and SMA_fast(t) > SMA_slow(t); a cross
//     down is SMA_fast(t-1) >= SMA_slow(t-1) and SMA_fast(t) < SMA_slow(t).
//     Decisions use candles up to t only.
//   - A cross up with no position buys at the open of candle t+1:
//     quantity = cash / (open x (1 + fee)) rounded down to 0.00000001;
//     fee = open x quantity x fee rate rounded half-up to 8 decimals;
//     cash decreases by open x quantity + fee. Cash too small for 0.00000001
//     buys nothing.
//   - A cross down with a position sells all of it at the open of t+1:
//     cash increases by open x quantity - fee (the fee rounded the same way).
//   - A signal at the close of the last candle has no next open and is dropped.
//     A position still open after the last candle is sold at the last close,
//     with the fee; that fill is marked end of data and carries the last
//     candle's open time, as every fill carries the open time of its candle.
//   - Slippage (optional, basis points): a buy pays open x (1 + bps/10000), a
//     sell gets open x (1 - bps/10000) (the last close for the end-of-data
//     sale), rounded half-up to 8 decimals, and never beyond the candle: a
//     buy pays at most its high, a sell gets at least its low; that price
//     then stands for the open in the formulas above and is the fill's price.
//
// Exactness. Prices, quantities, fees and the capital are int64 x 10^8, as
// package candles holds them. Cash is a 128-bit integer x 10^16: a price to 8
// places times a quantity to 8 places is exact there, so cash is never
// rounded (a buy can leave 0.000000025). The SMAs are never divided: the two
// running sums are exact integers, updated in O(1) per candle, and
// SMA_fast > SMA_slow is tested as sum_fast x slow > sum_slow x fast.
//
// Worked example (the package's ledger test): capital 1000, fee 1%, a cross
// up at the close of candle 4 and candle 5 opening at 12.5. Quantity
// 1000 / 12.625 = 79.2079207920... -> 79.20792079; notional 990.099009875;
// fee 9.90099009875 -> 9.90099010; cash 1000 - 990.099009875 - 9.9009901 =
// 0.000000025. A cross down at the close of candle 6 sells at the next open,
// 7.5: notional 594.059405925, fee 5.94059406, cash 588.11881189.
package smacross
