package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
)

// Backtests over HTTP: the spec's messages, a run stored and listed.
func TestBacktestAPI(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()

	cases := []struct{ body, field, msg string }{
		{`{"symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`, "strategy_name", "Please select a strategy"},
		{`{"strategy_name":"technical_strategy","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`, "symbol", "Please enter a trading symbol"},
		{`{"strategy_name":"technical_strategy","symbol":"BTC-USD","initial_capital":10000}`, "start_date", "Please select start and end dates"},
		{`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-02-01","end_date":"2026-01-01","initial_capital":10000}`, "start_date", "Start date must be before end date"},
		{`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-05","initial_capital":10000}`, "end_date", "Backtest period must be at least 7 days"},
		{`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2025-01-01","end_date":"2026-02-01","initial_capital":10000}`, "end_date", "Backtest period cannot exceed 365 days"},
		{`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":0}`, "initial_capital", "Initial capital must be greater than 0"},
	}
	for _, c := range cases {
		r := s.do("POST", "/api/backtests", tok, c.body)
		if r.Status != 400 || r.Error.Fields[c.field] != c.msg {
			t.Errorf("%s: %+v, want %s: %q", c.body, r, c.field, c.msg)
		}
	}

	r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"ETH-USD","start_date":"2026-01-01","end_date":"2026-03-01","initial_capital":10000}`)
	var rep struct {
		ID          string `json:"id"`
		Status      string `json:"status"`
		Candles     int    `json:"candles"`
		EquityCurve []any  `json:"equity_curve"`
		Assumptions struct {
			CandlesHash string `json:"candles_hash"`
		} `json:"assumptions"`
	}
	if r.Status != 202 {
		t.Fatalf("run: %+v", r)
	}
	s.into(r, &rep)
	if rep.Status != "completed" || rep.Candles != 59*24 || len(rep.EquityCurve) != rep.Candles || len(rep.Assumptions.CandlesHash) != 64 {
		t.Fatalf("report: id %s status %s candles %d curve %d", rep.ID, rep.Status, rep.Candles, len(rep.EquityCurve))
	}
	var list struct {
		Backtests []struct {
			ID string `json:"id"`
		}
	}
	s.into(s.do("GET", "/api/backtests", tok, ""), &list)
	if len(list.Backtests) != 1 || list.Backtests[0].ID != rep.ID {
		t.Fatalf("history %+v", list)
	}
	if got := s.do("GET", "/api/backtests/"+rep.ID, tok, ""); !got.Success || !strings.Contains(string(got.Data), rep.ID) {
		t.Fatalf("get: %+v", got)
	}
	// The spec's GET form with its defaults (the last three months).
	if g := s.do("GET", "/api/strategy/backtest/technical_strategy", tok, ""); !g.Success || !strings.Contains(string(g.Data), `"status":"completed"`) {
		t.Fatalf("GET backtest: %+v", g.Error)
	}
	// Re-running the same request gives the same result.
	again := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"ETH-USD","start_date":"2026-01-01","end_date":"2026-03-01","initial_capital":10000}`)
	var rep2 struct {
		FinalEquity string `json:"final_equity"`
		Assumptions struct {
			CandlesHash string `json:"candles_hash"`
		} `json:"assumptions"`
	}
	var rep1 struct {
		FinalEquity string `json:"final_equity"`
	}
	s.into(again, &rep2)
	s.into(r, &rep1)
	if rep2.FinalEquity != rep1.FinalEquity || rep2.Assumptions.CandlesHash != rep.Assumptions.CandlesHash {
		t.Fatalf("a re-run differs: %s vs %s", rep2.FinalEquity, rep1.FinalEquity)
	}
}

// Slippage is a run parameter: it costs money and shows in the assumptions.
func TestBacktestSlippage(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	run := func(bps string) (string, string) {
		r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000,"slippage_bps":`+bps+`}`)
		var rep struct {
			FinalEquity string `json:"final_equity"`
			Assumptions struct {
				SlippageBps string `json:"slippage_bps"`
			} `json:"assumptions"`
		}
		if r.Status != 202 {
			t.Fatalf("bps %s: %+v", bps, r)
		}
		s.into(r, &rep)
		return rep.FinalEquity, rep.Assumptions.SlippageBps
	}
	free, _ := run("0")
	paid, shown := run("25")
	if shown != "25" || !decimal.RequireFromString(paid).LessThan(decimal.RequireFromString(free)) {
		t.Fatalf("with 25 bps: final %s (shown %q), without: %s", paid, shown, free)
	}
	if r := s.do("POST", "/api/backtests", tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000,"slippage_bps":5000}`); r.Status != 400 || r.Error.Fields["slippage_bps"] == "" {
		t.Fatalf("5000 bps: %+v", r)
	}
	r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000,"volume_cap":0.01}`)
	if r.Status != 202 || !strings.Contains(string(r.Data), `"volume_cap":"1% of each candle's volume`) {
		t.Fatalf("volume cap: %d %s", r.Status, r.Error.Message)
	}
}

// A long run's report carries a thinned equity curve (at most
// backtest.MaxCurvePoints points, a screen's worth) and the whole curve's
// length; its metrics were computed from every point.
func TestBacktestLongCurveIsThinned(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-15","initial_capital":10000,"params":{"timeframe":"ONE_MINUTE"}}`)
	if r.Status != 202 {
		t.Fatalf("run: %+v", r)
	}
	var rep struct {
		Candles     int   `json:"candles"`
		Points      int   `json:"equity_curve_points"`
		EquityCurve []any `json:"equity_curve"`
	}
	s.into(r, &rep)
	if rep.Candles != 14*24*60 || rep.Points != rep.Candles {
		t.Fatalf("candles %d, equity_curve_points %d: want %d each", rep.Candles, rep.Points, 14*24*60)
	}
	if n := len(rep.EquityCurve); n > backtest.MaxCurvePoints || n < 2 {
		t.Fatalf("the stored curve has %d points, want at most %d", n, backtest.MaxCurvePoints)
	}
}
