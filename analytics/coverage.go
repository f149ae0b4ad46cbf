package analytics

import "time"

// Coverage is the span an analytics answer's data actually covers, so a
// screen never passes off 3 days of history as the 90 it asked for.
type Coverage struct {
	// RequestedFrom is the period's start (null for "all": everything recorded).
	RequestedFrom *time.Time `json:"requestedFrom"`
	// From is where the data starts: RequestedFrom when data reaches back that
	// far, else the first data after it; null when there is none.
	From *time.Time `json:"from"`
	To   time.Time  `json:"to"`
	// Complete says the data covers the whole period asked for.
	Complete bool `json:"complete"`
}

// CoverageOf is the coverage of a period starting at requested (zero for
// "all") and ending at to. reachesBack says data exists at or before
// requested; otherwise first is the earliest data in the period (nil when
// none), and a first within slack of requested (the recording interval)
// still counts as complete.
func CoverageOf(requested, to time.Time, reachesBack bool, first *time.Time, slack time.Duration) Coverage {
	c := Coverage{To: to}
	if !requested.IsZero() {
		r := requested
		c.RequestedFrom = &r
	}
	switch {
	case reachesBack && !requested.IsZero():
		r := requested
		c.From, c.Complete = &r, true
	case first != nil:
		f := *first
		c.From = &f
		c.Complete = requested.IsZero() || f.Sub(requested) <= slack
	}
	return c
}
