package domain

import "time"

// ExchangeHealth is an exchange adapter's own account of itself, for the
// system status: whether its writes succeed and whether it still sees prices.
type ExchangeHealth struct {
	LastCommit  time.Time // last successful write of the exchange's state (zero: none yet)
	LastError   string    // the last failed write, only when it came after LastCommit
	LastErrorAt time.Time
	LastQuote   time.Time // last time the exchange saw a price (zero: none yet)
}
