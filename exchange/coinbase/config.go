package coinbase

import (
	"context"
	"time"

	"kestrel/domain"
)

// Config is how Kestrel connects to Coinbase: the settings' credentials and
// limits, and the process's endpoint overrides (tests and staging point
// them at a fake; empty means Coinbase's own).
type Config struct {
	KeyName, Secret string // Settings' apiKey and apiSecret
	Sandbox         bool   // accounts and orders on Coinbase's sandbox host
	Timeout         time.Duration
	RateLimit       int // requests per second
	APIURL          string
	WSURL           string
	UserWSURL       string
	Meta            domain.KVStore
	// FillsNotified: see Options.FillsNotified.
	FillsNotified bool
	// Alert and ResolveAlert: see Options.
	Alert        func(ctx context.Context, key, severity, title, message string)
	ResolveAlert func(ctx context.Context, key string)
}

// RESTURL is the REST host: the override, else the sandbox or production host.
func (c Config) RESTURL() string {
	switch {
	case c.APIURL != "":
		return c.APIURL
	case c.Sandbox:
		return SandboxURL
	}
	return ProductionURL
}

// MarketURL is the market-data WebSocket (public; the same in sandbox mode).
func (c Config) MarketURL() string {
	if c.WSURL != "" {
		return c.WSURL
	}
	return MarketWSURL
}

// UserURL is the user-channel WebSocket.
func (c Config) UserURL() string {
	if c.UserWSURL != "" {
		return c.UserWSURL
	}
	return UserWSURL
}

// Open parses the key and returns the adapter; nothing is called yet.
func Open(c Config) (*Exchange, error) {
	key, err := ParseKey(c.KeyName, c.Secret)
	if err != nil {
		return nil, domain.Errorf(domain.EInvalid, "Coinbase API key: %v", err)
	}
	client, err := NewClient(ClientConfig{BaseURL: c.RESTURL(), Key: key, Timeout: c.Timeout, RateLimit: c.RateLimit, Retries: 3})
	if err != nil {
		return nil, domain.Errorf(domain.EInvalid, "%v", err)
	}
	opt := Options{Client: client, Sandbox: c.Sandbox, Meta: c.Meta, FillsNotified: c.FillsNotified, Alert: c.Alert, ResolveAlert: c.ResolveAlert}
	if c.MarketRESTURL() != c.RESTURL() { // the sandbox host: product metadata from production, with no key
		if opt.Products, err = c.marketClient(); err != nil {
			return nil, err
		}
	}
	return New(opt), nil
}

// marketClient reads the public market endpoints; it holds no key, so none
// of its requests can carry one.
func (c Config) marketClient() (*Client, error) {
	client, err := NewClient(ClientConfig{BaseURL: c.MarketRESTURL(), Timeout: c.Timeout, RateLimit: c.RateLimit, Retries: 3})
	if err != nil {
		return nil, domain.Errorf(domain.EInvalid, "%v", err)
	}
	return client, nil
}

// Key is the parsed API key (WebSocket subscriptions sign with it).
func (x *Exchange) Key() Key { return x.c.cfg.Key }

// MarketRESTURL serves candles: the override, else the production host
// even in sandbox mode (the sandbox serves accounts and orders only).
func (c Config) MarketRESTURL() string {
	if c.APIURL != "" {
		return c.APIURL
	}
	return ProductionURL
}

// OpenMarket returns Coinbase's live market for symbols (domain.Symbols
// when empty) from the public endpoints and channels: no key is needed or
// sent, so it works with no credentials stored.
func OpenMarket(c Config, symbols []string, stale time.Duration, onState func(bool)) (*Feed, error) {
	return openMarket(c, symbols, Key{}, stale, onState)
}

func openMarket(c Config, symbols []string, key Key, stale time.Duration, onState func(bool)) (*Feed, error) {
	client, err := c.marketClient()
	if err != nil {
		return nil, err
	}
	return NewFeed(client, symbols, StreamConfig{URL: c.MarketURL(), Key: key, Stale: stale, OnState: onState}), nil
}

// OpenFeed returns the live market feed for x's symbols and tells x where
// to read the time of the last price. Its REST calls are the public ones
// (no key); its channel subscriptions carry x's JWT, as Coinbase advises
// for the most reliable connection when a key is at hand.
func OpenFeed(c Config, x *Exchange, stale time.Duration, onState func(bool)) (*Feed, error) {
	f, err := openMarket(c, x.opt.Symbols, x.Key(), stale, onState)
	if err != nil {
		return nil, err
	}
	x.WatchQuotes(f.LastTickAt)
	return f, nil
}
