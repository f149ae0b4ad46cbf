package research

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"kestrel/domain"
)

// Trials is where a sweep's trials are kept.
type Trials interface {
	SweepTrials(ctx context.Context, sweepID string) ([]domain.SweepTrial, error)
	SaveSweepTrial(ctx context.Context, t domain.SweepTrial) error
}

// RunJob runs a queued or resumed sweep job: the trials already stored are
// kept and skipped, the others run and are stored as each finishes. It
// answers the job's result, its id.
func RunJob(ctx context.Context, bt Backtests, st Trials, j domain.Job, progress func(float64), now func() time.Time) (string, error) {
	var ask Ask
	if err := json.Unmarshal(j.Params, &ask); err != nil {
		return "", fmt.Errorf("unreadable sweep parameters: %w", err)
	}
	plan, err := Check(ctx, bt, ask)
	if err != nil {
		return "", err
	}
	stored, err := st.SweepTrials(ctx, j.ID)
	if err != nil {
		return "", err
	}
	done := make(map[int]bool, len(stored))
	for _, t := range stored {
		done[t.Index] = true
	}
	save := func(t domain.SweepTrial) error { return st.SaveSweepTrial(context.WithoutCancel(ctx), t) }
	if ask.WalkForward != nil {
		err = RunWalkForward(ctx, bt, j.ID, ask, plan, stored, save, progress, now)
	} else {
		err = Run(ctx, bt, j.ID, ask, plan, done, save, progress, now)
	}
	if err != nil {
		return "", err
	}
	return j.ID, nil
}
