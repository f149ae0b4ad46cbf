// Package replay is the sandbox market: it replays real 15-minute Coinbase
// candles (package candles) in wall-clock time and implements domain.MarketData.
//
// A replay, not history. The replay moves real history to the present so the
// sandbox has a live market; its timeline is not the market's. Backtests,
// the historical candles (GET /api/market-data/historical) and the
// analytics statistics drawn from history do not read it: they read the
// candle store by real market dates (package marketdata). The screens label
// the sandbox market a replay and show the real time being replayed
// (Replaying, the system status's market_data.replay_of: "Replay of
// 2024-11-05 00:51 UTC" on the dashboard).
//
// Mapping. The data covers 2024-04-18 16:30 to 2026-05-08 16:45 UTC. It is looped
// with a period P equal to the data span rounded down to whole days, so a
// market time m maps to the data time d = first + ((m - first) mod P). Because
// P is whole days, time of day is preserved: the 14:15 candle of today is a
// real 14:15 candle. When the loop wraps (every ~750 days), the price jumps
// from the last candle's close to the first candle's open; nothing smooths it.
//
// Market time. With Speed 1 market time is wall time. With Speed s > 1 the
// market clock runs s times faster from the moment the feed starts (history
// before that moment is unchanged), so prices, candles and timestamps are in
// market time, ahead of the wall clock. Demos use it; trading uses Speed 1.
//
// Inside a candle. The price walks once per market second (900 points per
// candle) from the open, touching the high and the low exactly once each at
// seeded times, to the close at the candle's end, never leaving [low, high].
// The walk depends only on (seed, symbol, candle time), so any moment's price
// is reproducible without replaying from the start. The candle's volume is
// spread evenly over its seconds.
//
// Gaps. Where the data has no candle, the price holds at the previous close
// and no volume trades; history simply has no candle for that slot.
//
// Candles. FIFTEEN_MINUTE and wider candles come from the data (aggregated
// from 15-minute candles, aligned to UTC), the current one built from the walk
// so far. ONE_MINUTE and FIVE_MINUTE candles are cut from the walk itself
// (open at the bucket's first second, close at its end, high and low over
// every second), so they exist for any past time and at any replay speed and
// agree exactly with the 15-minute candle they divide.
package replay
