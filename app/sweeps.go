package app

import (
	"context"
	"encoding/json"
	"fmt"

	"kestrel/domain"
	"kestrel/research"
)

// sweepJob runs a queued or resumed sweep: the trials already stored are
// kept and skipped, the others run and are stored as each finishes.
func (a *App) sweepJob(clock domain.Clock) func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
	return func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
		return a.runSweep(ctx, clock, j, progress)
	}
}

func (a *App) runSweep(ctx context.Context, clock domain.Clock, j domain.Job, progress func(float64)) (string, error) {
	var ask research.Ask
	if err := json.Unmarshal(j.Params, &ask); err != nil {
		return "", fmt.Errorf("unreadable sweep parameters: %w", err)
	}
	plan, err := research.Check(ctx, a.Backtests, ask)
	if err != nil {
		return "", err
	}
	stored, err := a.Store.SweepTrials(ctx, j.ID)
	if err != nil {
		return "", err
	}
	done := make(map[int]bool, len(stored))
	for _, t := range stored {
		done[t.Index] = true
	}
	save := func(t domain.SweepTrial) error { return a.Store.SaveSweepTrial(context.WithoutCancel(ctx), t) }
	if ask.WalkForward != nil {
		err = research.RunWalkForward(ctx, a.Backtests, j.ID, ask, plan, stored, save, progress, clock.Now)
	} else {
		err = research.Run(ctx, a.Backtests, j.ID, ask, plan, done, save, progress, clock.Now)
	}
	if err != nil {
		return "", err
	}
	return j.ID, nil
}
