package risk

import (
	"testing"
	"time"
)

func TestDayIsTheUTCCalendarDay(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	for _, c := range []struct {
		at   time.Time
		want time.Time
	}{
		{time.Date(2026, 5, 7, 0, 0, 0, 0, time.UTC), time.Date(2026, 5, 7, 0, 0, 0, 0, time.UTC)},
		{time.Date(2026, 5, 7, 23, 59, 59, 999999999, time.UTC), time.Date(2026, 5, 7, 0, 0, 0, 0, time.UTC)},
		// 21:30 in New York on the 6th is 01:30 UTC on the 7th.
		{time.Date(2026, 5, 6, 21, 30, 0, 0, ny), time.Date(2026, 5, 7, 0, 0, 0, 0, time.UTC)},
		{time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC), time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC)},
	} {
		if got := DayStart(c.at); !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("DayStart(%v) = %v, want %v", c.at, got, c.want)
		}
		if Day(c.at) != Day(c.want) || Day(c.at.Add(24*time.Hour)) != Day(c.want)+1 {
			t.Errorf("Day(%v) = %d, the next day %d", c.at, Day(c.at), Day(c.at.Add(24*time.Hour)))
		}
	}
}
