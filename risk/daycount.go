package risk

import "time"

// DayCount is the daily trade count the MaxDailyTrades limit reads: the
// orders placed since 00:00 UTC that the exchange did not reject, a
// protective order as much as the order it protects. Live trading and
// backtests both keep theirs in one, so the count starts over at the same
// instant and counts the same orders. The zero value knows no day yet.
type DayCount struct {
	day   int64
	n     int
	known bool
}

// Known reports whether the count is the one for t's day; when it is not,
// the caller starts it (from its records, or 0 in a backtest's new day).
func (c *DayCount) Known(t time.Time) bool { return c.known && c.day == Day(t) }

// Start sets the count for t's day to n.
func (c *DayCount) Start(t time.Time, n int) { c.day, c.n, c.known = Day(t), n, true }

// Forget drops the count, so the next Known is false (after a restore).
func (c *DayCount) Forget() { *c = DayCount{} }

// Placed counts an order submitted at t. An order that the exchange then
// rejects, or that failed, is taken back with Unplaced. An order of a day
// the count does not know changes nothing: that day is read whole when
// it is started.
func (c *DayCount) Placed(t time.Time) {
	if c.Known(t) {
		c.n++
	}
}

// Unplaced takes back an order counted at t that the exchange refused.
func (c *DayCount) Unplaced(t time.Time) {
	if c.Known(t) && c.n > 0 {
		c.n--
	}
}

// N is the count for t's day, when Known(t); otherwise 0.
func (c *DayCount) N(t time.Time) int {
	if !c.Known(t) {
		return 0
	}
	return c.n
}
