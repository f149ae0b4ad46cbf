package app_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The strategy API as an operator and a trader meet it.
func TestStrategyAPI(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()

	var list struct {
		Strategies []struct {
			Name     string `json:"name"`
			Type     string `json:"type"`
			IsActive bool   `json:"is_active"`
		}
	}
	s.into(s.do("GET", "/api/strategy/list", tok, ""), &list)
	if len(list.Strategies) != 3 || list.Strategies[2].Name != "technical_strategy" || list.Strategies[2].Type != "technical" {
		t.Fatalf("list %+v", list)
	}

	if r := s.do("POST", "/api/strategy/technical_strategy/enable", tok, ""); r.Status != 403 {
		t.Fatalf("trader enabling a strategy: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/technical_strategy/enable", op, ""); r.Status != 200 {
		t.Fatalf("operator enabling: %+v", r)
	}
	s.into(s.do("GET", "/api/strategy/active", tok, ""), &list)
	if len(list.Strategies) != 1 || !list.Strategies[0].IsActive {
		t.Fatalf("active %+v", list)
	}

	r := s.do("PUT", "/api/strategy/config/technical_strategy", op, `{"min_confidence":2,"symbols":[],"indicators":{"sma_short":30,"sma_long":20}}`)
	if r.Status != 400 || r.Error.Fields["min_confidence"] != "Minimum confidence must be between 0 and 1" ||
		r.Error.Fields["symbols"] != "Please add at least one trading symbol" ||
		r.Error.Fields["indicators.sma_short"] != "Short SMA period must be less than long SMA period" {
		t.Fatalf("invalid config: %+v", r)
	}
	r = s.do("PUT", "/api/strategy/config/technical_strategy", op, `{"symbols":[" btc-usd ",""],"timeframe":"FIVE_MINUTE"}`)
	var c struct {
		Symbols   []string `json:"symbols"`
		Timeframe string   `json:"timeframe"`
	}
	if !r.Success {
		t.Fatalf("valid config: %+v", r)
	}
	s.into(r, &c)
	if len(c.Symbols) != 1 || c.Symbols[0] != "BTC-USD" || c.Timeframe != "FIVE_MINUTE" {
		t.Fatalf("saved config %+v", c)
	}

	if r := s.do("POST", "/api/strategy", op, `{"name":"fast_rsi","type":"technical","config":{"indicators":{"rsi_period":7,"rsi_oversold":30,"rsi_overbought":70,"sma_short":5,"sma_long":10,"macd_fast":5,"macd_slow":20,"macd_signal":5,"bollinger_period":10,"bollinger_std":2}}}`); r.Status != 201 {
		t.Fatalf("create: %+v", r)
	}
	if r := s.do("POST", "/api/strategy", op, `{"name":"fast_rsi","type":"technical"}`); r.Status != 409 {
		t.Fatalf("duplicate create: %+v", r)
	}
	if r := s.do("GET", "/api/strategy/signals/technical_strategy?limit=5", tok, ""); !r.Success || !strings.Contains(string(r.Data), `"signals"`) {
		t.Fatalf("signals: %+v", r)
	}
	var perf struct {
		Performance []struct {
			StrategyName string `json:"strategy_name"`
		}
	}
	s.into(s.do("GET", "/api/strategy/performance", tok, ""), &perf)
	if len(perf.Performance) != 4 {
		t.Fatalf("performance %+v", perf)
	}
	if r := s.do("GET", "/api/strategy/config/nope", tok, ""); r.Status != 404 {
		t.Fatalf("unknown strategy: %+v", r)
	}
}

// Test AI asks the configured provider now and records the decision; a
// provider that answers prose is recorded as failed and answers 502.
func TestTestAI(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	r := s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, "")
	var ev struct {
		Decision   string  `json:"decision"`
		Confidence float64 `json:"confidence"`
		Reasoning  string  `json:"reasoning"`
		Model      string  `json:"model"`
		Executed   bool    `json:"executed"`
	}
	if r.Status != 200 {
		t.Fatalf("builtin analysis: %+v", r)
	}
	s.into(r, &ev)
	if ev.Decision == "" || ev.Reasoning == "" || ev.Model != "Built-in analyst (offline)" || ev.Executed {
		t.Fatalf("builtin decision %+v", ev)
	}

	prose := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"I think the market looks fine today."}}],"usage":{"prompt_tokens":10,"completion_tokens":8}}`))
	}))
	defer prose.Close()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"provider":"openai","baseUrl":"`+prose.URL+`","model":"local-model","timeout":10000}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	r = s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, "")
	if r.Status != 502 || !strings.Contains(r.Error.Message, "AI analysis failed") {
		t.Fatalf("prose answer: %+v", r)
	}
	var dec struct {
		Decisions []struct {
			Error string `json:"error"`
			Raw   string `json:"raw"`
		}
	}
	s.into(s.do("GET", "/api/strategy/ai-decisions?limit=10", tok, ""), &dec)
	if len(dec.Decisions) != 2 || dec.Decisions[0].Error == "" || !strings.Contains(dec.Decisions[0].Raw, "market looks fine") {
		t.Fatalf("recorded decisions %+v", dec)
	}
}

func TestPromptPreview(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	var p struct {
		Prompt          string `json:"prompt"`
		TemplateVersion string `json:"template_version"`
		Symbol          string `json:"symbol"`
	}
	s.into(s.do("GET", "/api/strategy/prompt/ai_strategy?symbol=ETH-USD", tok, ""), &p)
	if p.TemplateVersion != "v2" || p.Symbol != "ETH-USD" || !strings.Contains(p.Prompt, "ETH-USD") || !strings.Contains(p.Prompt, "closed 1-hour candles (ONE_HOUR)") {
		t.Fatalf("preview %+v", p)
	}
	var c struct {
		Model      string `json:"model"`
		ModelLabel string `json:"model_label"`
		MaxTokens  int    `json:"max_tokens"`
	}
	s.into(s.do("GET", "/api/strategy/config/ai_strategy", tok, ""), &c)
	if c.Model != "gpt-4.1-nano" || c.ModelLabel != "Built-in analyst (offline)" || c.MaxTokens != 500 {
		t.Fatalf("AI config %+v", c)
	}
	if r := s.do("GET", "/api/strategy/prompt/technical_strategy", tok, ""); r.Status != 409 {
		t.Fatalf("technical has no prompt: %+v", r)
	}
}
