package domain

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// PortfolioPoint is the account's value at one moment: cash plus positions at
// current prices. Recorded at least once a minute and after every fill.
type PortfolioPoint struct {
	Time  time.Time       `json:"timestamp"`
	Value decimal.Decimal `json:"value"`
	Cash  decimal.Decimal `json:"cash"`
}

// PortfolioStore keeps the portfolio value history.
type PortfolioStore interface {
	AppendPortfolioPoint(ctx context.Context, p PortfolioPoint) error
	// PortfolioPoints returns points in [since, until), ascending, at most limit (the newest when more).
	PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]PortfolioPoint, error)
	// PortfolioPointAt returns the last point at or before t, or not_found.
	PortfolioPointAt(ctx context.Context, t time.Time) (PortfolioPoint, error)
	// PeakPortfolioValue returns the highest recorded value, or zero when none.
	PeakPortfolioValue(ctx context.Context) (decimal.Decimal, error)
	// PrunePortfolioPoints deletes points older than before.
	PrunePortfolioPoints(ctx context.Context, before time.Time) (int64, error)
}
