package httpapi

import (
	"net/http"
	"strconv"
	"time"
)

// Shadow leaderboard window: ?days= (default and bounds).
const (
	defaultShadowDays = 30
	maxShadowDays     = 366
)

// shadowLeaderboard compares an AI instance's live model with its shadow
// models over the evaluations of the last ?days= days (by candle time) in
// which they were asked together, each traded on paper at the paper
// venue's taker fee, with the latest evaluations' decisions side by side.
func (s *Server) shadowLeaderboard(w http.ResponseWriter, r *http.Request) {
	days := defaultShadowDays
	if raw := r.URL.Query().Get("days"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxShadowDays {
			fail(w, r, fieldErr("days", "days must be a whole number from 1 to 366"))
			return
		}
		days = n
	}
	since := s.d.Clock.Now().Add(-time.Duration(days) * 24 * time.Hour)
	b, err := s.d.Strategies.Leaderboard(r.Context(), r.PathValue("name"), since, s.d.PaperFee)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, b)
}
