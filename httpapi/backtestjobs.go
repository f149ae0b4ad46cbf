package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"kestrel/backtest"
	"kestrel/domain"
)

// backtestJob is a backtest as GET /api/backtests/{id} answers it: the job's
// state and, once completed, the stored report as it always was.
type backtestJob struct {
	ID         string          `json:"id"`
	Status     string          `json:"status"`
	Progress   float64         `json:"progress"`
	Error      string          `json:"error,omitempty"`
	Owner      string          `json:"owner,omitempty"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at,omitempty"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	Request    json.RawMessage `json:"request"`
	Report     json.RawMessage `json:"report,omitempty"`
}

// backtestRun is one line of the past runs: a stored report's summary, or
// a job not (or never to be) completed.
type backtestRun struct {
	domain.BacktestRecord
	Progress float64 `json:"progress"`
	Error    string  `json:"error,omitempty"`
}

// liveAllowed refuses a live-model run to a trader: it spends the
// operator's AI budget.
func liveAllowed(r *http.Request, a backtest.Ask) error {
	if a.AIMode == backtest.AILive && userFrom(r.Context()).Role != domain.RoleOperator {
		return domain.Errorf(domain.EForbidden, "Live-model backtests spend the platform's AI budget: only operators can run them (use builtin or recorded)")
	}
	return nil
}

// submitBacktest validates the ask (a live run: its estimate, the cap on
// model calls) and queues it as a job: 202 {id, status}.
func (s *Server) submitBacktest(w http.ResponseWriter, r *http.Request) {
	var a backtest.Ask
	if err := decode(r, &a); err != nil {
		fail(w, r, err)
		return
	}
	if err := liveAllowed(r, a); err != nil {
		fail(w, r, err)
		return
	}
	owner := userFrom(r.Context()).ID
	if err := s.roomForWork(r.Context()); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.roomForReport(r.Context(), owner); err != nil {
		fail(w, r, err)
		return
	}
	_, err := s.d.Backtests.Start(r.Context(), a, backtest.RunOptions{Check: true})
	if estimated(w, err) {
		return
	}
	if err != nil {
		fail(w, r, err)
		return
	}
	j, err := s.d.Jobs.SubmitWithin(r.Context(), backtest.JobKind, owner, a, s.quotas().ActiveBacktests)
	if err != nil {
		fail(w, r, quotaError(err, "backtest", "backtests"))
		return
	}
	noteAudit(r.Context(), "", "", "backtest job "+j.ID)
	writeJSON(w, http.StatusAccepted, envelope{Success: true, Data: map[string]string{"id": j.ID, "status": j.Status}})
}

// cancelBacktest cancels a queued or running backtest (its owner or an
// operator); a finished one is a conflict.
func (s *Server) cancelBacktest(w http.ResponseWriter, r *http.Request) {
	ctx, u := r.Context(), userFrom(r.Context())
	j, err := s.d.Jobs.Get(ctx, r.PathValue("id"))
	if err == nil && j.Kind != backtest.JobKind {
		err = domain.Errorf(domain.ENotFound, "Backtest not found")
	}
	if domain.ErrorCode(err) == domain.ENotFound {
		if _, e := s.d.Backtests.Get(ctx, r.PathValue("id")); e == nil {
			err = domain.Errorf(domain.EConflict, "This backtest has already completed")
		} else {
			err = domain.Errorf(domain.ENotFound, "Backtest not found")
		}
	}
	if err != nil {
		fail(w, r, err)
		return
	}
	if j, err = s.cancelJob(ctx, u, j, "backtest"); err != nil {
		fail(w, r, err)
		return
	}
	b, err := s.asBacktestJob(ctx, j)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, b)
}

// backtestJob finds a backtest by id: its job, or a stored report run in a
// request (the spec's GET form, or before backtests were jobs).
func (s *Server) backtestJob(ctx context.Context, id string) (backtestJob, error) {
	if s.d.Jobs != nil {
		j, err := s.d.Jobs.Get(ctx, id)
		if err == nil && j.Kind == backtest.JobKind {
			return s.asBacktestJob(ctx, j)
		}
		if err != nil && domain.ErrorCode(err) != domain.ENotFound {
			return backtestJob{}, err
		}
	}
	b, err := s.d.Store.Backtest(ctx, id)
	if err != nil {
		return backtestJob{}, err
	}
	at := b.CreatedAt
	return backtestJob{ID: b.ID, Status: domain.JobCompleted, Progress: 1, CreatedAt: b.CreatedAt, FinishedAt: &at, Request: b.Request, Report: b.Result}, nil
}

func (s *Server) asBacktestJob(ctx context.Context, j domain.Job) (backtestJob, error) {
	b := backtestJob{ID: j.ID, Status: j.Status, Progress: j.Progress, Error: j.Error, Owner: j.Owner, CreatedAt: j.CreatedAt,
		StartedAt: j.StartedAt, FinishedAt: j.FinishedAt, Request: j.Params}
	if j.Status == domain.JobCompleted {
		raw, err := s.d.Backtests.Get(ctx, j.ResultRef)
		if err != nil {
			return b, err
		}
		b.Report = raw
	}
	return b, nil
}

// backtestRuns lists stored reports and the backtest jobs that have none
// (queued, running, failed, cancelled), newest first.
func (s *Server) backtestRuns(ctx context.Context, limit int) ([]backtestRun, error) {
	stored, err := s.d.Backtests.List(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := make([]backtestRun, 0, len(stored))
	for _, b := range stored {
		out = append(out, backtestRun{BacktestRecord: b, Progress: 1})
	}
	if s.d.Jobs == nil {
		return out, nil
	}
	js, err := s.d.Jobs.List(ctx, backtest.JobKind, limit)
	if err != nil {
		return nil, err
	}
	for _, j := range js {
		if j.Status == domain.JobCompleted {
			continue // listed with its report
		}
		var a backtest.Ask
		_ = json.Unmarshal(j.Params, &a) // what was asked; a job's params are always an ask
		out = append(out, backtestRun{BacktestRecord: domain.BacktestRecord{ID: j.ID, CreatedAt: j.CreatedAt, Strategy: a.StrategyName,
			Symbol: a.Symbol, Status: j.Status, Request: j.Params}, Progress: j.Progress, Error: j.Error})
	}
	sort.SliceStable(out, func(i, k int) bool { return out[i].CreatedAt.After(out[k].CreatedAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
