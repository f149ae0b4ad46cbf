package promotion_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/promotion"
	"kestrel/settings"
	"kestrel/store/sqlite"
	"kestrel/strategy"
)

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type versions struct{ parent int }

func (v versions) VersionOf(_ context.Context, name string, n int) (strategy.Version, error) {
	if n > 3 {
		return strategy.Version{}, domain.Errorf(domain.ENotFound, "no version")
	}
	return strategy.Version{StrategyVersion: domain.StrategyVersion{Strategy: name, Version: n, Parent: v.parent}}, nil
}
func (versions) Activate(context.Context, string, int) (strategy.Config, error) {
	return strategy.Config{}, nil
}
func (versions) SetEnabled(context.Context, string, bool) (strategy.Config, error) {
	return strategy.Config{}, nil
}

type runner struct {
	started, stopped []string
	fail             error
}

func (r *runner) Start(_ context.Context, p domain.Promotion) error {
	r.started = append(r.started, p.ID)
	return r.fail
}
func (r *runner) Stop(_ context.Context, p domain.Promotion) error {
	r.stopped = append(r.stopped, p.ID)
	return nil
}
func (r *runner) ClosePositions(context.Context, domain.Promotion) ([]domain.Order, error) {
	return nil, nil
}

func setup(t *testing.T, ev *promotion.Evidence) (*promotion.Service, *runner, *sqlite.Store, *[]int) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &runner{}
	asked := &[]int{}
	cfg := settings.Defaults().Trading.Promotion
	svc := promotion.New(promotion.Deps{Store: st, Strategies: versions{parent: 1}, Runner: r, Clock: &clock{time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)},
		Settings: func() settings.Promotion { return cfg },
		Evidence: func(_ context.Context, _ string, vs []int) (promotion.Evidence, bool, error) {
			*asked = vs
			if ev == nil {
				return promotion.Evidence{}, false, nil
			}
			return *ev, true, nil
		}})
	return svc, r, st, asked
}

// The paper gates read the walk-forward sweep of the version or of its
// parent; each refused gate carries the figure seen.
func TestPaperGates(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		ev         *promotion.Evidence
		wantPassed []bool
	}{
		{"no sweep", nil, []bool{false, false}},
		{"too few trades", &promotion.Evidence{SweepID: "s1", Version: 1, Folds: 4, Trades: 29, Sharpe: 0.9}, []bool{false, true}},
		{"Sharpe too low", &promotion.Evidence{SweepID: "s1", Version: 2, Folds: 4, Trades: 30, Sharpe: 0.49}, []bool{true, false}},
		{"passes", &promotion.Evidence{SweepID: "s1", Version: 2, Folds: 4, Trades: 30, Sharpe: 0.5}, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, r, st, asked := setup(t, tc.ev)
			p, err := svc.ToPaper(ctx, "rsi", 2, "op@example.com")
			if len(*asked) != 2 || (*asked)[0] != 2 || (*asked)[1] != 1 {
				t.Errorf("evidence asked for versions %v, want [2 1] (the version and its parent)", *asked)
			}
			var ge *promotion.GateError
			if tc.wantPassed[0] && tc.wantPassed[1] {
				if err != nil || p.Account != "promotion-"+p.ID || !p.StartingUSD.Equal(decimal.NewFromInt(10_000)) || len(r.started) != 1 {
					t.Fatalf("ToPaper = %+v, %v; started %v", p, err, r.started)
				}
				return
			}
			if !errors.As(err, &ge) || len(ge.Gates) != 2 {
				t.Fatalf("ToPaper error %v, want a gate error", err)
			}
			for i, g := range ge.Gates {
				if g.Passed != tc.wantPassed[i] || (tc.ev == nil) != (g.Seen == nil) {
					t.Errorf("gate %s: passed %v seen %v, want passed %v", g.Name, g.Passed, g.Seen, tc.wantPassed[i])
				}
			}
			if tc.ev != nil && *ge.Gates[0].Seen != float64(tc.ev.Trades) {
				t.Errorf("trades seen %v, want %d", *ge.Gates[0].Seen, tc.ev.Trades)
			}
			if ps, _ := st.Promotions(ctx, "", false); len(ps) != 0 || len(r.started) != 0 {
				t.Errorf("a refused promotion left stages %+v, started %v", ps, r.started)
			}
		})
	}
}

// A stage that cannot start is never left saying it runs.
func TestPaperStageThatCannotStartIsClosed(t *testing.T) {
	ctx := context.Background()
	svc, r, st, _ := setup(t, &promotion.Evidence{Folds: 1, Trades: 100, Sharpe: 2})
	r.fail = errors.New("no market")
	if _, err := svc.ToPaper(ctx, "rsi", 2, "op@example.com"); err == nil {
		t.Fatal("ToPaper succeeded with a runner that cannot start")
	}
	ps, err := st.Promotions(ctx, "rsi", false)
	if err != nil || len(ps) != 1 || ps[0].Status != domain.PromotionDemoted || ps[0].Reason != "The paper stage could not start: no market" {
		t.Fatalf("stages %+v, %v", ps, err)
	}
	if _, err := svc.ToPaper(ctx, "rsi", 9, "op@example.com"); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("unknown version: %v", err)
	}
}
