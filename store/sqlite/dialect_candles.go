package sqlite

import (
	"fmt"
	"time"
)

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

// CandleTimeDest implements sqlcore.CandleClock.
func (dialect) CandleTimeDest(t *time.Time) any { return unixSeconds{t} }

// NullCandleTimeDest implements sqlcore.CandleClock.
func (dialect) NullCandleTimeDest(t **time.Time) any { return nullUnixSeconds{t} }

// unixSeconds scans integer seconds into a UTC time.
type unixSeconds struct{ t *time.Time }

func (u unixSeconds) Scan(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("candle time: want integer seconds, got %T", v)
	}
	*u.t = time.Unix(n, 0).UTC()
	return nil
}

// nullUnixSeconds is unixSeconds where NULL leaves the time nil.
type nullUnixSeconds struct{ t **time.Time }

func (u nullUnixSeconds) Scan(v any) error {
	if v == nil {
		*u.t = nil
		return nil
	}
	var t time.Time
	if err := (unixSeconds{&t}).Scan(v); err != nil {
		return err
	}
	*u.t = &t
	return nil
}
