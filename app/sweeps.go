package app

import (
	"context"

	"kestrel/domain"
	"kestrel/research"
)

// sweepJob runs a queued or resumed sweep (research.RunJob).
func (a *App) sweepJob(clock domain.Clock) func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
	return func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
		return research.RunJob(ctx, a.Backtests, a.Store, j, progress, clock.Now)
	}
}
