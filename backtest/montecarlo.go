package backtest

import (
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/analytics/robust"
)

// MonteCarloAsk asks for the Monte Carlo of a run's closed trades
// (robust.Simulate): method bootstrap (the default) or shuffle, runs
// (robust.MinRuns to robust.MaxRuns, default robust.DefaultRuns), the seed
// (default 0: a seed like any other) and the drawdown counted as ruin (a
// fraction of the peak above 0 and at most 1, default 0.5).
type MonteCarloAsk struct {
	Method       string  `json:"method,omitempty"`
	Runs         int     `json:"runs,omitempty"`
	Seed         uint64  `json:"seed,omitempty"`
	RuinDrawdown float64 `json:"ruin_drawdown,omitempty"`
}

// options are the ask with its defaults.
func (m MonteCarloAsk) options() robust.Options {
	o := robust.Options{Method: m.Method, Runs: m.Runs, Seed: m.Seed, RuinDrawdown: m.RuinDrawdown}
	if o.Method == "" {
		o.Method = robust.Bootstrap
	}
	if o.Runs == 0 {
		o.Runs = robust.DefaultRuns
	}
	if o.RuinDrawdown == 0 {
		o.RuinDrawdown = robust.DefaultRuinDrawdown
	}
	return o
}

// check adds the ask's field errors to f.
func (m *MonteCarloAsk) check(f map[string]string) {
	if m == nil {
		return
	}
	if m.Method != "" && m.Method != robust.Bootstrap && m.Method != robust.Shuffle {
		f["monte_carlo.method"] = "Monte Carlo method must be bootstrap or shuffle"
	}
	if m.Runs != 0 && (m.Runs < robust.MinRuns || m.Runs > robust.MaxRuns) {
		f["monte_carlo.runs"] = fmt.Sprintf("Monte Carlo runs must be between %d and %d", robust.MinRuns, robust.MaxRuns)
	}
	if m.RuinDrawdown < 0 || m.RuinDrawdown > 1 {
		f["monte_carlo.ruin_drawdown"] = "Ruin drawdown must be a fraction of the equity peak above 0 and at most 1"
	}
}

// monteCarloFields are the ask's fields in the order errors name them.
var monteCarloFields = []string{"monte_carlo.method", "monte_carlo.runs", "monte_carlo.ruin_drawdown"}

// MonteCarlo is the Monte Carlo of a result's closed trades (their net
// P&Ls, from its initial equity) as m asks.
func MonteCarlo(r Result, m MonteCarloAsk) *robust.MonteCarlo {
	pnls := make([]decimal.Decimal, len(r.Trades))
	for i, t := range r.Trades {
		pnls[i] = t.PnL
	}
	mc := robust.Simulate(r.InitialEquity, pnls, m.options())
	return &mc
}
