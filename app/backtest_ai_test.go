package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/ai"
	"kestrel/domain"
)

// chatFake is a local OpenAI-compatible server that decides from the prompt
// alone (the candles' return), and remembers every prompt and its answer.
type chatFake struct {
	mu      sync.Mutex
	answers map[string]string // prompt -> decision
	calls   int
}

var returnLine = regexp.MustCompile(`return (-?[0-9.]+)%`)

func (f *chatFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 {
		http.Error(w, "bad request", 400)
		return
	}
	prompt := req.Messages[1].Content
	dec := "HOLD"
	if m := returnLine.FindStringSubmatch(prompt); m != nil {
		ret, _ := strconv.ParseFloat(m[1], 64)
		switch {
		case ret > 1:
			dec = "BUY"
		case ret < -1 && !strings.Contains(prompt, "nothing held"):
			dec = "SELL"
		}
	}
	f.mu.Lock()
	f.calls++
	f.answers[prompt] = dec
	f.mu.Unlock()
	content := fmt.Sprintf(`{"decision":"%s","confidence":0.8,"reasoning":"the candles' return"}`, dec)
	b, _ := json.Marshal(map[string]any{"model": "fake-model", "choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": content}}}})
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

type aiReport struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Fills  []struct {
		Side, Time, Price, Quantity, Fee string
	} `json:"fills"`
	FinalEquity string `json:"final_equity"`
	AI          struct {
		Mode, Provider, Model, Summary string
		Prompts, Recorded, Missing     int
		Failed, Saved                  int
		ModelCalls                     int      `json:"model_calls"`
		Cost                           *float64 `json:"cost"`
		CostReported                   int      `json:"cost_reported"`
		Models                         map[string]int
		Warnings                       []string
	} `json:"ai"`
	Assumptions struct {
		AIMode          string `json:"ai_mode"`
		AIProvider      string `json:"ai_provider"`
		ReplayedAnswers string `json:"replayed_answers_hash"`
	} `json:"assumptions"`
}

// An AI strategy's backtest asks the live model only after its estimate is
// confirmed; the decisions it got, once recorded, replay the same run.
func TestBacktestAIModes(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	fake := &chatFake{answers: map[string]string{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"provider":"openai","baseUrl":"`+srv.URL+`","model":"fake-model","timeout":10000}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	ask := func(mode, extra string) string {
		return `{"strategy_name":"ai_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-15","initial_capital":10000,"ai_mode":"` + mode + `"` + extra + `}`
	}

	// Live without confirm_live: the estimate, no model call, nothing stored.
	r := s.do("POST", "/api/backtests", op, ask("live", ""))
	var est struct {
		Status         string   `json:"status"`
		ModelCalls     int      `json:"model_calls"`
		MaxModelCalls  int      `json:"max_model_calls"`
		Provider       string   `json:"provider"`
		Model          string   `json:"model"`
		TrainingCutoff string   `json:"training_cutoff"`
		Warnings       []string `json:"warnings"`
	}
	if r.Status != 200 {
		t.Fatalf("estimate: %+v", r)
	}
	s.into(r, &est)
	// 14 days of hourly candles (the AI strategy's timeframe), less the last one (nothing follows it to act on).
	if est.Status != "confirmation_required" || est.ModelCalls != 14*24-1 || est.MaxModelCalls != 2*est.ModelCalls || est.Provider != "openai" ||
		est.Model != "fake-model" || est.TrainingCutoff != "" || len(est.Warnings) != 1 || !strings.Contains(est.Warnings[0], "unknown") {
		t.Fatalf("estimate %+v", est)
	}
	if fake.calls != 0 {
		t.Fatalf("the estimate called the model %d times", fake.calls)
	}
	// The spec's GET form answers a live run with the estimate too; only POST confirms.
	if r := s.do("GET", "/api/strategy/backtest/ai_strategy?symbol=BTC-USD&start_date=2026-01-01&end_date=2026-01-15&ai_mode=live", op, ""); r.Status != 200 ||
		!strings.Contains(string(r.Data), `"status":"confirmation_required"`) || fake.calls != 0 {
		t.Fatalf("GET live: %+v", r)
	}
	var list struct{ Count int }
	if s.into(s.do("GET", "/api/backtests", tok, ""), &list); list.Count != 0 {
		t.Fatalf("an estimate was stored: %+v", list)
	}

	// Confirmed: one call per evaluation.
	r = s.backtest(op, ask("live", `,"confirm_live":true`))
	if r.Status != 202 {
		t.Fatalf("live run: %+v", r)
	}
	var live aiReport
	s.into(r, &live)
	if live.Status != "completed" || live.AI.Mode != "live" || live.AI.Prompts != est.ModelCalls || fake.calls != est.ModelCalls ||
		live.AI.Failed != 0 || live.Assumptions.AIMode != "live" || live.Assumptions.AIProvider != "fake-model" || len(live.AI.Warnings) != 1 {
		t.Fatalf("live run: ai %+v, assumptions %+v, %d calls", live.AI, live.Assumptions, fake.calls)
	}
	if len(live.Fills) == 0 {
		t.Fatal("the fake model's BUYs made no fill: the test proves nothing")
	}

	if live.AI.Saved != est.ModelCalls || !strings.Contains(live.AI.Summary, "answers recorded") {
		t.Fatalf("the live run's answers were not recorded: %+v", live.AI)
	}

	// Recorded: the live run's answers replay the same run, with no model call.
	calls := fake.calls
	r = s.backtest(tok, ask("recorded", ""))
	var rec aiReport
	s.into(r, &rec)
	if r.Status != 202 || rec.AI.Missing != 0 || rec.AI.Recorded != est.ModelCalls || rec.AI.Models["openai/fake-model"] != est.ModelCalls ||
		!strings.HasPrefix(rec.AI.Summary, fmt.Sprintf("0 of %d prompts had no recorded decision", est.ModelCalls)) || fake.calls != calls {
		t.Fatalf("recorded: %+v (model calls %d -> %d)", rec.AI, calls, fake.calls)
	}
	if fmt.Sprint(rec.Fills) != fmt.Sprint(live.Fills) || rec.FinalEquity != live.FinalEquity {
		t.Fatalf("the replay differs from the live run:\nlive %v %s\nreplay %v %s", live.Fills, live.FinalEquity, rec.Fills, rec.FinalEquity)
	}

	// The replayed answers are pinned: the same answers, the same hash; a live run has none.
	var again aiReport
	s.into(s.backtest(tok, ask("recorded", "")), &again)
	if len(rec.Assumptions.ReplayedAnswers) != 64 || again.Assumptions.ReplayedAnswers != rec.Assumptions.ReplayedAnswers || live.Assumptions.ReplayedAnswers != "" {
		t.Fatalf("replayed answers hash %q, again %q, live %q", rec.Assumptions.ReplayedAnswers, again.Assumptions.ReplayedAnswers, live.Assumptions.ReplayedAnswers)
	}

	// Another symbol was never asked: every prompt is missing, a HOLD, so nothing trades.
	r = s.backtest(tok, strings.Replace(ask("recorded", ""), "BTC-USD", "ETH-USD", 1))
	var none aiReport
	s.into(r, &none)
	if r.Status != 202 || none.AI.Missing != none.AI.Prompts || none.AI.Prompts == 0 || len(none.Fills) != 0 ||
		!strings.HasPrefix(none.AI.Summary, fmt.Sprintf("%d of %d prompts had no recorded decision", none.AI.Prompts, none.AI.Prompts)) ||
		none.Assumptions.ReplayedAnswers == rec.Assumptions.ReplayedAnswers {
		t.Fatalf("recorded with no recordings: %+v", none.AI)
	}

	// Decisions recorded by an AI-driven instance's evaluations count too; the newest answer wins.
	ctx := context.Background()
	i := 0
	for prompt, dec := range fake.answers {
		i++
		e := domain.Evaluation{ID: fmt.Sprintf("rec-%d", i), Time: time.Now().Add(time.Minute), Strategy: "ai_strategy", Symbol: "BTC-USD", CandleTime: time.Now(),
			Decision: dec, Confidence: 0.8, Reasoning: "recorded", Provider: "openai", Model: "evaluated-model", Prompt: prompt, PromptHash: ai.HashPrompt(prompt)}
		if err := s.app.Store.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	r = s.backtest(tok, ask("recorded", ""))
	var evals aiReport
	s.into(r, &evals)
	if r.Status != 202 || evals.AI.Models["openai/evaluated-model"] != est.ModelCalls || fmt.Sprint(evals.Fills) != fmt.Sprint(live.Fills) {
		t.Fatalf("recorded from evaluations: %+v", evals.AI)
	}

	// The default is the built-in analyst, as before.
	r = s.backtest(tok, ask("", ""))
	var builtin aiReport
	s.into(r, &builtin)
	if r.Status != 202 || builtin.AI.Mode != "builtin" || builtin.AI.Prompts != est.ModelCalls || builtin.Assumptions.AIProvider != ai.BuiltinLabel || fake.calls != calls {
		t.Fatalf("builtin: %+v", builtin.AI)
	}

	// A model with a known cutoff after this data warns; mistakes are field errors.
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"model":"gpt-4.1-nano"}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	s.into(s.do("POST", "/api/backtests", op, ask("live", "")), &est)
	if est.TrainingCutoff != "2024-06-01" || len(est.Warnings) != 0 {
		t.Fatalf("gpt-4.1-nano on 2026 data: %+v", est)
	}
	early := `{"strategy_name":"ai_strategy","symbol":"BTC-USD","start_date":"2024-05-01","end_date":"2024-05-15","initial_capital":10000,"ai_mode":"live"}`
	est.Warnings = nil
	s.into(s.do("POST", "/api/backtests", op, early), &est)
	if len(est.Warnings) != 1 || !strings.Contains(est.Warnings[0], "from 2024-05-01 on, before gpt-4.1-nano's training cutoff (2024-06-01)") {
		t.Fatalf("gpt-4.1-nano on May 2024 data: %+v", est)
	}
	for body, field := range map[string]string{
		ask("psychic", ""): "ai_mode",
		`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-15","initial_capital":10000,"ai_mode":"live"}`: "ai_mode",
	} {
		if r := s.do("POST", "/api/backtests", op, body); r.Status != 400 || r.Error.Fields[field] == "" {
			t.Errorf("%s: %+v", body, r)
		}
	}
}
