package app

import (
	"testing"
	"time"

	"kestrel/exchange/coinbase"
	"kestrel/settings"
)

// The exchange settings reach the Coinbase adapter's configuration: the
// timeout (ms), the rate limit and the sandbox host. What the adapter does
// with each is shown in exchange/coinbase (settings_test.go).
func TestCoinbaseConfigFromTheExchangeSettings(t *testing.T) {
	a := &App{}
	for _, e := range []settings.Exchange{
		{Provider: "coinbase", Timeout: 2500, RateLimit: 7, Sandbox: true},
		{Provider: "coinbase", Timeout: 40000, RateLimit: 25},
	} {
		cfg := a.coinbaseConfig(e)
		host := coinbase.ProductionURL
		if e.Sandbox {
			host = coinbase.SandboxURL
		}
		if cfg.Timeout != time.Duration(e.Timeout)*time.Millisecond || cfg.RateLimit != e.RateLimit || cfg.Sandbox != e.Sandbox || cfg.RESTURL() != host {
			t.Errorf("%+v: timeout %v, rate %d, sandbox %v, host %s", e, cfg.Timeout, cfg.RateLimit, cfg.Sandbox, cfg.RESTURL())
		}
	}
}
