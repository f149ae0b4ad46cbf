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
	if ns, ok := fastISO(b); ok {
		return ns, nil
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

// fastISO reads the two commonest forms, 2024-05-01T13:00:00Z and
// 2024-05-01, without time.Parse (a third of the time of a whole row);
// anything else, or anything out of range, is left to time.Parse.
func fastISO(b []byte) (int64, bool) {
	long := len(b) == 20 && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[19] == 'Z'
	if !long && len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	y, ok1 := parseDigits(b[0:4])
	m, ok2 := parseDigits(b[5:7])
	d, ok3 := parseDigits(b[8:10])
	var hh, mm, ss int64
	ok4, ok5, ok6 := true, true, true
	if long {
		hh, ok4 = parseDigits(b[11:13])
		mm, ok5 = parseDigits(b[14:16])
		ss, ok6 = parseDigits(b[17:19])
	}
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || y < 1678 || y > 2261 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) ||
		hh > 23 || mm > 59 || ss > 59 {
		return 0, false
	}
	return (daysFromCivil(y, m, d)*86400 + hh*3600 + mm*60 + ss) * int64(time.Second), true
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (Howard Hinnant's algorithm), for y >= 1.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
