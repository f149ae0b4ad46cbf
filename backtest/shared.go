package backtest

import (
	"context"
	"sync"
	"time"

	"kestrel/domain"
	"kestrel/marketdata"
	"kestrel/strategy"
	"kestrel/trading"
)

// Shared serves many runs over one period (a sweep's trials) from candles
// read once: the widest window asked so far is kept, and a run is given the
// part of it the store itself would return for its own window (candles
// opening in [from truncated to the width, to)). The candles are shared
// read-only; nothing in a run writes to them. The risk policy is read once
// too, so every run of a sweep has the same rules even if the settings
// change while it runs.
type Shared struct {
	h      History
	policy trading.Policy
	// wanted is, by series, the widest window checks said runs will read.
	wanted map[sharedKey][2]time.Time
	// configs pins each strategy's configuration at its first read, so a
	// change of its settings while a sweep runs does not split its trials.
	configs map[string]strategy.Config
	mu      sync.Mutex
	w       map[sharedKey]*sharedWindow
	spans   map[string]marketdata.Span
	hashes  map[hashKey]string
}

// hashKey names a run's candles by where they start in a kept window.
type hashKey struct {
	first *domain.Candle
	n     int
}

type sharedKey struct {
	symbol string
	g      domain.Granularity
}

type sharedWindow struct {
	from, to time.Time
	win      marketdata.Window
}

// NewShared returns a shared source over the service's candle store.
func (s *Service) NewShared() *Shared {
	return &Shared{h: s.d.History, policy: s.d.Policy(), configs: map[string]strategy.Config{}, wanted: map[sharedKey][2]time.Time{}, w: map[sharedKey]*sharedWindow{}, spans: map[string]marketdata.Span{}, hashes: map[hashKey]string{}}
}

// Candles implements History.Candles from the kept window, reading the
// store again only for a window wider than any asked before.
func (c *Shared) Candles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (marketdata.Window, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := sharedKey{symbol, g}
	sw := c.w[k]
	if sw == nil || from.Before(sw.from) || !to.Equal(sw.to) {
		lo := from
		if sw != nil && sw.from.Before(lo) && to.Equal(sw.to) {
			lo = sw.from
		}
		if wt, ok := c.wanted[k]; ok && wt[0].Before(lo) && to.Equal(wt[1]) {
			lo = wt[0] // the widest window the checked runs need: one read for all
		}
		win, err := c.h.Candles(ctx, symbol, g, lo, to)
		if err != nil {
			return marketdata.Window{}, err
		}
		sw = &sharedWindow{from: lo, to: to, win: win}
		c.w[k] = sw
	}
	first := from.Truncate(g.Duration())
	cs := sw.win.Candles
	i := 0
	for i < len(cs) && cs[i].Time.Before(first) {
		i++
	}
	out := sw.win
	out.Candles = cs[i:len(cs):len(cs)]
	return out, nil
}

// Span implements History.Span, read once per symbol.
func (c *Shared) Span(ctx context.Context, symbol string) (marketdata.Span, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sp, ok := c.spans[symbol]; ok {
		return sp, nil
	}
	sp, err := c.h.Span(ctx, symbol)
	if err != nil {
		return sp, err
	}
	c.spans[symbol] = sp
	return sp, nil
}

// hash is hashCandles of cs, computed once per run window of the kept
// candles (a run's candles are a suffix of a kept window, less the live one).
func (c *Shared) hash(cs []domain.Candle) string {
	if len(cs) == 0 {
		return hashCandles(cs)
	}
	k := hashKey{&cs[0], len(cs)}
	c.mu.Lock()
	h, ok := c.hashes[k]
	c.mu.Unlock()
	if ok {
		return h
	}
	h = hashCandles(cs)
	c.mu.Lock()
	c.hashes[k] = h
	c.mu.Unlock()
	return h
}

// config is the strategy's configuration as first read by this source.
func (c *Shared) config(get func(string) (strategy.Config, error), name string) (strategy.Config, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cfg, ok := c.configs[name]; ok {
		return cfg.Clone(), nil
	}
	cfg, err := get(name)
	if err != nil {
		return cfg, err
	}
	c.configs[name] = cfg.Clone()
	return cfg, nil
}

// Config is a strategy instance's configuration as a run of it would start
// from (before overrides): as sh pinned it, or (sh nil) as it is now.
func (s *Service) Config(sh *Shared, name string) (strategy.Config, error) {
	if sh != nil {
		return sh.config(s.d.Strategies.Get, name)
	}
	return s.d.Strategies.Get(name)
}

// widen notes that a run will read symbol's g candles in [from, to): the
// first read then covers every noted run of the same end.
func (c *Shared) widen(symbol string, g domain.Granularity, from, to time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := sharedKey{symbol, g}
	if wt, ok := c.wanted[k]; ok && wt[1].Equal(to) && !from.Before(wt[0]) {
		return
	}
	c.wanted[k] = [2]time.Time{from, to}
}
