package candles

import (
	"fmt"
	"time"
)

// Unix times below this are seconds, at or above it milliseconds: 10^11
// seconds is the year 5138, 10^11 milliseconds is March 1973.
const millisFrom = 100_000_000_000

// Times must fit Unix nanoseconds in an int64 (years 1678 to 2262).
const (
	maxUnixSeconds = (1<<63 - 1) / int64(time.Second)
	maxUnixMillis  = (1<<63 - 1) / int64(time.Millisecond)
)

var isoLayouts = []string{
	time.RFC3339, // also takes a fraction of a second, as do the others
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02",
}

// parseTime reads a Unix time in seconds or milliseconds, or an ISO 8601
// time or date, as Unix nanoseconds.
func parseTime(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, fmt.Errorf("empty time")
	}
	if n, ok := parseDigits(b); ok {
		return unixNanos(n, b)
	}
	s := string(b)
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if y := t.UTC().Year(); y < 1678 || y > 2261 {
				return 0, fmt.Errorf("time %q is out of range (years 1678 to 2261)", b)
			}
			return t.UnixNano(), nil
		}
	}
	return 0, fmt.Errorf("time %q is neither Unix seconds or milliseconds nor ISO 8601 (2024-05-01T13:00:00Z or 2024-05-01)", b)
}

func unixNanos(n int64, b []byte) (int64, error) {
	switch {
	case n < millisFrom && n <= maxUnixSeconds:
		return n * int64(time.Second), nil
	case n >= millisFrom && n <= maxUnixMillis:
		return n * int64(time.Millisecond), nil
	}
	return 0, fmt.Errorf("time %q is out of range for Unix seconds (below 10^11) or milliseconds (up to the year 2262)", b)
}

// parseDigits reads a non-negative integer of at most 18 digits.
func parseDigits(b []byte) (int64, bool) {
	if len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, ch := range b {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int64(ch-'0')
	}
	return n, true
}

func formatNanos(ns int64) string {
	return time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
}
