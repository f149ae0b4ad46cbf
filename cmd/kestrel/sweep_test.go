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
