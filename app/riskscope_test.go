package app_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
	"kestrel/store/sqlite"
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

// A venue changed while Kestrel was stopped (the stored start is another
// venue's) starts the risk state afresh at the next start, and says so; a
// start stored by an older build (the time alone) is kept, now with its
// venue.
func TestRiskStateOfAnotherVenueStartsAfreshAtBoot(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := start(t, dir)
	old := time.Now().Add(-48 * time.Hour).UTC()
	if err := s.app.Store.PutValue(ctx, "risk.start", `{"scope":{"venue":"coinbase"},"since":"`+old.Format(time.RFC3339Nano)+`","label":"Coinbase · live Coinbase prices"}`); err != nil {
		t.Fatal(err)
	}
	s.app.Close()

	s = start(t, dir)
	raw, err := s.app.Store.GetValue(ctx, "risk.start")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Scope struct{ Venue string }
		Since time.Time
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatal(err)
	}
	if st.Scope.Venue != "paper-replay" || time.Since(st.Since) > time.Minute {
		t.Fatalf("risk start after a boot on the sandbox: %s", raw)
	}
	op, _ := s.accounts()
	var audit struct {
		Entries []struct{ Action, Detail string }
	}
	s.into(s.do("GET", "/api/audit?limit=200", op, ""), &audit)
	said := false
	for _, e := range audit.Entries {
		said = said || e.Action == "risk state started afresh" && strings.Contains(e.Detail, "changed while Kestrel was stopped")
	}
	if !said {
		t.Fatalf("no audit entry: %+v", audit.Entries)
	}
	s.app.Close()

	// An older build's start, the time alone: kept, now with its venue.
	dir = t.TempDir()
	seed, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := seed.PutValue(ctx, "portfolio.history_since", old.Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	seed.Close()
	s = start(t, dir)
	if raw, err = s.app.Store.GetValue(ctx, "risk.start"); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil || st.Scope.Venue != "paper-replay" || !st.Since.Equal(old) {
		t.Fatalf("an older build's start after a boot: %s (%v)", raw, err)
	}
}
