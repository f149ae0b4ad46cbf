package retention_test

import (
	"context"
	"testing"
	"time"

	"kestrel/ops/retention"
	"kestrel/settings"
)

// store records the cutoff of each prune.
type store struct{ cut map[string]time.Time }

func (s *store) PruneLogs(_ context.Context, before time.Time) (int64, error) {
	s.cut["logs"] = before
	return 0, nil
}
func (s *store) PruneAlerts(_ context.Context, before time.Time) (int64, error) {
	s.cut["alerts"] = before
	return 0, nil
}
func (s *store) PruneBacktests(_ context.Context, before time.Time) (int64, error) {
	s.cut["backtests"] = before
	return 0, nil
}
func (s *store) PruneJobs(_ context.Context, kind string, before time.Time) (int64, error) {
	s.cut["jobs/"+kind] = before
	return 0, nil
}
func (s *store) PruneDeliveries(_ context.Context, before time.Time) (int64, error) {
	s.cut["deliveries"] = before
	return 0, nil
}
func (s *store) PruneAudit(_ context.Context, before time.Time) (int64, error) {
	s.cut["audit"] = before
	return 0, nil
}
func (s *store) PruneEvaluations(_ context.Context, before time.Time) (int64, error) {
	s.cut["evaluations"] = before
	return 0, nil
}
func (s *store) ThinPortfolioPoints(_ context.Context, before time.Time, bucket time.Duration) (int64, error) {
	s.cut["portfolio/"+bucket.String()] = before
	return 0, nil
}

func TestPruneCutoffs(t *testing.T) {
	now := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		logDays int
		want    map[string]string
	}{
		// The portfolio history is never cut by a retention: it is thinned to
		// hours after 2 days and to days after 90.
		{"logs and alerts", 30, map[string]string{"logs": "2026-04-04", "alerts": "2026-04-04", "portfolio/1h0m0s": "2026-05-02", "portfolio/24h0m0s": "2026-02-03"}},
		{"zero keeps every log", 0, map[string]string{"portfolio/1h0m0s": "2026-05-02", "portfolio/24h0m0s": "2026-02-03"}},
		{"a week of logs", 7, map[string]string{"logs": "2026-04-27", "alerts": "2026-04-27", "portfolio/1h0m0s": "2026-05-02", "portfolio/24h0m0s": "2026-02-03"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &store{cut: map[string]time.Time{}}
			var sys settings.System
			sys.Logging.LogRetention = tc.logDays
			retention.Prune(context.Background(), s, sys, now)
			if len(s.cut) != len(tc.want) {
				t.Fatalf("pruned %v, want %v", s.cut, tc.want)
			}
			for what, day := range tc.want {
				if got := s.cut[what].Format(time.DateOnly); got != day {
					t.Errorf("%s cut at %s, want %s", what, got, day)
				}
			}
		})
	}
}

// Each system.retention setting cuts its own records at its age; 0 keeps
// them, and the defaults prune every one.
func TestPruneGrowthRetentions(t *testing.T) {
	now := time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)
	s := &store{cut: map[string]time.Time{}}
	sys := settings.Defaults().System
	sys.Logging.LogRetention = 0
	sys.Retention.Jobs = 0 // kept for ever
	retention.Prune(context.Background(), s, sys, now)
	want := map[string]string{"backtests": "2026-02-03", "jobs/sweep": "2026-02-03", "deliveries": "2026-04-04",
		"evaluations": "2025-05-04", "audit": "2025-05-04"}
	for what, day := range want {
		got, ok := s.cut[what]
		if !ok || got.Format(time.DateOnly) != day {
			t.Errorf("%s cut at %v (%v), want %s", what, got, ok, day)
		}
	}
	if _, ok := s.cut["jobs/backfill"]; ok {
		t.Errorf("backfill jobs pruned with a retention of 0")
	}
}
