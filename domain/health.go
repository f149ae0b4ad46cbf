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

// WriteFault is a store's last write refused for a reason of its own (a
// full or read-only disk, an I/O error).
type WriteFault struct {
	Message string    // what the refused caller was told
	At      time.Time // when
}

// WriteHealth is implemented by a store that can refuse writes while it
// still answers reads and pings (SQLite on a full or read-only disk), so
// only its writes show the fault.
type WriteHealth interface {
	// WriteFault reports the last write fault while writes are failing (none
	// has succeeded since, or it is recent); ok is false otherwise.
	WriteFault() (f WriteFault, ok bool)
}
