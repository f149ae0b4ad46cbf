package app

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/events"
	"kestrel/jobs"
	"kestrel/marketdata"
	"kestrel/notify"
	"kestrel/research"
)

// openJobs builds the runner of long work and its handlers. It runs in the
// one process, or on the cluster's leader only (runCluster's lead); every
// instance submits and cancels through the store.
func (a *App) openJobs(clock domain.Clock) {
	// Half the cores, at least one and at most four: a backtest keeps one
	// busy, and the API and the engine need the rest.
	workers := min(max(runtime.NumCPU()/2, 1), 4)
	a.Jobs = jobs.New(a.Store, jobs.Options{Workers: workers, Clock: clock,
		Publish:     func(j domain.Job) { a.Bus.Publish(events.TopicJob, j, clock.Now()) },
		NotifyEvent: notify.CommittedJob}) // a job's "finished" notification is committed with its end
	a.Jobs.Handle(backtest.JobKind, a.backtestJob)
	a.Jobs.HandleResumable(research.SweepJobKind, a.sweepJob(clock))
	// A backfill stores its cursor after every page: a restart carries on.
	a.Jobs.HandleResumable(marketdata.BackfillJobKind, a.backfillJob)
}

// backfillJob fetches a backfill's candles from Coinbase's public candles
// (KESTREL_COINBASE_API_URL or Coinbase's host, no key) into the store.
func (a *App) backfillJob(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
	var req marketdata.BackfillRequest
	if err := json.Unmarshal(j.Params, &req); err != nil {
		return "", fmt.Errorf("unreadable backfill parameters: %w", err)
	}
	st, err := a.Backfills.Run(ctx, j.ID, req, progress)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d candles fetched in %d requests, %d stored", st.Fetched, st.Requests, st.Written), nil
}

// backtestJob runs a queued backtest; its report is stored under the job's id.
func (a *App) backtestJob(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
	var ask backtest.Ask
	if err := json.Unmarshal(j.Params, &ask); err != nil {
		return "", fmt.Errorf("unreadable backtest parameters: %w", err)
	}
	rep, err := a.Backtests.Start(ctx, ask, backtest.RunOptions{ID: j.ID, Progress: progress, Owner: j.Owner, Source: domain.BacktestFromJob})
	if err != nil {
		return "", err
	}
	return rep.ID, nil
}
