package app_test

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

// A backtest asked for its Monte Carlo carries it (a shuffled order ends
// every run where the trades end: the capital plus their P&Ls), one not
// asked carries none, a bad ask is a field error; a finished sweep carries
// its probability of backtest overfitting.
func TestBacktestMonteCarloAndSweepPBO(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	var plain map[string]any
	s.into(s.backtest(tok, `{`+sweepBase+`}`), &plain)
	if _, has := plain["monte_carlo"]; has {
		t.Fatal("a report not asking for Monte Carlo has it")
	}
	var rep struct {
		InitialEquity decimal.Decimal `json:"initial_equity"`
		Trades        []struct {
			PnL decimal.Decimal `json:"pnl"`
		} `json:"trades"`
		MonteCarlo *struct {
			Method      string             `json:"method"`
			Runs        int                `json:"runs"`
			Seed        uint64             `json:"seed"`
			Trades      int                `json:"trades"`
			FinalEquity map[string]float64 `json:"final_equity"`
			MaxDrawdown map[string]float64 `json:"max_drawdown"`
			RiskOfRuin  *float64           `json:"risk_of_ruin"`
		} `json:"monte_carlo"`
	}
	s.into(s.backtest(tok, `{`+sweepBase+`,"monte_carlo":{"method":"shuffle","runs":300,"seed":11}}`), &rep)
	mc := rep.MonteCarlo
	if mc == nil || mc.Method != "shuffle" || mc.Runs != 300 || mc.Seed != 11 || mc.Trades != len(rep.Trades) || mc.Trades == 0 || mc.RiskOfRuin == nil {
		t.Fatalf("monte_carlo %+v (%d trades)", mc, len(rep.Trades))
	}
	end := rep.InitialEquity
	for _, tr := range rep.Trades {
		end = end.Add(tr.PnL)
	}
	want := end.InexactFloat64()
	for _, k := range []string{"p5", "p25", "p50", "p75", "p95"} {
		if math.Abs(mc.FinalEquity[k]-want) > 1e-6 {
			t.Fatalf("shuffled final equity %s = %v, want %v", k, mc.FinalEquity[k], want)
		}
	}
	if r := s.do("POST", "/api/backtests", tok, `{`+sweepBase+`,"monte_carlo":{"runs":5}}`); r.Status != 400 || r.Error.Fields["monte_carlo.runs"] == "" {
		t.Fatalf("5 runs: %+v", r)
	}

	r := s.do("POST", "/api/sweeps", tok, `{`+sweepBase+`,"grid":{"indicators.rsi_period":[7,14,21]},"objective":"sharpe","pbo_blocks":8}`)
	if r.Status != 202 {
		t.Fatalf("submit: %+v", r)
	}
	var q struct{ ID string }
	s.into(r, &q)
	if sw := s.waitSweep(tok, q.ID); sw.Status != "completed" {
		t.Fatalf("sweep %s (%s)", sw.Status, sw.Error)
	}
	var sw struct {
		PBO *struct {
			Probability  *float64 `json:"probability"`
			Blocks       int      `json:"blocks"`
			Combinations int      `json:"combinations"`
			Trials       int      `json:"trials"`
		} `json:"pbo"`
		Note   string `json:"pbo_note"`
		Trials []struct {
			Metrics map[string]any `json:"metrics"`
		} `json:"trials"`
	}
	s.into(s.do("GET", "/api/sweeps/"+q.ID, tok, ""), &sw)
	if sw.PBO == nil || sw.PBO.Probability == nil || sw.PBO.Blocks != 8 || sw.PBO.Combinations != 70 || sw.PBO.Trials != 3 {
		t.Fatalf("pbo %+v (%s)", sw.PBO, sw.Note)
	}
	if _, has := sw.Trials[0].Metrics["pbo_returns"]; has {
		t.Fatal("a trial's answered metrics carry its blocks")
	}
}
