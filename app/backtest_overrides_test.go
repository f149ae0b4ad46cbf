package app_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// Overrides cannot rename a run or change its kind, and a key the strategy
// does not have is refused rather than silently ignored.
func TestBacktestOverridesRefused(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	ask := func(params string) string {
		return `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000,"params":` + params + `}`
	}
	cases := []struct{ params, field, want string }{
		{`{"name":"ai_strategy"}`, "params.name", "cannot change the strategy's name"},
		{`{"type":"ai"}`, "params.type", "cannot change the strategy's type"},
		{`{"min_confidnce":0.9}`, "params", "Unknown parameter for a technical strategy: min_confidnce"},
		{`{"model":"gpt-4.1"}`, "params", "Unknown parameter for a technical strategy: model"},
		{`{"indicators":{"rsi_perod":10}}`, "params", "unknown field"},
		{`[1]`, "params", "must be a JSON object"},
	}
	for _, c := range cases {
		r := s.backtest(tok, ask(c.params))
		if r.Status != 400 || !strings.Contains(r.Error.Fields[c.field], c.want) {
			t.Errorf("%s: %d %+v, want 400 with %s: %q", c.params, r.Status, r.Error, c.field, c.want)
		}
	}
	var list struct {
		Backtests []any `json:"backtests"`
	}
	s.into(s.do("GET", "/api/backtests", tok, ""), &list)
	if len(list.Backtests) != 0 {
		t.Fatalf("a refused run was stored: %+v", list)
	}
	// A known override still runs.
	if r := s.backtest(tok, ask(`{"min_confidence":0.5,"indicators":{"rsi_period":10}}`)); r.Status >= 300 {
		t.Fatalf("a valid override: %d %+v", r.Status, r.Error)
	}
}

// A stored run records the risk and protective settings it ran with.
func TestBacktestRecordsPolicy(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"automation":{"enableStopLoss":true,"enableTakeProfit":true},"riskManagement":{"stopLossPercent":0.03,"takeProfitPercent":0.07,"maxDailyTrades":12}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-10","initial_capital":10000}`)
	if r.Status >= 300 {
		t.Fatalf("run: %+v", r)
	}
	var rep struct {
		ID          string `json:"id"`
		Assumptions struct {
			Policy map[string]any `json:"policy"`
		} `json:"assumptions"`
	}
	s.into(r, &rep)
	p := rep.Assumptions.Policy
	if p["stop_loss"] != true || p["stop_loss_percent"] != "0.03" || p["take_profit"] != true || p["take_profit_percent"] != "0.07" ||
		p["max_daily_trades"] != float64(12) || p["daily_loss_limit"] != "0.05" || p["max_drawdown"] != "0.15" || p["max_leverage"] != "1" {
		t.Fatalf("policy %v", p)
	}
	if got := s.do("GET", "/api/backtests/"+rep.ID, tok, ""); !strings.Contains(string(got.Data), `"take_profit_percent":"0.07"`) {
		t.Fatalf("the stored run lost its policy: %.300s", got.Data)
	}
}

// A hybrid asks the model only when the rules vote: the report counts the
// evaluations that did not ask it.
func TestBacktestHybridAsksOnlyWhenRulesVote(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	r := s.backtest(tok, `{"strategy_name":"hybrid_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-15","initial_capital":10000}`)
	if r.Status >= 300 {
		t.Fatalf("run: %+v", r)
	}
	var rep struct {
		Candles int `json:"candles"`
		AI      struct {
			Prompts  int    `json:"prompts"`
			NotAsked int    `json:"not_asked"`
			Summary  string `json:"summary"`
		} `json:"ai"`
	}
	s.into(r, &rep)
	if rep.AI.NotAsked == 0 || rep.AI.Prompts == 0 || rep.AI.Prompts+rep.AI.NotAsked != rep.Candles-1 ||
		!strings.Contains(rep.AI.Summary, "with the rules at HOLD did not ask the model") {
		t.Fatalf("candles %d, ai %+v", rep.Candles, rep.AI)
	}
}

// Answers recorded with the v1 prompt stay replayable: a run pinned to v1
// replays them all; the current prompt (v2, which states the candle width)
// is another text with another hash, so none of them match it.
func TestBacktestV1RecordingsStayValid(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	fake := &chatFake{answers: map[string]string{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"provider":"openai","baseUrl":"`+srv.URL+`","model":"fake-model","timeout":10000}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	ask := func(mode, params, extra string) string {
		return `{"strategy_name":"ai_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-08","initial_capital":10000,"ai_mode":"` + mode + `"` + params + extra + `}`
	}
	v1 := `,"params":{"prompt_version":"v1"}`
	var live, replayV1, replayV2 aiReport
	if r := s.backtest(op, ask("live", v1, `,"confirm_live":true`)); r.Status >= 300 {
		t.Fatalf("live v1: %+v", r)
	} else {
		s.into(r, &live)
	}
	for p := range fake.answers {
		if strings.Contains(p, "-hour candles") {
			t.Fatalf("a v1 prompt states the width:\n%s", p)
		}
	}
	s.into(s.backtest(tok, ask("recorded", v1, "")), &replayV1)
	s.into(s.backtest(tok, ask("recorded", "", "")), &replayV2)
	if live.AI.Saved == 0 || replayV1.AI.Recorded != live.AI.Saved || replayV1.AI.Missing != 0 || fmt.Sprint(replayV1.Fills) != fmt.Sprint(live.Fills) {
		t.Fatalf("v1 replay: live %+v, replay %+v", live.AI, replayV1.AI)
	}
	if replayV2.AI.Recorded != 0 || replayV2.AI.Missing != replayV2.AI.Prompts {
		t.Fatalf("v2 replayed v1 answers: %+v", replayV2.AI)
	}
	if r := s.backtest(tok, ask("builtin", `,"params":{"prompt_version":"v7"}`, "")); r.Status != 400 || r.Error.Fields["prompt_version"] == "" {
		t.Fatalf("prompt version v7: %+v", r)
	}
}
