package backtest

import (
	"time"

	"kestrel/marketdata"
	"kestrel/strategy"
)

// Sibling is a shared source over the same store with the same risk policy
// and the strategy configurations c has pinned so far, keeping candle
// windows of its own. A walk-forward sweep runs windows with other ends
// (each fold's in-sample and out-of-sample periods); a Shared keeps one
// window per series and end, so each end gets its sibling and is still
// read once, while every run of the sweep keeps one set of rules.
func (c *Shared) Sibling() *Shared {
	c.mu.Lock()
	defer c.mu.Unlock()
	cfgs := make(map[string]strategy.Config, len(c.configs))
	for k, v := range c.configs {
		cfgs[k] = v.Clone()
	}
	s := &Shared{h: c.h, policy: c.policy, configs: cfgs, wanted: map[sharedKey][2]time.Time{}, w: map[sharedKey]*sharedWindow{},
		spans: map[string]marketdata.Span{}, hashes: map[hashKey]string{}}
	for k, v := range c.spans {
		s.spans[k] = v
	}
	return s
}
