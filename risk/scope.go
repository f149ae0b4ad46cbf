package risk

import "time"

// Scope is what one set of risk state measures: the peak value the
// drawdown limit reads, the day's start value and the day's trade count
// belong to the venue they were measured on (and, once there are several,
// to its account), never to another's. A new scope starts them afresh.
type Scope struct {
	// Venue is the exchange and market traded: "paper-replay",
	// "paper-live" or "coinbase".
	Venue string `json:"venue"`
	// An Account field joins here when a venue can hold several; Key then
	// names both.
}

// Key names the scope in storage: one text per scope, stable.
func (s Scope) Key() string { return "venue=" + s.Venue }

// Start is since when the risk state of a scope is measured: the switch to
// it, or the first start.
type Start struct {
	Scope Scope     `json:"scope"`
	Since time.Time `json:"since"`
	// Label is the venue as people read it ("Coinbase · live Coinbase prices").
	Label string `json:"label,omitempty"`
}
