package views

import (
	"context"
	"time"

	"kestrel/analytics"
	"kestrel/domain"
)

// recordSlack is how far after a period's start the account's first
// recorded value may be while the period still counts as covered: the
// portfolio value is recorded at least once a minute.
const recordSlack = 2 * time.Minute

// recordCoverage is the span of the period the account's record (its
// portfolio value history, kept for the account's life) covers: what the
// trading, portfolio, risk and AI views can speak for.
func (vw *Views) recordCoverage(ctx context.Context, since, now time.Time) (analytics.Coverage, error) {
	if !since.IsZero() {
		_, err := vw.Record.PortfolioPointAt(ctx, since)
		switch {
		case err == nil:
			return analytics.CoverageOf(since, now, true, nil, recordSlack), nil
		case domain.ErrorCode(err) != domain.ENotFound:
			return analytics.Coverage{}, err
		}
	}
	pts, err := vw.Record.PortfolioPoints(ctx, since, now.Add(time.Second), 10_000_000)
	if err != nil {
		return analytics.Coverage{}, err
	}
	var first *time.Time
	if len(pts) > 0 {
		first = &pts[0].Time
	}
	return analytics.CoverageOf(since, now, false, first, recordSlack), nil
}
