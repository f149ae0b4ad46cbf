// Package views assembles the analytics views the API serves (the
// trading, portfolio, risk, market and AI tabs; definitions in
// docs/ANALYTICS.md): it reads the account's fills, positions and recorded
// values and the market's candles, and computes every figure with package
// analytics. The API only decodes the request, calls a view and encodes
// what it returns.
package views

import (
	"context"
	"slices"
	"time"

	"kestrel/analytics"
	"kestrel/domain"
	"kestrel/marketdata"
	"kestrel/trading"
)

// Account is the trading account the views read.
type Account interface {
	Fills(ctx context.Context) ([]domain.Fill, error)
	// StrategyFills are the fills of orders placed by strategies.
	StrategyFills(ctx context.Context) ([]domain.Fill, error)
	Portfolio(ctx context.Context) (analytics.Portfolio, error)
	Balances(ctx context.Context) ([]domain.Balance, error)
	Limits(ctx context.Context) (trading.LimitsState, error)
}

// Market is the market the views price and chart with.
type Market interface {
	Symbols() []string
	Ticker(symbol string) (domain.Ticker, error)
	Stats(symbol string) (domain.Stats24h, error)
	Candles(ctx context.Context, symbol string, g domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error)
}

// Record is the account's portfolio value history (kept for its life).
type Record interface {
	PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error)
	PortfolioPointAt(ctx context.Context, t time.Time) (domain.PortfolioPoint, error)
}

// History is the candle store by real market dates.
type History interface {
	Daily(ctx context.Context, symbols []string) (map[string][]domain.Candle, error)
	Candles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (marketdata.Window, error)
}

// Strategy is a strategy as the AI view lists it.
type Strategy struct {
	Name    string
	Type    string
	Enabled bool
}

// Views holds what the views read. Fields a view does not use may be nil.
type Views struct {
	Account Account
	Prices  Market // symbols, tickers, 24h stats and candles
	Record  Record
	// History is nil when there is no candle store: the stress tests draw
	// on no history and the market tab reads the market's candles.
	History History
	// ReplayOf is the real time the market replays now; nil (or nil
	// answered) when the market is live.
	ReplayOf func() *time.Time
	Clock    domain.Clock
	// Strategies lists the strategies (the AI view keeps the AI-driven
	// and hybrid ones).
	Strategies func() []Strategy
	// AIEvaluations are the AI strategies' decisions made since, newest first.
	AIEvaluations func(ctx context.Context, since time.Time) ([]domain.Evaluation, error)
}

// Query is a view's period and symbol.
type Query struct {
	Period string
	Symbol string // empty when not given
	Since  time.Time
	Now    time.Time
}

// ParseQuery reads a view's period (default 30d) and symbol (upper case,
// one of symbols, or empty) at now.
func ParseQuery(period, symbol string, now time.Time, symbols []string) (Query, error) {
	q := Query{Period: period, Symbol: symbol, Now: now}
	if q.Period == "" {
		q.Period = "30d"
	}
	since, err := analytics.Since(q.Period, q.Now)
	if err != nil {
		return q, err
	}
	q.Since = since
	if q.Symbol != "" && !slices.Contains(symbols, q.Symbol) {
		return q, domain.FieldErrors(map[string]string{"symbol": "Unknown symbol " + q.Symbol}, "symbol")
	}
	return q, nil
}

// replayOf is the real time being replayed, nil when the market is live.
func (vw *Views) replayOf() *time.Time {
	if vw.ReplayOf == nil {
		return nil
	}
	return vw.ReplayOf()
}
