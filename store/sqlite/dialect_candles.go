package sqlite

import "time"

// Candle open times are whole Unix seconds (the shipped data's grain; see
// migration 0030): dialect implements sqlcore.CandleClock.

// CandleTime implements sqlcore.CandleClock: t in whole seconds, rounded up,
// so a candle opening before t does not open at or after it.
func (dialect) CandleTime(t time.Time) any {
	u := t.Unix()
	if t.Nanosecond() > 0 {
		u++
	}
	return u
}

// CandleTimeCol implements sqlcore.CandleClock: seconds read as the
// milliseconds of the other time columns.
func (dialect) CandleTimeCol(col string) string { return col + " * 1000" }
