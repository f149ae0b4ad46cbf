package domain

import (
	"context"
	"time"
)

// CandleRow is one candle as the candle store takes it: the open time and
// OHLCV as exact decimal text (what the source published, never a float).
type CandleRow struct {
	Time                           time.Time
	Open, High, Low, Close, Volume string
}

// CandleSpan summarises what the store holds of one symbol at one
// granularity from one source.
type CandleSpan struct {
	Symbol      string
	Granularity Granularity
	Source      string
	First, Last time.Time // open times of the oldest and the newest candle
	Count       int
}

// CandleGap is a hole in stored history: no candle opens in [From, To),
// where From is the first missing open time and To the next stored one.
type CandleGap struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// CandleStore keeps market history by real market dates, one candle per
// (symbol, granularity, open time). Package marketdata owns what goes in.
type CandleStore interface {
	// InsertCandles stores rows of symbol at g from source in one
	// transaction, leaving a candle already stored (same symbol, granularity
	// and open time) untouched; it returns how many rows were new.
	InsertCandles(ctx context.Context, symbol string, g Granularity, source string, rows []CandleRow) (int, error)
	// UpsertCandles stores rows of symbol at g from source in one
	// transaction: a new candle is inserted, one stored from the same
	// source is replaced (a later fetch of the same candle wins), and one
	// stored from another source is left untouched (the shipped data keeps
	// its own). It returns how many rows were inserted or replaced.
	UpsertCandles(ctx context.Context, symbol string, g Granularity, source string, rows []CandleRow) (int, error)
	// StoredCandles returns the candles of symbol at g opening in
	// [from, to), ascending.
	StoredCandles(ctx context.Context, symbol string, g Granularity, from, to time.Time) ([]Candle, error)
	// CandleSpans summarises every (symbol, granularity, source) stored
	// (it reads every row: for listings, not for every request).
	CandleSpans(ctx context.Context) ([]CandleSpan, error)
	// CandleBounds returns the open times of the oldest and the newest
	// candle of symbol at g, cheaply; not_found when there is none.
	CandleBounds(ctx context.Context, symbol string, g Granularity) (first, last time.Time, err error)
	// CandleSources lists the sources of the candles of symbol at g opening
	// in [from, to), sorted.
	CandleSources(ctx context.Context, symbol string, g Granularity, from, to time.Time) ([]string, error)
	// CandleGaps lists the holes in symbol's history at g: consecutive
	// stored candles further apart than g's width, oldest first.
	CandleGaps(ctx context.Context, symbol string, g Granularity) ([]CandleGap, error)
}
