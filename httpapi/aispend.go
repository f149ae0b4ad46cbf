package httpapi

import (
	"net/http"
	"time"

	"kestrel/ai/spend"
)

// aiSpend is the spend view: tokens and cost of the AI decisions (Test AI
// included) per day and per strategy over ?from= to ?to= (UTC dates, both
// included; default: this month so far), and each provider's month against
// its budget. Operators only: strategies and budgets are platform-wide,
// there is no trader's own AI spend.
func (s *Server) aiSpend(w http.ResponseWriter, r *http.Request) {
	now := s.d.Spend.Now()
	from, to := spend.MonthStart(now), now.Add(time.Millisecond)
	day := func(key string) (time.Time, bool, error) {
		raw := r.URL.Query().Get(key)
		if raw == "" {
			return time.Time{}, false, nil
		}
		t, err := time.Parse("2006-01-02", raw)
		if err != nil {
			return t, false, fieldErr(key, key+" must be a date, YYYY-MM-DD")
		}
		return t, true, nil
	}
	if t, set, err := day("from"); err != nil {
		fail(w, r, err)
		return
	} else if set {
		from = t
	}
	if t, set, err := day("to"); err != nil {
		fail(w, r, err)
		return
	} else if set {
		to = t.AddDate(0, 0, 1) // the whole day
	}
	switch {
	case !from.Before(to):
		fail(w, r, fieldErr("to", "to must not be before from"))
		return
	case to.Sub(from) > 366*24*time.Hour:
		fail(w, r, fieldErr("from", "The period is at most 366 days"))
		return
	}
	rep, err := s.d.Spend.Report(r.Context(), from, to)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, rep)
}
