package app_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"kestrel/app"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// The connection test calls Coinbase (here the fake, through
// KESTREL_COINBASE_API_URL) with the entered key and reports what it said.
func TestCoinbaseConnectionTest(t *testing.T) {
	key, pemText, err := coinbase.NewTestKey("organizations/kestrel-e2e/apiKeys/settings")
	if err != nil {
		t.Fatal(err)
	}
	fake := coinbasefake.New(key.Name, key.Public())
	fake.Deposit("USD", "2500")
	fake.Deposit("BTC", "0.5")
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.CoinbaseAPIURL = srv.URL })
	op, _ := s.accounts()
	body := func(name, secret string) string {
		b, _ := json.Marshal(map[string]any{"provider": "exchange", "settings": map[string]any{"exchange": map[string]any{
			"provider": "coinbase", "apiKey": name, "apiSecret": secret, "sandbox": false, "timeout": 5000, "rateLimit": 10}}})
		return string(b)
	}
	var tc struct{ Provider, Status, Message string }
	s.into(s.do("POST", "/api/settings/test-connection", op, body(key.Name, pemText)), &tc)
	if tc.Status != "Connected" || !strings.Contains(tc.Message, "2 accounts") {
		t.Fatalf("good key: %+v", tc)
	}
	if reqs := fake.Requests(); len(reqs) != 1 || reqs[0] != "GET /accounts" {
		t.Fatalf("requests %v", reqs)
	}
	_, otherPEM, _ := coinbase.NewTestKey(key.Name)
	s.into(s.do("POST", "/api/settings/test-connection", op, body(key.Name, otherPEM)), &tc)
	if tc.Status != "Failed" || !strings.Contains(tc.Message, "refused the API key") {
		t.Fatalf("wrong key: %+v", tc)
	}
	// Saved, the masked secret stands for the stored one.
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(pemText)+`}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	s.into(s.do("POST", "/api/settings/test-connection", op, `{"provider":"exchange"}`), &tc)
	if tc.Status != "Connected" {
		t.Fatalf("saved key: %+v", tc)
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
