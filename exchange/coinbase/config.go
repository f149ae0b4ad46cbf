package coinbase

import (
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
	opt := Options{Client: client, Sandbox: c.Sandbox, Meta: c.Meta}
	if c.MarketRESTURL() != c.RESTURL() { // the sandbox host: product metadata from production
		if opt.Products, err = NewClient(ClientConfig{BaseURL: c.MarketRESTURL(), Key: key, Timeout: c.Timeout, RateLimit: c.RateLimit, Retries: 3}); err != nil {
			return nil, domain.Errorf(domain.EInvalid, "%v", err)
		}
	}
	return New(opt), nil
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

// OpenFeed returns the live market feed for x's symbols, signing with x's key.
func OpenFeed(c Config, x *Exchange, stale time.Duration, onState func(bool)) (*Feed, error) {
	client, err := NewClient(ClientConfig{BaseURL: c.MarketRESTURL(), Key: x.Key(), Timeout: c.Timeout, RateLimit: c.RateLimit, Retries: 3})
	if err != nil {
		return nil, domain.Errorf(domain.EInvalid, "%v", err)
	}
	f := NewFeed(client, x.opt.Symbols, StreamConfig{URL: c.MarketURL(), Key: x.Key(), Stale: stale, OnState: onState})
	x.WatchQuotes(f.LastTickAt)
	return f, nil
}
