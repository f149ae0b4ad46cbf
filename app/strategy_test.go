package app_test

import (
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
