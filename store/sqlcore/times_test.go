package sqlcore

import (
	"testing"
	"time"
)

// SQLite's integer milliseconds read back as the UTC instant they were
// written from; NULL leaves a nullable time nil.
func TestMillisTimesRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 30, 0, 5e6, time.FixedZone("x", 3600))
	var d MillisTimes
	var got time.Time
	if err := d.TimeDest(&got).(interface{ Scan(any) error }).Scan(d.Time(at)); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(at) || got.Location() != time.UTC {
		t.Fatalf("read %v, want %v in UTC", got, at)
	}
	p := &got
	if err := d.NullTimeDest(&p).(interface{ Scan(any) error }).Scan(nil); err != nil || p != nil {
		t.Fatalf("NULL read as %v, %v", p, err)
	}
	if err := d.TimeDest(&got).(interface{ Scan(any) error }).Scan("2026"); err == nil {
		t.Fatal("a text value read as a time")
	}
}

// Placeholders number the arguments in the order they are added.
func TestArgsNumberPlaceholders(t *testing.T) {
	a := args{"viewer"}
	if p := a.add("x"); p != "$2" || len(a) != 2 || a[1] != "x" {
		t.Fatalf("add = %s, args %v", p, a)
	}
}
