package httpapi

import (
	"errors"
	"net/http"

	"kestrel/backtest"
	"kestrel/domain"
)

func (s *Server) backtestRoutes() {
	s.api("GET /api/strategy/backtest/{name}", signedIn.withToken(tokenRead), s.strategyBacktest)
	s.api("GET /api/backtests", signedIn.withToken(tokenRead), s.listBacktests)
	s.api("GET /api/backtests/{id}", signedIn.withToken(tokenRead), s.getBacktest)
	s.api("DELETE /api/backtests/{id}", signedIn.withToken(tokenWork), s.deleteBacktest)
	if s.d.Jobs != nil {
		s.api("POST /api/backtests", signedIn.withToken(tokenWork), s.submitBacktest)
		s.api("POST /api/backtests/{id}/cancel", signedIn.withToken(tokenWork), s.cancelBacktest)
	}
}

// strategyBacktest is the spec's GET form: symbol, start_date and end_date
// from the query (defaults: BTC-USD, the last three months of stored market
// data, 10,000). It runs in the request, so it never runs a live model:
// ai_mode=live answers the estimate, and only a job (POST /api/backtests) runs it.
// It is audited (it stores its report) and refused while the disk is short.
func (s *Server) strategyBacktest(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a, err := s.d.Backtests.Defaults(r.Context(), backtest.Ask{StrategyName: r.PathValue("name"), Symbol: q.Get("symbol"), StartDate: q.Get("start_date"),
		EndDate: q.Get("end_date"), AIMode: q.Get("ai_mode")})
	if err != nil {
		fail(w, r, err)
		return
	}
	if err := liveAllowed(r, a); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.roomForWork(r.Context()); err != nil {
		fail(w, r, err)
		return
	}
	// The report is stored, so GET /api/backtests/{id} finds it, but each
	// user keeps only the newest few run this way (system.quotas.requestBacktests).
	rep, err := s.d.Backtests.Start(r.Context(), a, backtest.RunOptions{Owner: userFrom(r.Context()).ID,
		Source: domain.BacktestFromRequest, Keep: max(s.quotas().RequestBacktests, 1)})
	if estimated(w, err) {
		return
	}
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "backtest "+rep.ID+" run in the request")
	ok(w, rep)
}

// estimated answers a live-model run asked without confirm_live with its
// estimate (200, nothing run or stored).
func estimated(w http.ResponseWriter, err error) bool {
	var c *backtest.ConfirmLive
	if !errors.As(err, &c) {
		return false
	}
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: c.Estimate})
	return true
}

func (s *Server) listBacktests(w http.ResponseWriter, r *http.Request) {
	limit, err := intQuery(r, "limit", 50, 1, 500)
	if err != nil {
		fail(w, r, err)
		return
	}
	runs, err := s.backtestRuns(r.Context(), limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"backtests": runs, "count": len(runs)})
}

func (s *Server) getBacktest(w http.ResponseWriter, r *http.Request) {
	b, err := s.backtestJob(r.Context(), r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, b)
}

// deleteBacktest deletes a stored report (and the job that made it): its
// owner's or, for any report, an operator's. It frees room under the
// stored-report quota (system.quotas.storedBacktests).
func (s *Server) deleteBacktest(w http.ResponseWriter, r *http.Request) {
	ctx, u := r.Context(), userFrom(r.Context())
	b, err := s.d.Store.Backtest(ctx, r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	if b.Owner != u.ID && u.Role != domain.RoleOperator {
		fail(w, r, domain.Errorf(domain.EForbidden, "Only the user who ran a backtest, or an operator, can delete it"))
		return
	}
	if err := s.d.Store.DeleteBacktest(ctx, b.ID); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(ctx, "", "", "deleted backtest "+b.ID+" ("+b.Strategy+" "+b.Symbol+")")
	ok(w, map[string]string{"id": b.ID, "status": "deleted"})
}
