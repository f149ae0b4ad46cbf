package robust

import (
	"math"
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

func decs(xs ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(xs))
	for i, x := range xs {
		out[i] = decimal.RequireFromString(x)
	}
	return out
}

// Shuffling the order of the trades cannot change where they end: every
// run's final equity is the capital plus the sum of the P&Ls, to the cent
// (and to the last of 8 decimals).
func TestShuffleKeepsFinalEquity(t *testing.T) {
	pnls := decs("120.12345678", "-80.5", "33.33333333", "-250", "410.00000001", "-0.00000001")
	mc := Simulate(decimal.NewFromInt(1000), pnls, Options{Method: Shuffle, Runs: 500, Seed: 7, RuinDrawdown: 0.5})
	want := 1000 + 120.12345678 - 80.5 + 33.33333333 - 250 + 410.00000001 - 0.00000001
	f := mc.FinalEquity
	if f.P5 != f.P95 || f.P5 != f.P50 || math.Abs(f.P50-want) > 1e-9 {
		t.Fatalf("shuffled final equity %+v, want %v at every percentile", f, want)
	}
	if mc.Trades != 6 || mc.Runs != 500 || mc.Seed != 7 || mc.Method != Shuffle {
		t.Fatalf("echo: %+v", mc)
	}
	// The drawdown does depend on the order: the worst order puts the
	// losses together after the peak.
	if mc.MaxDrawdown.P5 == mc.MaxDrawdown.P95 {
		t.Fatalf("every order drew the same drawdown: %+v", mc.MaxDrawdown)
	}
}

// The same seed gives the same answer; another seed another one.
func TestMonteCarloSeeded(t *testing.T) {
	pnls := decs("10", "-5", "20", "-15", "7")
	o := Options{Method: Bootstrap, Runs: 1000, Seed: 42, RuinDrawdown: 0.1}
	a, b := Simulate(decimal.NewFromInt(100), pnls, o), Simulate(decimal.NewFromInt(100), pnls, o)
	if a != b {
		t.Fatalf("same seed, different answers: %+v %+v", a, b)
	}
	o.Seed = 43
	if c := Simulate(decimal.NewFromInt(100), pnls, o); c == a {
		t.Fatalf("another seed gave the very same distribution: %+v", c)
	}
}

// Bootstrap on three trades: the 27 equally likely sequences, enumerated,
// give the exact distribution of the final equity, the drawdown and ruin;
// 200,000 seeded runs land on its percentiles (each chosen away from a
// jump of the distribution, where a sample quantile is exact) and on the
// risk of ruin within four standard errors.
func TestBootstrapAgainstEnumeration(t *testing.T) {
	capital, trades := int64(100), []int64{50, 10, -30}
	const ruin = 0.3
	var finals, dds []float64
	ruined := 0
	for a := range 3 {
		for b := range 3 {
			for c := range 3 {
				f, dd := path(capital, []int64{trades[a], trades[b], trades[c]})
				finals, dds = append(finals, float64(f)), append(dds, dd)
				if dd >= ruin {
					ruined++
				}
			}
		}
	}
	slices.Sort(finals)
	slices.Sort(dds)
	// The exact q-quantile of 27 equally likely outcomes: the smallest
	// value whose cumulative share reaches q.
	exact := func(sorted []float64, q float64) float64 { return sorted[int(math.Ceil(q*27))-1] }
	mc := Simulate(decimal.NewFromInt(capital), decs("50", "10", "-30"), Options{Method: Bootstrap, Runs: 200000, Seed: 1, RuinDrawdown: ruin})
	for _, c := range []struct {
		name     string
		got      float64
		q        float64
		outcomes []float64
	}{
		{"final p5", mc.FinalEquity.P5, 0.05, finals}, {"final p25", mc.FinalEquity.P25, 0.25, finals},
		{"final p50", mc.FinalEquity.P50, 0.5, finals}, {"final p75", mc.FinalEquity.P75, 0.75, finals},
		{"final p95", mc.FinalEquity.P95, 0.95, finals},
		{"drawdown p25", mc.MaxDrawdown.P25, 0.25, dds}, {"drawdown p50", mc.MaxDrawdown.P50, 0.5, dds},
		{"drawdown p75", mc.MaxDrawdown.P75, 0.75, dds}, {"drawdown p95", mc.MaxDrawdown.P95, 0.95, dds},
	} {
		// q must sit inside a step of the distribution, away from every
		// jump (a cumulative share k/27), where a sample quantile is exact.
		for _, x := range c.outcomes {
			atMost := 0
			for _, y := range c.outcomes {
				if y <= x {
					atMost++
				}
			}
			if math.Abs(float64(atMost)/27-c.q) < 0.01 {
				t.Fatalf("%s: q %.2f sits on a jump; choose other trades", c.name, c.q)
			}
		}
		if want := exact(c.outcomes, c.q); math.Abs(c.got-want) > 1e-9 {
			t.Errorf("%s = %v, the enumeration's %v", c.name, c.got, want)
		}
	}
	p := float64(ruined) / 27
	if se := math.Sqrt(p * (1 - p) / 200000); math.Abs(mc.RiskOfRuin-p) > 4*se {
		t.Errorf("risk of ruin %v, the enumeration's %v (%d of 27)", mc.RiskOfRuin, p, ruined)
	}
}

// A hand-checked path: 100 +30 = 130 (peak), -40 = 90 (drawdown 40/130),
// +10 = 100.
func TestPathByHand(t *testing.T) {
	f, dd := path(100, []int64{30, -40, 10})
	if f != 100 || math.Abs(dd-40.0/130) > 1e-15 {
		t.Fatalf("path = %d, %v; want 100, %v", f, dd, 40.0/130)
	}
	// Losing more than everything is a drawdown of 1, not more.
	if _, dd := path(100, []int64{-150}); dd != 1 {
		t.Fatalf("drawdown past zero = %v, want 1", dd)
	}
}

// A run without closed trades stays at its capital.
func TestMonteCarloNoTrades(t *testing.T) {
	mc := Simulate(decimal.NewFromInt(5000), nil, Options{Method: Bootstrap, Runs: 100, Seed: 3, RuinDrawdown: 0.5})
	if mc.FinalEquity.P5 != 5000 || mc.FinalEquity.P95 != 5000 || mc.MaxDrawdown.P95 != 0 || mc.RiskOfRuin != 0 {
		t.Fatalf("no trades: %+v", mc)
	}
}

func TestQuantileInterpolates(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	for q, want := range map[float64]float64{0: 1, 0.25: 2, 0.5: 3, 0.1: 1.4, 0.95: 4.8, 1: 5} {
		if got := Quantile(xs, q); math.Abs(got-want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
}
