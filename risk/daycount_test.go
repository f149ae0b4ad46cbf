package risk_test

import (
	"testing"
	"time"

	"kestrel/risk"
)

func TestDayCountStartsOverAtMidnightUTC(t *testing.T) {
	var c risk.DayCount
	day1 := time.Date(2026, 5, 1, 23, 59, 0, 0, time.UTC)
	if c.Known(day1) || c.N(day1) != 0 {
		t.Fatal("a new count knows no day")
	}
	c.Placed(day1) // a day not started: read whole when it is
	c.Start(day1, 2)
	c.Placed(day1)
	c.Placed(day1)
	c.Unplaced(day1) // the exchange rejected one
	if got := c.N(day1); got != 3 {
		t.Fatalf("day 1: %d, want 3", got)
	}
	// 23:59 in New York is already the next UTC day.
	ny := time.FixedZone("EDT", -4*3600)
	day2 := time.Date(2026, 5, 1, 20, 0, 1, 0, ny)
	if c.Known(day2) || c.N(day2) != 0 {
		t.Fatalf("00:00:01 UTC is a new day: known %v, n %d", c.Known(day2), c.N(day2))
	}
	c.Placed(day2) // not started: changes nothing
	c.Unplaced(day1)
	if c.N(day1) != 2 {
		t.Fatalf("day 1 after a late rejection: %d, want 2", c.N(day1))
	}
	c.Start(day2, 0)
	c.Unplaced(day2) // never below zero
	if c.N(day2) != 0 {
		t.Fatalf("day 2: %d, want 0", c.N(day2))
	}
	c.Forget()
	if c.Known(day2) {
		t.Fatal("forgotten, the count knows no day")
	}
}
