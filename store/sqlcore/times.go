package sqlcore

import (
	"fmt"
	"time"
)

// MillisTimes stores times as integer Unix milliseconds (SQLite).
type MillisTimes struct{}

// Time implements Dialect.
func (MillisTimes) Time(t time.Time) any { return t.UnixMilli() }

// TimeDest implements Dialect.
func (MillisTimes) TimeDest(t *time.Time) any { return millis{t} }

// NullTimeDest implements Dialect.
func (MillisTimes) NullTimeDest(t **time.Time) any { return nullMillis{t} }

// millis scans integer milliseconds into a UTC time.
type millis struct{ t *time.Time }

func (m millis) Scan(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("time column: want integer milliseconds, got %T", v)
	}
	*m.t = time.UnixMilli(n).UTC()
	return nil
}

// nullMillis is millis where NULL leaves the time nil.
type nullMillis struct{ t **time.Time }

func (m nullMillis) Scan(v any) error {
	if v == nil {
		*m.t = nil
		return nil
	}
	var t time.Time
	if err := (millis{&t}).Scan(v); err != nil {
		return err
	}
	*m.t = &t
	return nil
}

// NativeTimes passes times to a driver that has a time type (PostgreSQL's
// timestamptz); the Core reads them back in UTC.
type NativeTimes struct{}

// Time implements Dialect.
func (NativeTimes) Time(t time.Time) any { return t }

// TimeDest implements Dialect.
func (NativeTimes) TimeDest(t *time.Time) any { return t }

// NullTimeDest implements Dialect.
func (NativeTimes) NullTimeDest(t **time.Time) any { return t }

// utc returns t in UTC (drivers read timestamptz in the local zone).
func utc(t time.Time) time.Time { return t.UTC() }

// utcPtr is utc for a nullable time.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
