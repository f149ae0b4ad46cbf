package app

import (
	"context"
	"fmt"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/settings"
)

// coinbaseConfig is the adapter's configuration from the exchange settings
// and the process's endpoint overrides.
func (a *App) coinbaseConfig(e settings.Exchange) coinbase.Config {
	return coinbase.Config{KeyName: e.APIKey, Secret: e.APISecret, Sandbox: e.Sandbox, Timeout: time.Duration(e.Timeout) * time.Millisecond,
		RateLimit: e.RateLimit, APIURL: a.cfg.CoinbaseAPIURL, WSURL: a.cfg.CoinbaseWSURL, UserWSURL: a.cfg.CoinbaseUserWSURL, Meta: a.Store}
}

// testExchange is the settings' connection test: it reads the accounts
// through the adapter with the entered credentials.
func (a *App) testExchange(ctx context.Context, e settings.Exchange) (string, error) {
	if e.Provider != "coinbase" {
		return "", domain.Errorf(domain.EInvalid, "Unknown exchange provider %q", e.Provider)
	}
	cfg := a.coinbaseConfig(e)
	x, err := coinbase.Open(cfg)
	if err != nil {
		return "", err
	}
	bals, err := x.Balances(ctx)
	if err != nil {
		return "", err
	}
	where := "production"
	if e.Sandbox {
		where = "sandbox"
	}
	return fmt.Sprintf("Coinbase (%s, %s) answered with %d accounts", where, cfg.RESTURL(), len(bals)), nil
}
