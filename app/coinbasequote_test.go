package app_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/app"
)

// A $500 buy made in the Coinbase app (quote-sized: its fill's size is 500
// dollars) shows in Kestrel as 0.01 BTC at 50,000: the position, its cost
// (with the fee) and its P&L as the price moves. (The realized P&L of a
// sale is checked on the adapter: TestQuoteSizedFillIsBookedInBase.)
func TestCoinbaseQuoteSizedFillInPositions(t *testing.T) {
	fake, srv, key, secret := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(secret)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		fake.SetPrice(sym, p)
	}
	if _, err := fake.PlaceQuoteOrder("BTC-USD", "BUY", "500"); err != nil {
		t.Fatal(err)
	}
	type position struct {
		Symbol        string
		Quantity      decimal.Decimal
		AvgPrice      decimal.Decimal `json:"avg_price"`
		UnrealizedPnL decimal.Decimal `json:"unrealized_pnl"`
		RealizedPnL   decimal.Decimal `json:"realized_pnl"`
	}
	var pos struct{ Positions []position }
	d := decimal.RequireFromString
	waitUntil(t, "the quote-sized buy in the positions", func() bool {
		s.into(s.do("GET", "/api/trading/positions", op, ""), &pos)
		return len(pos.Positions) == 1 && pos.Positions[0].Quantity.Equal(d("0.01"))
	})
	if p := pos.Positions[0]; !p.AvgPrice.Equal(d("50300")) { // (500 + 3 fee) / 0.01
		t.Fatalf("position %+v, want 0.01 BTC at an average cost of 50300", p)
	}
	// At 52,000 the position is worth 520 against its cost of 503.
	fake.SetPrice("BTC-USD", "52000")
	waitUntil(t, "the position valued at 52,000", func() bool {
		s.into(s.do("GET", "/api/trading/positions", op, ""), &pos)
		return len(pos.Positions) == 1 && pos.Positions[0].UnrealizedPnL.Equal(d("17"))
	})
}
