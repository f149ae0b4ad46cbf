package promotion

import (
	"context"
	"encoding/json"
	"slices"

	"kestrel/domain"
	"kestrel/research"
)

// SweepStore is where the walk-forward sweeps are read: their jobs and
// their trials.
type SweepStore interface {
	Jobs(ctx context.Context, kind, status string, limit int) ([]domain.Job, error)
	SweepTrials(ctx context.Context, sweepID string) ([]domain.SweepTrial, error)
}

// SweepEvidence is Deps.Evidence read from the sweeps stored as jobs of
// kind: the newest finished walk-forward sweep of a strategy run on one of
// versions, and what it showed out of sample.
func SweepEvidence(st SweepStore, kind string) func(ctx context.Context, name string, versions []int) (Evidence, bool, error) {
	return func(ctx context.Context, name string, versions []int) (Evidence, bool, error) {
		js, err := st.Jobs(ctx, kind, domain.JobCompleted, 1000)
		if err != nil {
			return Evidence{}, false, err
		}
		for _, j := range js { // newest first
			var ask research.Ask
			if json.Unmarshal(j.Params, &ask) != nil || ask.WalkForward == nil || ask.StrategyName != name || !slices.Contains(versions, ask.StrategyVersion) {
				continue
			}
			ws, f := research.Windows(ask, 0)
			if f != nil {
				continue
			}
			runs, err := st.SweepTrials(ctx, j.ID)
			if err != nil {
				return Evidence{}, false, err
			}
			names, _ := research.Size(ask)
			rep := research.Report(ask, names, ws, runs)
			return evidenceOf(j.ID, ask.StrategyVersion, rep), true, nil
		}
		return Evidence{}, false, nil
	}
}

// evidenceOf sums the folds' out-of-sample trades and averages their Sharpe ratios.
func evidenceOf(id string, version int, rep research.WalkForwardReport) Evidence {
	ev := Evidence{SweepID: id, Version: version}
	var sharpe float64
	for _, f := range rep.Folds {
		var m struct {
			TotalTrades int     `json:"total_trades"`
			SharpeRatio float64 `json:"sharpe_ratio"`
		}
		if len(f.OutOfSample) == 0 || json.Unmarshal(f.OutOfSample, &m) != nil {
			continue
		}
		ev.Folds++
		ev.Trades += m.TotalTrades
		sharpe += m.SharpeRatio
	}
	if ev.Folds > 0 {
		ev.Sharpe = sharpe / float64(ev.Folds)
	}
	return ev
}
