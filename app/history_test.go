package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/ops/retention"
	"kestrel/settings"
)

type coverage struct {
	RequestedFrom *time.Time `json:"requestedFrom"`
	From          *time.Time `json:"from"`
	Complete      bool       `json:"complete"`
}

// Issue 22 item 6: the portfolio history is the account's record. A year of
// minute values survives the retention round (downsampled, not deleted after
// the metrics retention's 30 days), so the 90-day and 1-year views cover
// their periods; and every analytics answer says what its data covers, so a
// new account's 90 days are reported as covering only since it started.
func TestPortfolioHistoryLastsAndAnalyticsSayWhatTheyCover(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()

	var risk struct{ Coverage coverage }
	s.into(s.do("GET", "/api/analytics/risk?period=90d", tok, ""), &risk)
	if risk.Coverage.Complete || risk.Coverage.From == nil || time.Since(*risk.Coverage.From) > time.Hour || risk.Coverage.RequestedFrom == nil {
		t.Fatalf("a new account's 90 days: %+v, want incomplete, from its start", risk.Coverage)
	}
	for _, path := range []string{"/api/analytics/trading?period=30d", "/api/analytics/portfolio?period=7d", "/api/analytics/ai?period=30d"} {
		var v struct{ Coverage coverage }
		s.into(s.do("GET", path, tok, ""), &v)
		if v.Coverage.Complete || v.Coverage.From == nil {
			t.Errorf("%s: %+v, want incomplete", path, v.Coverage)
		}
	}
	var all struct{ Coverage coverage }
	s.into(s.do("GET", "/api/analytics/risk?period=all", tok, ""), &all)
	if !all.Coverage.Complete || all.Coverage.RequestedFrom != nil {
		t.Errorf("all: %+v, want complete (everything recorded)", all.Coverage)
	}
	var mkt struct{ Coverage coverage }
	s.into(s.do("GET", "/api/analytics/market?period=30d", tok, ""), &mkt)
	if !mkt.Coverage.Complete {
		t.Errorf("market 30d: %+v, want complete (the replay has years of candles)", mkt.Coverage)
	}

	// A year of values, every 2 hours and, in the last 3 days, every 10
	// minutes, older than the account's start here; the settings keep
	// metrics for 30 days.
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Hour)
	first := now.AddDate(-1, 0, -1)
	for at := first; at.Before(now.Add(-time.Hour)); {
		v := decimal.NewFromInt(100_000 + int64(at.Minute()))
		if err := s.app.Store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: at, Value: v, Cash: v}); err != nil {
			t.Fatal(err)
		}
		if at.Before(now.AddDate(0, 0, -3)) {
			at = at.Add(2 * time.Hour)
		} else {
			at = at.Add(10 * time.Minute)
		}
	}
	sys := settings.Defaults().System
	retention.Prune(ctx, s.app.Store, sys, now)

	pts, err := s.app.Store.PortfolioPoints(ctx, first.Add(-time.Minute), now.Add(time.Minute), 10_000_000)
	if err != nil || len(pts) == 0 || !pts[0].Time.Equal(first) {
		t.Fatalf("history after the retention round: %d points from %v (%v), want them from %s", len(pts), pts[0].Time, err, first)
	}
	perDay := map[string]int{}
	for _, p := range pts {
		perDay[p.Time.Format(time.DateOnly)]++
	}
	day := func(daysAgo int) int { return perDay[now.AddDate(0, 0, -daysAgo).Format(time.DateOnly)] }
	if n := day(200); n != 2 {
		t.Errorf("200 days ago: %d points, want the day's last and its highest (the first of its equal values)", n)
	}
	if n := day(30); n != 12 {
		t.Errorf("30 days ago: %d points, want all 12 (one an hour at most)", n)
	}
	if n := day(1); n < 100 {
		t.Errorf("yesterday: %d points, want every one (within 2 days)", n)
	}
	for _, period := range []string{"90d", "1y"} {
		var v struct{ Coverage coverage }
		s.into(s.do("GET", "/api/analytics/risk?period="+period, tok, ""), &v)
		if !v.Coverage.Complete {
			t.Errorf("%s after the retention round: %+v, want complete", period, v.Coverage)
		}
	}
}
