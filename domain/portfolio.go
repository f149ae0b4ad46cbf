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
	// ThinPortfolioPoints downsamples the points older than before to
	// bucket-wide UTC buckets (ThinKeep says which stay) and returns how many
	// it deleted; the history is the account's record and is never deleted
	// outright. A bucket of zero or less keeps everything.
	ThinPortfolioPoints(ctx context.Context, before time.Time, bucket time.Duration) (int64, error)
}

// ThinKeep says which of the points (ascending by time) a downsampling to
// bucket-wide UTC buckets keeps: in each bucket the last point (so day-end
// and hour-end values stay exact) and the highest (so the peak the drawdown
// limit measures from stays exact). Everything is kept for a bucket <= 0.
func ThinKeep(points []PortfolioPoint, bucket time.Duration) []bool {
	keep := make([]bool, len(points))
	if bucket <= 0 {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	for start := 0; start < len(points); {
		b := points[start].Time.UTC().Truncate(bucket)
		end, high := start, start
		for end < len(points) && points[end].Time.UTC().Truncate(bucket).Equal(b) {
			if points[end].Value.GreaterThan(points[high].Value) {
				high = end
			}
			end++
		}
		keep[end-1], keep[high] = true, true
		start = end
	}
	return keep
}
