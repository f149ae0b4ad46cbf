package research

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
)

// result is a run whose equity moves by steps[k] dollars at hour k.
func result(steps []int64) backtest.Result {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	eq := int64(10000_00)
	r := backtest.Result{InitialEquity: decimal.NewFromInt(10000)}
	for k, s := range steps {
		eq += s * 100
		r.EquityCurve = append(r.EquityCurve, backtest.Point{Time: t0.Add(time.Duration(k) * time.Hour), Equity: backtest.Cents(eq)})
	}
	return r
}

func stepsOf(n int, f func(k int) int64) []int64 {
	out := make([]int64, n)
	for k := range out {
		out[k] = f(k)
	}
	return out
}

// A trial keeps its returns' blocks with its stored metrics; the sweep's
// answer shows the metrics without them, and the PBO reads them.
func TestTrialMetricsKeepBlocksForPBO(t *testing.T) {
	a := Ask{PBOBlocks: 4}
	good := result(stepsOf(64, func(k int) int64 { return 10 + int64(k%3) })) // rises every hour
	poor := result(stepsOf(64, func(k int) int64 { return int64(k%3) - 2 }))  // falls most hours
	var ts []domain.SweepTrial
	for i, r := range []backtest.Result{poor, good} {
		m, err := TrialMetrics(r, a, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		var x struct {
			R pboReturns `json:"pbo_returns"`
		}
		if err := json.Unmarshal(m, &x); err != nil || x.R.Periods != 64 || len(x.R.Blocks) != 4 || x.R.Blocks[0][0] != 16 {
			t.Fatalf("stored blocks %+v (%v)", x.R, err)
		}
		ts = append(ts, domain.SweepTrial{Index: i, Metrics: m})
	}
	ranked, _ := Rank(ts, a)
	for _, tr := range ranked {
		if strings.Contains(string(tr.Metrics), pboKey) || !strings.Contains(string(tr.Metrics), "total_return") {
			t.Fatalf("shown metrics %s", tr.Metrics)
		}
	}
	p, note := PBO(ts)
	if p == nil || note != "" {
		t.Fatalf("no PBO: %s", note)
	}
	// The rising trial is the best of every half in and out of sample.
	if p.Probability != 0 || p.Blocks != 4 || p.Combinations != 6 || p.Trials != 2 || p.Periods != 64 {
		t.Fatalf("pbo %+v", p)
	}
	// From a later candle on: the returns after it only.
	m, _ := TrialMetrics(good, a, good.EquityCurve[10].Time)
	var x struct {
		R pboReturns `json:"pbo_returns"`
	}
	if err := json.Unmarshal(m, &x); err != nil || x.R.Periods != 54 {
		t.Fatalf("from the 11th point: %d periods, want 54", x.R.Periods)
	}
}

// No figure, and why: too few trials, periods or stored returns.
func TestPBOReasons(t *testing.T) {
	a := Ask{}
	one, _ := TrialMetrics(result(stepsOf(64, func(k int) int64 { return int64(k % 5) })), a, time.Time{})
	short, _ := TrialMetrics(result(stepsOf(20, func(k int) int64 { return int64(k % 5) })), a, time.Time{})
	old, _ := Metrics(result(stepsOf(64, func(k int) int64 { return 1 })))
	for _, c := range []struct {
		ts   []domain.SweepTrial
		want string
	}{
		{[]domain.SweepTrial{{Metrics: one}}, "at least 2 trials"},
		{[]domain.SweepTrial{{Metrics: short}, {Metrics: short}}, "Too few periods (20) for 16 blocks"},
		{[]domain.SweepTrial{{Metrics: one}, {Metrics: old}}, "stored without their period returns"},
		{[]domain.SweepTrial{{Metrics: one}, {Metrics: short}}, "differ in length"},
	} {
		if p, note := PBO(c.ts); p != nil || !strings.Contains(note, c.want) {
			t.Errorf("PBO = %+v, %q; want none because %q", p, note, c.want)
		}
	}
}

func TestPBOBlocksChecked(t *testing.T) {
	for _, s := range []int{3, 18, -2} {
		_, err := Check(context.Background(), nil, Ask{Objective: "sharpe", PBOBlocks: s})
		if e, ok := err.(*domain.Error); !ok || e.Fields["pbo_blocks"] == "" {
			t.Errorf("pbo_blocks %d: %v", s, err)
		}
	}
	_, err := Check(context.Background(), nil, Ask{Objective: "sharpe", Ask: backtest.Ask{MonteCarlo: &backtest.MonteCarloAsk{}}})
	if e, ok := err.(*domain.Error); !ok || e.Fields["monte_carlo"] == "" {
		t.Errorf("monte_carlo in a sweep: %v", err)
	}
}
