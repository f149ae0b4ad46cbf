package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
)

// The risk state belongs to the venue it measures: a sandbox account that
// once stood at 150,000 (its drawdown peak, read by a refused BUY) and a
// switch to a Coinbase account of 20,000: the new account's BUY is not
// refused by the sandbox's peak, and the switch is in the audit log.
func TestVenueSwitchStartsTheRiskStateAfresh(t *testing.T) {
	fake, srv, key, pemText := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, tok := s.accounts()
	ctx := context.Background()
	if err := s.app.Store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: time.Now().Add(-time.Minute), Value: decimal.NewFromInt(150_000), Cash: decimal.NewFromInt(150_000)}); err != nil {
		t.Fatal(err)
	}
	s.app.Trading.ReloadMarks()
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`); r.Success || !strings.Contains(r.Error.Message, "Maximum drawdown reached") {
		t.Fatalf("sandbox BUY 33%% below its peak: %+v, want the drawdown refusal", r)
	}

	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(pemText)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })
	for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		fake.SetPrice(sym, p)
	}
	waitUntil(t, "a Coinbase price", func() bool {
		r := s.do("GET", "/api/market-data/ticker/BTC-USD", tok, "")
		return strings.Contains(string(r.Data), `"50000"`)
	})
	r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	if !r.Success {
		t.Fatalf("Coinbase BUY after the switch: %+v, want it placed (the sandbox's peak is not this account's)", r)
	}
	var audit struct {
		Entries []struct{ Action, Detail string }
	}
	s.into(s.do("GET", "/api/audit?limit=200", op, ""), &audit)
	said := false
	for _, e := range audit.Entries {
		said = said || e.Action == "risk state started afresh" && strings.Contains(e.Detail, "Coinbase")
	}
	if !said {
		t.Fatalf("no audit entry says the risk state started afresh: %+v", audit.Entries)
	}
	// The risk screen says what the limits measure: this venue, since the switch.
	var risk struct {
		LimitsState struct {
			Venue       string           `json:"venue"`
			Since       *time.Time       `json:"since"`
			PeakValue   *decimal.Decimal `json:"peakValue"`
			TradesToday int              `json:"tradesToday"`
		} `json:"limitsState"`
	}
	s.into(s.do("GET", "/api/analytics/risk", tok, ""), &risk)
	ls := risk.LimitsState
	if !strings.HasPrefix(ls.Venue, "Coinbase") || ls.Since == nil || time.Since(*ls.Since) > time.Minute ||
		ls.PeakValue != nil && ls.PeakValue.GreaterThan(decimal.NewFromInt(30_000)) || ls.TradesToday < 1 {
		t.Fatalf("limits state after the switch: %+v (peak %v)", ls, ls.PeakValue)
	}
}
