package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/httpapi"
	"kestrel/settings"
	"kestrel/venue"
)

// coinbaseConfig is the adapter's configuration from the exchange settings
// and the process's endpoint overrides.
func (a *App) coinbaseConfig(e settings.Exchange) coinbase.Config {
	return coinbase.Config{KeyName: e.APIKey, Secret: e.APISecret, Sandbox: e.Sandbox, Timeout: time.Duration(e.Timeout) * time.Millisecond,
		RateLimit: e.RateLimit, APIURL: a.cfg.CoinbaseAPIURL, WSURL: a.cfg.CoinbaseWSURL, UserWSURL: a.cfg.CoinbaseUserWSURL, Meta: a.Store,
		FillsNotified: true, // the venue's run queues each fill's notification (notify.Service.FollowFills)
		Alert: func(ctx context.Context, key, severity, title, message string) {
			if a.Alerts != nil {
				a.Alerts.Raise(ctx, key, severity, "exchange", title, message)
			}
		},
		ResolveAlert: func(ctx context.Context, key string) {
			if a.Alerts != nil {
				a.Alerts.ResolveKey(ctx, key, "system")
			}
		}}
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
		return "", httpapi.RemoteError{Err: err} // the API answers with a fixed message, not Coinbase's words
	}
	where := "production"
	if e.Sandbox {
		where = "sandbox"
	}
	noun := "accounts"
	if len(bals) == 1 {
		noun = "account"
	}
	return fmt.Sprintf("Coinbase (%s, %s) answered with %d %s", where, cfg.RESTURL(), len(bals), noun), nil
}

// coinbaseVenue is Coinbase as the exchange and its feed as the live market.
func (a *App) coinbaseVenue(e settings.Exchange) (*venue.Venue, error) {
	cfg := a.coinbaseConfig(e)
	x, err := coinbase.Open(cfg)
	if err != nil {
		return nil, err
	}
	feed, err := coinbase.OpenFeed(cfg, x, 15*time.Second, nil)
	if err != nil {
		return nil, err
	}
	feed.FollowBook() // the trading screen's order book
	v := venue.Coinbase(x, feed, cfg, func(ctx context.Context, x *coinbase.Exchange) { a.Notify.FollowFills(ctx, x) })
	slog.Info("exchange: coinbase", "api", cfg.RESTURL(), "market_ws", cfg.MarketURL(), "user_ws", cfg.UserURL(), "sandbox", e.Sandbox)
	return v, nil
}
