package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"kestrel/analytics/robust"
	"kestrel/domain"
	"kestrel/research"
)

// sweep is GET /api/sweeps/{id}: the job's state, what was asked, the
// trials finished so far (by index) and the best of them by the objective.
type sweep struct {
	ID         string          `json:"id"`
	Status     string          `json:"status"`
	Progress   float64         `json:"progress"`
	Error      string          `json:"error,omitempty"`
	Owner      string          `json:"owner,omitempty"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at,omitempty"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	Request    json.RawMessage `json:"request"`
	Objective  string          `json:"objective"`
	Parameters []string        `json:"parameters"`
	TrialCount int             `json:"trial_count"` // trials planned
	// Trials is one page of the finished trials, by index: ?offset= and
	// ?limit= (by default all of them, at most research.MaxTrials);
	// TrialsTotal counts them all, and Best is chosen among them all.
	Trials       []research.Trial `json:"trials"`
	TrialsTotal  int              `json:"trials_total"`
	TrialsOffset int              `json:"trials_offset"`
	Best         *research.Trial  `json:"best"` // null while no trial is eligible
	// A walk-forward sweep's options and folds, stitched curve, efficiency,
	// parameter stability and deflated Sharpe ratio.
	WalkForward *research.WalkForward `json:"walk_forward,omitempty"`
	*research.WalkForwardReport

	// StrategyVersion is the version of the configuration every trial's
	// overrides were applied to (pinned when the sweep was submitted).
	StrategyVersion int `json:"strategy_version"`

	// PBO is the probability of backtest overfitting over the sweep's
	// trials once it has finished (research.PBO); null with PBONote's
	// reason when there is no figure.
	PBO     *robust.PBO `json:"pbo"`
	PBONote string      `json:"pbo_note,omitempty"`
}

// sweepSummary is one line of GET /api/sweeps.
type sweepSummary struct {
	ID           string     `json:"id"`
	Status       string     `json:"status"`
	Progress     float64    `json:"progress"`
	Error        string     `json:"error,omitempty"`
	Owner        string     `json:"owner,omitempty"`
	CreatedAt    time.Time  `json:"created_at"`
	FinishedAt   *time.Time `json:"finished_at,omitempty"`
	StrategyName string     `json:"strategy_name"`
	Symbol       string     `json:"symbol"`
	Objective    string     `json:"objective"`
}

func (s *Server) sweepRoutes() {
	s.api("GET /api/sweeps", signedIn.withToken(tokenRead), s.listSweeps)
	s.api("POST /api/sweeps", signedIn.withToken(tokenWork), s.submitSweep)
	s.api("GET /api/sweeps/{id}", signedIn.withToken(tokenRead), s.getSweep)
	s.api("POST /api/sweeps/{id}/cancel", signedIn.withToken(tokenWork), s.cancelSweep)
}

// submitSweep validates the sweep (every trial's overrides included) and
// queues it as a job: 202 {id, status}.
func (s *Server) submitSweep(w http.ResponseWriter, r *http.Request) {
	var a research.Ask
	if err := decode(r, &a); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.roomForWork(r.Context()); err != nil {
		fail(w, r, err)
		return
	}
	var err error
	if a.Ask, err = s.d.Backtests.Defaults(r.Context(), a.Ask); err != nil {
		fail(w, r, err)
		return
	}
	if _, err := research.Check(r.Context(), s.d.Backtests, a); err != nil {
		fail(w, r, err)
		return
	}
	if a, err = research.Pinned(s.d.Backtests, a); err != nil {
		fail(w, r, err)
		return
	}
	j, err := s.d.Jobs.SubmitWithin(r.Context(), research.SweepJobKind, userFrom(r.Context()).ID, a, s.quotas().ActiveSweeps)
	if err != nil {
		fail(w, r, quotaError(err, "sweep", "sweeps"))
		return
	}
	noteAudit(r.Context(), "", "", "sweep job "+j.ID)
	writeJSON(w, http.StatusAccepted, envelope{Success: true, Data: map[string]string{"id": j.ID, "status": j.Status}})
}

func (s *Server) sweepJob(ctx context.Context, id string) (domain.Job, error) {
	j, err := s.d.Jobs.Get(ctx, id)
	if err == nil && j.Kind != research.SweepJobKind {
		err = domain.Errorf(domain.ENotFound, "Sweep not found")
	}
	if domain.ErrorCode(err) == domain.ENotFound {
		err = domain.Errorf(domain.ENotFound, "Sweep not found")
	}
	return j, err
}

func (s *Server) getSweep(w http.ResponseWriter, r *http.Request) {
	offset, err := intQuery(r, "offset", 0, 0, research.MaxTrials)
	if err != nil {
		fail(w, r, err)
		return
	}
	limit, err := intQuery(r, "limit", research.MaxTrials, 1, research.MaxTrials)
	if err != nil {
		fail(w, r, err)
		return
	}
	j, err := s.sweepJob(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	var a research.Ask
	if err := json.Unmarshal(j.Params, &a); err != nil {
		fail(w, r, err)
		return
	}
	ts, err := s.d.Store.SweepTrials(r.Context(), j.ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	// The space is expanded again from the ask (a seeded random search
	// draws the same points) for the number of trials and the names.
	names, planned := research.Size(a)
	runs := ts
	if a.WalkForward != nil {
		ts = ts[:0:0]
		for _, t := range runs {
			if t.Index < planned { // the others are its folds' runs (research.Layout)
				ts = append(ts, t)
			}
		}
	}
	trials, best := research.Rank(ts, a)
	progress := j.Progress // stored at most every half second while it runs
	if planned > 0 {
		progress = float64(len(ts)) / float64(planned) // the trials stored: exact
	}
	var wf *research.WalkForwardReport
	if a.WalkForward != nil {
		if ws, f := research.Windows(a, 0); f == nil {
			rep := research.Report(a, names, ws, runs)
			wf = &rep
			progress = float64(rep.Runs) / float64(max(rep.RunsPlanned, 1))
		}
	}
	lo := min(offset, len(trials))
	hi := min(lo+limit, len(trials))
	out := sweep{ID: j.ID, Status: j.Status, Progress: progress, Error: j.Error, Owner: j.Owner, CreatedAt: j.CreatedAt,
		StartedAt: j.StartedAt, FinishedAt: j.FinishedAt, Request: j.Params, Objective: a.Objective, Parameters: names,
		TrialCount: planned, Trials: trials[lo:hi], TrialsTotal: len(trials), TrialsOffset: lo, WalkForward: a.WalkForward, WalkForwardReport: wf}
	out.StrategyVersion = a.StrategyVersion
	out.PBONote = "Computed once the sweep has finished"
	if domain.JobDone(j.Status) {
		out.PBO, out.PBONote = research.PBOOf(j.ID, ts)
	}
	if best >= 0 {
		out.Best = &trials[best]
	}
	ok(w, out)
}

func (s *Server) listSweeps(w http.ResponseWriter, r *http.Request) {
	js, err := s.d.Jobs.List(r.Context(), research.SweepJobKind, 100)
	if err != nil {
		fail(w, r, err)
		return
	}
	out := make([]sweepSummary, 0, len(js))
	for _, j := range js {
		var a research.Ask
		_ = json.Unmarshal(j.Params, &a) // a sweep job's params are always its ask
		out = append(out, sweepSummary{ID: j.ID, Status: j.Status, Progress: j.Progress, Error: j.Error, Owner: j.Owner, CreatedAt: j.CreatedAt,
			FinishedAt: j.FinishedAt, StrategyName: a.StrategyName, Symbol: a.Symbol, Objective: a.Objective})
	}
	ok(w, out)
}

// cancelSweep cancels a queued or running sweep (its owner or an operator);
// the trials already finished stay stored and shown.
func (s *Server) cancelSweep(w http.ResponseWriter, r *http.Request) {
	ctx, u := r.Context(), userFrom(r.Context())
	j, err := s.sweepJob(ctx, r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	if j, err = s.cancelJob(ctx, u, j, "sweep"); err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"id": j.ID, "status": j.Status, "cancel_requested": j.CancelRequested, "error": j.Error})
}
