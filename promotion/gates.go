package promotion

import (
	"context"
	"fmt"

	"kestrel/domain"
	"kestrel/settings"
	"kestrel/strategy"
)

// Settings of the gates, as the refusals name them.
const (
	settingWalkForward = "trading.promotion.paper.requireWalkForward"
	settingOOSTrades   = "trading.promotion.paper.minOOSTrades"
	settingOOSSharpe   = "trading.promotion.paper.minOOSSharpe"
	settingPaperDays   = "trading.promotion.live.minPaperDays"
	settingPaperTrades = "trading.promotion.live.minPaperTrades"
)

func gate(name, setting string, required float64, seen *float64, pass bool, detail string) domain.Gate {
	return domain.Gate{Name: name, Setting: setting, Required: required, Seen: seen, Passed: pass, Detail: detail}
}

// paperGates checks a version against the newest finished walk-forward
// sweep run on it or on the version it was derived from.
func (s *Service) paperGates(ctx context.Context, name string, v strategy.Version, g settings.PaperGates) ([]domain.Gate, error) {
	if !g.RequireWalkForward {
		return []domain.Gate{gate("Walk-forward sweep", settingWalkForward, 0, nil, true, "Not required by the settings")}, nil
	}
	versions := []int{v.Version}
	if v.Parent > 0 {
		versions = append(versions, v.Parent)
	}
	ev, ok, err := s.d.Evidence(ctx, name, versions)
	if err != nil {
		return nil, err
	}
	if !ok {
		missing := fmt.Sprintf("No finished walk-forward sweep of %s version %d", name, v.Version)
		if v.Parent > 0 {
			missing += fmt.Sprintf(" or of version %d it was derived from", v.Parent)
		}
		return []domain.Gate{
			gate("Out-of-sample trades", settingOOSTrades, float64(g.MinOOSTrades), nil, false, missing),
			gate("Out-of-sample Sharpe ratio", settingOOSSharpe, g.MinOOSSharpe, nil, false, missing),
		}, nil
	}
	trades, sharpe := float64(ev.Trades), ev.Sharpe
	from := fmt.Sprintf("sweep %s of version %d, %d folds out of sample", ev.SweepID, ev.Version, ev.Folds)
	return []domain.Gate{
		gate("Out-of-sample trades", settingOOSTrades, float64(g.MinOOSTrades), &trades, ev.Trades >= g.MinOOSTrades,
			fmt.Sprintf("%d out-of-sample trades (at least %d required; %s)", ev.Trades, g.MinOOSTrades, from)),
		gate("Out-of-sample Sharpe ratio", settingOOSSharpe, g.MinOOSSharpe, &sharpe, ev.Folds > 0 && ev.Sharpe >= g.MinOOSSharpe,
			fmt.Sprintf("mean out-of-sample Sharpe ratio %.4f (at least %.4f required; %s)", ev.Sharpe, g.MinOOSSharpe, from)),
	}, nil
}

// liveGates checks a running paper stage: days on paper and the orders its
// paper account filled.
func (s *Service) liveGates(ctx context.Context, p domain.Promotion, g settings.LiveGates) ([]domain.Gate, error) {
	d := days(p.StartedAt, s.d.Clock.Now())
	n, err := filledOrders(ctx, s.d.Store.LedgerFor(p.Account))
	if err != nil {
		return nil, err
	}
	trades := float64(n)
	return []domain.Gate{
		gate("Days on paper", settingPaperDays, float64(g.MinPaperDays), &d, d >= float64(g.MinPaperDays),
			fmt.Sprintf("%.0f whole days on paper (at least %d required)", d, g.MinPaperDays)),
		gate("Trades on paper", settingPaperTrades, float64(g.MinPaperTrades), &trades, n >= g.MinPaperTrades,
			fmt.Sprintf("%d orders filled in its paper account (at least %d required)", n, g.MinPaperTrades)),
	}, nil
}

// filledOrders counts the orders with at least one fill in a ledger.
func filledOrders(ctx context.Context, l domain.LedgerStore) (int, error) {
	seen := map[string]bool{}
	for off := 0; ; off += 1000 {
		fs, err := l.LedgerFills(ctx, domain.FillFilter{Limit: 1000, Offset: off})
		if err != nil {
			return 0, err
		}
		for _, f := range fs {
			seen[f.OrderID] = true
		}
		if len(fs) < 1000 {
			return len(seen), nil
		}
	}
}
