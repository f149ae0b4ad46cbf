package backtest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics/robust"
	"kestrel/domain"
	"kestrel/strategy"
	"kestrel/trading"
)

// The report's Monte Carlo replays its closed trades' net P&Ls from its
// initial equity; shuffled, every run ends where the run did (less an open
// position: none here).
func TestMonteCarloOfResult(t *testing.T) {
	r := Result{InitialEquity: decimal.NewFromInt(1000), Trades: []Trade{
		{PnL: decimal.RequireFromString("150.25")}, {PnL: decimal.RequireFromString("-320.5")}, {PnL: decimal.RequireFromString("80")}}}
	mc := MonteCarlo(r, MonteCarloAsk{Method: robust.Shuffle, Seed: 9})
	if mc.Runs != robust.DefaultRuns || mc.RuinDrawdown != robust.DefaultRuinDrawdown || mc.Trades != 3 || mc.Seed != 9 {
		t.Fatalf("defaults: %+v", mc)
	}
	if mc.FinalEquity.P5 != 909.75 || mc.FinalEquity.P95 != 909.75 {
		t.Fatalf("shuffled final equity %+v, want 909.75", mc.FinalEquity)
	}
	if b := MonteCarlo(r, MonteCarloAsk{}); b.Method != robust.Bootstrap {
		t.Fatalf("default method %q", b.Method)
	}
}

func monteCarloService(t *testing.T) (*Service, Ask) {
	from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	h := &fineCounting{from: from, to: from.AddDate(0, 3, 0)}
	tech := strategy.Default(domain.StrategyTechnical, "tech")
	tech.Timeframe, tech.Symbols = string(domain.OneHour), []string{"BTC-USD"}
	s := NewService(Deps{Strategies: strategiesOf{"tech": tech}, Market: symbolsOnly{}, History: h, Exchange: productsOnly{},
		Policy: func() trading.Policy { return trading.Policy{} }, Clock: fixedClock(h.to.Add(time.Hour))})
	return s, Ask{StrategyName: "tech", Symbol: "BTC-USD", StartDate: "2024-01-10", EndDate: "2024-02-10", InitialCapital: decimal.NewFromInt(10000)}
}

// Without monte_carlo a report and its request say nothing of it (stored
// reports stay as they were); with it the report carries the distribution.
func TestMonteCarloAskedOrNot(t *testing.T) {
	s, ask := monteCarloService(t)
	rep, err := s.Start(context.Background(), ask, RunOptions{Discard: true})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(rep)
	if strings.Contains(string(raw), "monte_carlo") {
		t.Fatalf("a report not asking for Monte Carlo has it: %s", raw)
	}
	ask.MonteCarlo = &MonteCarloAsk{Runs: 200, Seed: 5, Method: robust.Shuffle, RuinDrawdown: 0.2}
	rep, err = s.Start(context.Background(), ask, RunOptions{Discard: true})
	if err != nil {
		t.Fatal(err)
	}
	mc := rep.MonteCarlo
	if mc == nil || mc.Runs != 200 || mc.Seed != 5 || mc.Method != robust.Shuffle || mc.RuinDrawdown != 0.2 || mc.Trades != rep.TotalTrades {
		t.Fatalf("monte_carlo %+v", mc)
	}
}

func TestMonteCarloFieldErrors(t *testing.T) {
	s, ask := monteCarloService(t)
	for _, c := range []struct {
		mc    MonteCarloAsk
		field string
	}{
		{MonteCarloAsk{Method: "jackknife"}, "monte_carlo.method"},
		{MonteCarloAsk{Runs: 50}, "monte_carlo.runs"},
		{MonteCarloAsk{Runs: robust.MaxRuns + 1}, "monte_carlo.runs"},
		{MonteCarloAsk{RuinDrawdown: 1.5}, "monte_carlo.ruin_drawdown"},
		{MonteCarloAsk{RuinDrawdown: -0.1}, "monte_carlo.ruin_drawdown"},
	} {
		a := ask
		a.MonteCarlo = &c.mc
		_, err := s.Start(context.Background(), a, RunOptions{Check: true})
		e, ok := err.(*domain.Error)
		if !ok || e.Code != domain.EInvalid || e.Fields[c.field] == "" || e.Message != e.Fields[c.field] {
			t.Errorf("%+v: %v, want a field error on %s", c.mc, err, c.field)
		}
	}
}
