package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kestrel/domain"
	"kestrel/marketdata"
)

// backfill is GET /api/market-data/backfills/{id}: the job's state, what
// was asked and what it has done (stored after every page).
type backfill struct {
	ID          string             `json:"id"`
	Status      string             `json:"status"`
	Progress    float64            `json:"progress"` // share of the range stored, 0..1
	Error       string             `json:"error,omitempty"`
	Result      string             `json:"result,omitempty"`
	Owner       string             `json:"owner,omitempty"`
	CreatedAt   time.Time          `json:"created_at"`
	StartedAt   *time.Time         `json:"started_at,omitempty"`
	FinishedAt  *time.Time         `json:"finished_at,omitempty"`
	Symbol      string             `json:"symbol"`
	Granularity domain.Granularity `json:"granularity"`
	Start       time.Time          `json:"start"`
	End         time.Time          `json:"end"`
	Source      string             `json:"source"`  // the source its candles are stored under
	Planned     int                `json:"planned"` // candles the range spans
	// Cursor: everything of the range before it is stored (null before
	// the first page).
	Cursor   *time.Time `json:"cursor"`
	Requests int        `json:"requests"`
	Fetched  int        `json:"fetched"`
	Written  int        `json:"written"`
}

func (s *Server) backfillRoutes() {
	s.api("POST /api/market-data/backfills", operatorOnly, s.submitBackfill)
	s.api("GET /api/market-data/backfills", signedIn.withToken(tokenRead), s.listBackfills)
	s.api("GET /api/market-data/backfills/{id}", signedIn.withToken(tokenRead), s.getBackfill)
	s.api("POST /api/market-data/backfills/{id}/cancel", operatorOnly, s.cancelBackfill)
}

// backfillAsk is the body of POST /api/market-data/backfills: start and
// end as RFC 3339 times or YYYY-MM-DD dates (UTC).
type backfillAsk struct {
	Symbol      string `json:"symbol"`
	Granularity string `json:"granularity"`
	Start       string `json:"start"`
	End         string `json:"end"`
}

// submitBackfill validates the backfill and queues it as a job: 202 {id,
// status}. Operators only: it writes the candle store every user's
// backtests read, and spends the server's share of Coinbase's public rate
// limit.
func (s *Server) submitBackfill(w http.ResponseWriter, r *http.Request) {
	var a backfillAsk
	if err := decode(r, &a); err != nil {
		fail(w, r, err)
		return
	}
	fields := map[string]string{}
	start, err := parseWhen(a.Start)
	if err != nil {
		fields["start"] = "start " + err.Error()
	}
	end, err := parseWhen(a.End)
	if err != nil {
		fields["end"] = "end " + err.Error()
	}
	req := marketdata.BackfillRequest{Symbol: a.Symbol, Granularity: domain.Granularity(strings.ToUpper(strings.TrimSpace(a.Granularity))), Start: start, End: end}
	checked, err := req.Check(s.d.Market.Symbols(), s.now())
	if err != nil {
		if e, isField := err.(*domain.Error); isField {
			for k, v := range e.Fields {
				if _, set := fields[k]; !set {
					fields[k] = v
				}
			}
		}
	}
	if len(fields) > 0 {
		fail(w, r, domain.FieldErrors(fields, "symbol", "granularity", "start", "end"))
		return
	}
	if err := s.roomForWork(r.Context()); err != nil {
		fail(w, r, err)
		return
	}
	j, err := s.d.Jobs.Submit(r.Context(), marketdata.BackfillJobKind, userFrom(r.Context()).ID, checked)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "backfill job "+j.ID+" "+checked.Symbol+" "+string(checked.Granularity))
	writeJSON(w, http.StatusAccepted, envelope{Success: true, Data: map[string]string{"id": j.ID, "status": j.Status}})
}

// parseWhen reads an RFC 3339 time or a YYYY-MM-DD date (UTC).
func parseWhen(raw string) (time.Time, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return time.Time{}, nil // Check says it is required
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, domain.Errorf(domain.EInvalid, "must be an RFC 3339 time or a YYYY-MM-DD date, not %s", strconv.Quote(raw))
}

func (s *Server) now() time.Time {
	if s.d.Clock != nil {
		return s.d.Clock.Now()
	}
	return time.Now()
}

func (s *Server) backfillJob(ctx context.Context, id string) (domain.Job, error) {
	j, err := s.d.Jobs.Get(ctx, id)
	if err == nil && j.Kind != marketdata.BackfillJobKind {
		err = domain.Errorf(domain.ENotFound, "Backfill not found")
	}
	if domain.ErrorCode(err) == domain.ENotFound {
		err = domain.Errorf(domain.ENotFound, "Backfill not found")
	}
	return j, err
}

// backfillOf is a job with its stored state; progress is the share of the
// range stored (exact, where the job's own is stored at most twice a second).
func (s *Server) backfillOf(ctx context.Context, j domain.Job) (backfill, error) {
	var req marketdata.BackfillRequest
	if err := json.Unmarshal(j.Params, &req); err != nil {
		return backfill{}, err
	}
	st, err := s.d.Backfills.State(ctx, j.ID)
	if err != nil {
		return backfill{}, err
	}
	out := backfill{ID: j.ID, Status: j.Status, Progress: st.Progress(req), Error: j.Error, Result: j.ResultRef, Owner: j.Owner, CreatedAt: j.CreatedAt,
		StartedAt: j.StartedAt, FinishedAt: j.FinishedAt, Symbol: req.Symbol, Granularity: req.Granularity, Start: req.Start, End: req.End,
		Source: marketdata.BackfillSource, Planned: req.Candles(), Requests: st.Requests, Fetched: st.Fetched, Written: st.Written}
	if !st.Cursor.IsZero() {
		c := st.Cursor
		out.Cursor = &c
	}
	if j.Status == domain.JobCompleted {
		out.Progress = 1
	}
	return out, nil
}

func (s *Server) getBackfill(w http.ResponseWriter, r *http.Request) {
	j, err := s.backfillJob(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	b, err := s.backfillOf(r.Context(), j)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, b)
}

// listBackfills lists the newest 50 backfills, newest first.
func (s *Server) listBackfills(w http.ResponseWriter, r *http.Request) {
	js, err := s.d.Jobs.List(r.Context(), marketdata.BackfillJobKind, 50)
	if err != nil {
		fail(w, r, err)
		return
	}
	out := make([]backfill, 0, len(js))
	for _, j := range js {
		b, err := s.backfillOf(r.Context(), j)
		if err != nil {
			fail(w, r, err)
			return
		}
		out = append(out, b)
	}
	ok(w, out)
}

// cancelBackfill cancels a queued or running backfill; the pages already
// stored stay stored (a new backfill of the range rewrites only them).
func (s *Server) cancelBackfill(w http.ResponseWriter, r *http.Request) {
	ctx, u := r.Context(), userFrom(r.Context())
	j, err := s.backfillJob(ctx, r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	if j, err = s.cancelJob(ctx, u, j, "backfill"); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(ctx, "", "", "backfill job "+j.ID)
	b, err := s.backfillOf(ctx, j)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, b)
}
