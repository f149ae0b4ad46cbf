package robust

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/shopspring/decimal"
)

// Monte Carlo methods.
const (
	// Bootstrap draws each run's trades from the run's closed trades with
	// replacement, as many as it closed.
	Bootstrap = "bootstrap"
	// Shuffle replays the same trades in a random order: the final equity
	// never changes, the path (and so the drawdown) does.
	Shuffle = "shuffle"
)

// Bounds and defaults of a Monte Carlo ask.
const (
	DefaultRuns         = 1000
	MinRuns             = 100
	MaxRuns             = 10000
	DefaultRuinDrawdown = 0.5
)

// Options are a Monte Carlo's method, number of runs, seed and the
// drawdown (a fraction of the equity peak) that counts as ruin.
type Options struct {
	Method       string
	Runs         int
	Seed         uint64
	RuinDrawdown float64
}

// Percentiles are the 5th, 25th, 50th, 75th and 95th percentiles of a
// distribution (linear interpolation between the sorted runs).
type Percentiles struct {
	P5  float64 `json:"p5"`
	P25 float64 `json:"p25"`
	P50 float64 `json:"p50"`
	P75 float64 `json:"p75"`
	P95 float64 `json:"p95"`
}

// MonteCarlo is the distribution of a trade sequence's final equity and
// maximum drawdown over Runs resampled sequences.
type MonteCarlo struct {
	Method string `json:"method"`
	Runs   int    `json:"runs"`
	Seed   uint64 `json:"seed"`
	// Trades is how many closed trades each run replays.
	Trades int `json:"trades"`
	// RuinDrawdown is the ruin threshold: a run whose drawdown from its
	// peak reaches it is ruined.
	RuinDrawdown float64 `json:"ruin_drawdown"`
	// FinalEquity is in the account's currency; MaxDrawdown a fraction of
	// the peak (at most 1: everything lost).
	FinalEquity Percentiles `json:"final_equity"`
	MaxDrawdown Percentiles `json:"max_drawdown"`
	// RiskOfRuin is the share of runs that touched RuinDrawdown.
	RiskOfRuin float64 `json:"risk_of_ruin"`
}

// Simulate runs o.Runs sequences of the trades' net P&Ls from capital:
// each run's equity starts at capital and adds one trade's P&L after
// another (closed trades only, marked at their exits). Sums are exact (in
// integers at 8 decimals, fewer when the figures would overflow), so a
// shuffled order gives the same final equity to the last digit.
func Simulate(capital decimal.Decimal, pnls []decimal.Decimal, o Options) MonteCarlo {
	out := MonteCarlo{Method: o.Method, Runs: o.Runs, Seed: o.Seed, Trades: len(pnls), RuinDrawdown: o.RuinDrawdown}
	if o.Runs <= 0 {
		return out
	}
	k, unit := scaleFor(capital, pnls)
	xs := make([]int64, len(pnls))
	for i, p := range pnls {
		xs[i] = p.Shift(k).Round(0).IntPart()
	}
	c := capital.Shift(k).Round(0).IntPart()
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	finals := make([]int64, o.Runs)
	dds := make([]float64, o.Runs)
	seq := make([]int64, len(xs))
	copy(seq, xs)
	ruined := 0
	for r := range o.Runs {
		if o.Method == Shuffle {
			rng.Shuffle(len(seq), func(i, j int) { seq[i], seq[j] = seq[j], seq[i] })
		} else {
			for i := range seq {
				seq[i] = xs[rng.IntN(len(xs))]
			}
		}
		finals[r], dds[r] = path(c, seq)
		if dds[r] >= o.RuinDrawdown {
			ruined++
		}
	}
	slices.Sort(finals)
	slices.Sort(dds)
	fs := make([]float64, len(finals))
	for i, f := range finals {
		fs[i] = float64(f) / unit
	}
	out.FinalEquity, out.MaxDrawdown = percentiles(fs), percentiles(dds)
	out.RiskOfRuin = float64(ruined) / float64(o.Runs)
	return out
}

// path is a sequence's final equity and maximum drawdown (a fraction of
// the running peak, the capital included, at most 1).
func path(capital int64, seq []int64) (int64, float64) {
	eq, peak, dd := capital, capital, 0.0
	for _, x := range seq {
		eq += x
		if eq > peak {
			peak = eq
		} else if peak > 0 {
			dd = max(dd, min(1, float64(peak-eq)/float64(peak)))
		}
	}
	return eq, dd
}

// scaleFor is the most decimals (8 at most) at which every equity a
// sequence can reach fits in 62 bits, and 10 to that power.
func scaleFor(capital decimal.Decimal, pnls []decimal.Decimal) (int32, float64) {
	bound := capital.Abs()
	var top decimal.Decimal
	for _, p := range pnls {
		top = decimal.Max(top, p.Abs())
	}
	bound = bound.Add(top.Mul(decimal.NewFromInt(int64(len(pnls))))).Add(decimal.NewFromInt(1))
	limit := decimal.NewFromInt(1 << 62)
	k := int32(8)
	for k > 0 && bound.Shift(k).GreaterThan(limit) {
		k--
	}
	return k, math.Pow10(int(k))
}

// percentiles of sorted values.
func percentiles(sorted []float64) Percentiles {
	return Percentiles{P5: Quantile(sorted, 0.05), P25: Quantile(sorted, 0.25), P50: Quantile(sorted, 0.5),
		P75: Quantile(sorted, 0.75), P95: Quantile(sorted, 0.95)}
}

// Quantile is the q-quantile of sorted values, interpolated linearly
// between the two nearest (position q x (n-1), as numpy's default); 0 for
// no values.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	if sorted[lo] == sorted[lo+1] {
		return sorted[lo]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
