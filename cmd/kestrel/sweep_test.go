package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// A sweep's trial with the default values is exactly kestrel backtest's
// result, and the grid's values change the trials.
func TestSweepTrialIsTheSingleBacktest(t *testing.T) {
	data := []string{"--symbol", "ETH-USD", "--from", "2025-02-01", "--to", "2025-03-15", "--granularity", "ONE_HOUR", "--json"}
	var out, errOut bytes.Buffer
	err := sweepCmd(append([]string{"--strategy", "technical", "--grid", "rsi_period=7,14", "--grid", "indicators.rsi_oversold=30,40", "--objective", "total_return"}, data...),
		strings.NewReader(""), &out, &errOut)
	if err != nil {
		t.Fatalf("sweep: %v %s", err, errOut.String())
	}
	var sw struct {
		Parameters []string `json:"parameters"`
		Trials     []struct {
			Values  map[string]float64 `json:"values"`
			Metrics map[string]any     `json:"metrics"`
			Score   *float64           `json:"score"`
		} `json:"trials"`
		Best *struct {
			Index int `json:"index"`
		} `json:"best"`
	}
	if err := json.Unmarshal(out.Bytes(), &sw); err != nil {
		t.Fatal(err)
	}
	if len(sw.Trials) != 4 || !reflect.DeepEqual(sw.Parameters, []string{"indicators.rsi_oversold", "indicators.rsi_period"}) || sw.Best == nil {
		t.Fatalf("sweep = %s", out.Bytes())
	}
	var single bytes.Buffer
	if err := backtestCmd(append([]string{"--strategy", "technical"}, data...), strings.NewReader(""), &single, &errOut); err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(single.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	delete(rep, "equity_curve")
	delete(rep, "trades")
	delete(rep, "fills")
	returns := map[any]bool{}
	for _, tr := range sw.Trials {
		returns[tr.Metrics["total_return"]] = true
		if tr.Score == nil || *tr.Score != tr.Metrics["total_return"] {
			t.Fatalf("score %v of %v", tr.Score, tr.Metrics["total_return"])
		}
		if tr.Values["indicators.rsi_period"] == 14 && tr.Values["indicators.rsi_oversold"] == 30 && !reflect.DeepEqual(tr.Metrics, rep) {
			t.Fatalf("the default trial differs from kestrel backtest:\n%v\n%v", tr.Metrics, rep)
		}
	}
	if len(returns) < 2 {
		t.Fatalf("every trial gave the same return: the grid was not applied")
	}
}

func TestSweepRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--strategy", "technical", "--objective", "sharpe"},                           // no grid
		{"--strategy", "sma-cross", "--grid", "rsi_period=7", "--objective", "sharpe"}, // not a product strategy
		{"--strategy", "technical", "--grid", "rsi_period=7", "--objective", "cagr"},   // unknown objective
		{"--strategy", "technical", "--grid", "rsi_perod=7", "--objective", "sharpe"},  // unknown key
		{"--strategy", "technical", "--grid", "rsi_period", "--objective", "sharpe"},   // no values
	} {
		var out, errOut bytes.Buffer
		if err := sweepCmd(args, strings.NewReader(""), &out, &errOut); exitCode(err) != 2 {
			t.Errorf("%v: %v (exit %d), want status 2", args, err, exitCode(err))
		}
	}
}

// BenchmarkSweep: 100 trials of the technical strategy over a year of
// hourly BTC-USD candles (docs/PERFORMANCE.md runs the 1,000-trial grid
// through the command).
func BenchmarkSweep(b *testing.B) {
	args := []string{"--strategy", "technical", "--symbol", "BTC-USD", "--from", "2025-01-01", "--to", "2025-12-31", "--granularity", "ONE_HOUR",
		"--grid", "rsi_period=7,9,11,13,14,15,17,19,21,25", "--grid", "rsi_oversold=20,22,24,26,28,30,32,34,36,38", "--objective", "sharpe", "--json"}
	for b.Loop() {
		var out, errOut bytes.Buffer
		if err := sweepCmd(args, strings.NewReader(""), &out, &errOut); err != nil {
			b.Fatal(err, errOut.String())
		}
	}
	b.ReportMetric(100*float64(b.N)/b.Elapsed().Seconds(), "trials/s")
}

// --walk-forward adds the folds (each with its in-sample and out-of-sample
// metrics and the chosen trial, the best in sample), the stitched curve,
// the stability and the deflated Sharpe ratio; bad folds exit with 2.
func TestSweepWalkForward(t *testing.T) {
	args := []string{"--strategy", "technical", "--symbol", "ETH-USD", "--from", "2025-02-01", "--to", "2025-04-30", "--granularity", "ONE_HOUR",
		"--grid", "rsi_period=7,14", "--grid", "rsi_oversold=30,40", "--objective", "total_return", "--walk-forward", "anchored:3", "--json"}
	var out, errOut bytes.Buffer
	if err := sweepCmd(args, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("sweep: %v %s", err, errOut.String())
	}
	var sw struct {
		WalkForward struct{ Mode string } `json:"walk_forward"`
		Folds       []struct {
			InSamplePeriod struct{ Start string } `json:"in_sample_period"`
			Trial          *int                   `json:"trial"`
			InSample       map[string]any         `json:"in_sample"`
			OutOfSample    map[string]any         `json:"out_of_sample"`
		} `json:"folds"`
		Stitched  []any          `json:"stitched_equity"`
		Stability map[string]any `json:"parameter_stability"`
		Deflated  *struct {
			Trials int `json:"trials"`
		} `json:"deflated_sharpe"`
		Runs        int `json:"runs"`
		RunsPlanned int `json:"runs_planned"`
	}
	if err := json.Unmarshal(out.Bytes(), &sw); err != nil {
		t.Fatal(err)
	}
	if sw.WalkForward.Mode != "anchored" || len(sw.Folds) != 3 || len(sw.Stitched) == 0 || len(sw.Stability) != 2 || sw.Deflated == nil || sw.Deflated.Trials != 4 ||
		sw.Runs != 4+3*4+3+1 || sw.Runs != sw.RunsPlanned {
		t.Fatalf("walk-forward = %s", out.Bytes())
	}
	for k, f := range sw.Folds {
		if f.Trial == nil || f.InSample["candles"] == nil || f.OutOfSample["candles"] == nil || f.OutOfSample["equity_curve"] != nil ||
			f.InSamplePeriod.Start != sw.Folds[0].InSamplePeriod.Start {
			t.Fatalf("fold %d = %+v", k, f)
		}
	}
	for _, bad := range []string{"anchored:1", "sideways:3", "rolling", "rolling:40"} {
		a := append([]string{}, args...)
		a[len(a)-2] = bad
		if err := sweepCmd(a, strings.NewReader(""), &out, &errOut); exitCode(err) != 2 {
			t.Errorf("--walk-forward %s: %v, want status 2", bad, err)
		}
	}
}

// BenchmarkSweepWalkForward: the 100 trials of BenchmarkSweep with a
// rolling walk-forward in 5 folds (606 backtests per op).
func BenchmarkSweepWalkForward(b *testing.B) {
	args := []string{"--strategy", "technical", "--symbol", "BTC-USD", "--from", "2025-01-01", "--to", "2025-12-31", "--granularity", "ONE_HOUR",
		"--grid", "rsi_period=7,9,11,13,14,15,17,19,21,25", "--grid", "rsi_oversold=20,22,24,26,28,30,32,34,36,38", "--objective", "sharpe",
		"--walk-forward", "rolling:5", "--json"}
	for b.Loop() {
		var out, errOut bytes.Buffer
		if err := sweepCmd(args, strings.NewReader(""), &out, &errOut); err != nil {
			b.Fatal(err, errOut.String())
		}
	}
	b.ReportMetric(606*float64(b.N)/b.Elapsed().Seconds(), "backtests/s")
}

// kestrel sweep prints the probability of backtest overfitting as the
// server answers it, over the candles every trial covers; --pbo-blocks
// sets S and is checked.
func TestSweepPrintsPBO(t *testing.T) {
	data := []string{"--symbol", "ETH-USD", "--from", "2025-02-01", "--to", "2025-03-15", "--granularity", "ONE_HOUR", "--json"}
	var out, errOut bytes.Buffer
	err := sweepCmd(append([]string{"--strategy", "technical", "--grid", "rsi_period=7,14,21", "--grid", "sma_long=20,40", "--pbo-blocks", "8"}, data...),
		strings.NewReader(""), &out, &errOut)
	if err != nil {
		t.Fatalf("sweep: %v %s", err, errOut.String())
	}
	var sw struct {
		PBO *struct {
			Probability  float64 `json:"probability"`
			Blocks       int     `json:"blocks"`
			Combinations int     `json:"combinations"`
			Trials       int     `json:"trials"`
			Periods      int     `json:"periods"`
		} `json:"pbo"`
		Trials []struct {
			Metrics map[string]any `json:"metrics"`
		} `json:"trials"`
	}
	if err := json.Unmarshal(out.Bytes(), &sw); err != nil {
		t.Fatal(err)
	}
	if sw.PBO == nil || sw.PBO.Blocks != 8 || sw.PBO.Combinations != 70 || sw.PBO.Trials != 6 || sw.PBO.Periods < 100 || sw.PBO.Probability < 0 || sw.PBO.Probability > 1 {
		t.Fatalf("pbo = %s", out.Bytes())
	}
	if _, has := sw.Trials[0].Metrics["pbo_returns"]; has {
		t.Fatal("a trial's printed metrics carry its blocks")
	}
	for _, bad := range []string{"7", "18"} {
		err := sweepCmd([]string{"--strategy", "technical", "--grid", "rsi_period=7,14", "--pbo-blocks", bad}, strings.NewReader(""), &out, &errOut)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "--pbo-blocks") {
			t.Fatalf("--pbo-blocks %s: %v", bad, err)
		}
	}
}
