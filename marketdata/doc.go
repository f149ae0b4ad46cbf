// Package marketdata owns the candle store: market history kept by real
// market dates in the database (table candles, domain.CandleStore), what
// backtests, the historical candle endpoint and the analytics statistics
// read.
//
// Import. The candles shipped in the binary (package candles: Coinbase
// 15-minute candles for BTC, ETH, SOL and ADA against USD) are imported at
// the first start, each symbol in one transaction of batched inserts, with
// the source "coinbase (shipped)". A symbol whose shipped candles are all
// stored already is skipped without writing, so every later start imports
// nothing; a candle already stored is never overwritten.
//
// Granularity. The shipped candles are 15-minute ones; a backfill
// (Backfiller) stores Coinbase's candles of 15 minutes to a day (source
// "coinbase"). A read at width W takes, bucket by bucket, the candle
// stored at W, else aggregates one from the widest narrower stored width
// that holds the bucket whole (else the one covering most of it), so a
// backfilled hourly range continues the shipped 15-minute history and a
// backfill starting mid-day never hides a whole shipped day; aligned to UTC (hours on the hour, days at 00:00):
// first open, highest high, lowest low, last close, summed volume; a bucket
// a gap only partly covers is built from what is there, one with no data is
// left out. ONE_MINUTE and FIVE_MINUTE candles do not exist in the data:
// they are cut from a seeded price path generated inside each 15-minute
// candle (the path the sandbox replay follows, replay.Path), and every read
// of them says so (Window.Synthetic).
//
// Backfills. Backfiller.Run pages Coinbase's public candles (350 a
// request) through a token bucket shared by every backfill, tries a page
// refused with a 429 again, upserts each page with the source "coinbase"
// (a candle another source holds keeps it), and stores its cursor in the
// key-value store after each page, so a run started again (after a
// restart: jobs.HandleResumable) carries on from the last stored page.
// BackfillRequest.Check validates an ask into field errors and stores only
// candles closed by the time it was asked.
//
// Dates. Nothing is shifted or looped: a request for 2024-06-01 to
// 2024-08-31 reads the candles that opened in those dates, and a period the
// store does not cover is refused with the coverage ("Market data for
// BTC-USD covers 2024-04-18 to 2026-05-07": the first day with data to the
// last whole UTC day).
package marketdata
