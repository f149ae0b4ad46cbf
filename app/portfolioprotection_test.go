package app_test

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

// The portfolio's positions carry the same protection as the positions
// list: always an array (the description says required), empty for a
// position nothing protects, never null.
func TestPortfolioPositionsListTheirProtection(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"automation":{"enableStopLoss":false,"enableTakeProfit":false}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":"0.002"}`); r.Status != 201 {
		t.Fatalf("buy: %+v", r)
	}
	type levels struct {
		Positions []struct {
			Symbol     string
			Protection json.RawMessage
		}
	}
	protection := func(path string) string {
		t.Helper()
		var l levels
		s.into(s.do("GET", path, tok, ""), &l)
		if len(l.Positions) != 1 {
			t.Fatalf("%s positions: %+v", path, l.Positions)
		}
		return string(l.Positions[0].Protection)
	}
	if got := protection("/api/trading/portfolio"); got != "[]" {
		t.Fatalf("an unprotected position's protection in the portfolio: %s, want []", got)
	}
	var tk struct{ Price decimal.Decimal }
	s.into(s.do("GET", "/api/market-data/ticker/BTC-USD", tok, ""), &tk)
	stop := tk.Price.Mul(decimal.RequireFromString("0.8")).Round(2).String()
	orderID(t, s, s.do("POST", "/api/trading/orders/stop-loss", tok, `{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","stop_price":"`+stop+`"}`))
	pf, ps := protection("/api/trading/portfolio"), protection("/api/trading/positions")
	if pf == "[]" || pf != ps {
		t.Fatalf("portfolio protection %s, positions protection %s: want the same stop", pf, ps)
	}
}
