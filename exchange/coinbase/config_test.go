package coinbase_test

import (
	"testing"

	"kestrel/exchange/coinbase"
)

// Sandbox mode moves accounts and orders to Coinbase's sandbox host and
// leaves market data on production; an override points everything at one place.
func TestEndpoints(t *testing.T) {
	for _, tc := range []struct {
		c                        coinbase.Config
		rest, market, ws, userWS string
	}{
		{coinbase.Config{}, coinbase.ProductionURL, coinbase.ProductionURL, coinbase.MarketWSURL, coinbase.UserWSURL},
		{coinbase.Config{Sandbox: true}, coinbase.SandboxURL, coinbase.ProductionURL, coinbase.MarketWSURL, coinbase.UserWSURL},
		{coinbase.Config{Sandbox: true, APIURL: "http://127.0.0.1:9", WSURL: "ws://127.0.0.1:9/ws", UserWSURL: "ws://127.0.0.1:9/u"},
			"http://127.0.0.1:9", "http://127.0.0.1:9", "ws://127.0.0.1:9/ws", "ws://127.0.0.1:9/u"},
	} {
		if tc.c.RESTURL() != tc.rest || tc.c.MarketRESTURL() != tc.market || tc.c.MarketURL() != tc.ws || tc.c.UserURL() != tc.userWS {
			t.Errorf("%+v: %s %s %s %s", tc.c, tc.c.RESTURL(), tc.c.MarketRESTURL(), tc.c.MarketURL(), tc.c.UserURL())
		}
	}
	if _, err := coinbase.Open(coinbase.Config{KeyName: "k", Secret: "not a PEM"}); err == nil {
		t.Fatal("opened with a malformed secret")
	}
}
