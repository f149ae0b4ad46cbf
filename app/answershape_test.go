package app_test

import (
	"strings"
	"testing"
)

// The settings' choices and an empty alert list answer as the description
// says (s.do checks every answer against it): the options key by key, and
// no alert as an empty list, never null, which the web client relies on.
func TestOptionsAndEmptyAlertListMatchTheDescription(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	if r := s.do("GET", "/api/settings/options", tok, ""); r.Status != 200 {
		t.Fatalf("options: %+v", r)
	}
	r := s.do("GET", "/api/system/alerts?severity=low&resolved=true", tok, "")
	if r.Status != 200 || !strings.Contains(string(r.Data), `"alerts":[]`) {
		t.Fatalf("alerts: %d %s", r.Status, r.Data)
	}
}

// Every analytics tab answers as the description says over every period,
// for all symbols and for one, with holdings in two symbols, a closed round
// trip and AI decisions behind them (s.do checks every answer).
func TestAnalyticsAnswersMatchTheDescription(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	for _, order := range []string{
		`{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`,
		`{"symbol":"ETH-USD","action":"BUY","quantity":0.5}`,
		`{"symbol":"BTC-USD","action":"SELL","quantity":0.004}`,
	} {
		if r := s.do("POST", "/api/trading/execute", tok, order); r.Status != 201 {
			t.Fatalf("order %s: %+v", order, r)
		}
	}
	for range 2 {
		if r := s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, ""); r.Status != 200 {
			t.Fatalf("analyze: %+v", r)
		}
	}
	for _, tab := range []string{"trading", "portfolio", "risk", "market", "ai"} {
		for _, period := range []string{"", "1d", "7d", "30d", "90d", "1y", "all"} {
			for _, symbol := range []string{"", "ETH-USD"} {
				path := "/api/analytics/" + tab + "?period=" + period + "&symbol=" + symbol
				if r := s.do("GET", path, tok, ""); r.Status != 200 {
					t.Errorf("%s: %d %s", path, r.Status, r.Data)
				}
			}
		}
	}
}
