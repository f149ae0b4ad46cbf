package analytics

import (
	"time"

	"kestrel/domain"
)

// Periods the analytics views offer, as the API spells them.
var Periods = []string{"1d", "7d", "30d", "90d", "1y", "all"}

// Since is the start of period p ending at now; the zero time for "all".
// An unknown period is an invalid error naming the choices.
func Since(p string, now time.Time) (time.Time, error) {
	days := map[string]int{"1d": 1, "7d": 7, "30d": 30, "90d": 90, "1y": 365}
	if p == "all" {
		return time.Time{}, nil
	}
	n, ok := days[p]
	if !ok {
		return time.Time{}, domain.FieldErrors(map[string]string{"period": "Period must be one of 1d, 7d, 30d, 90d, 1y or all"}, "period")
	}
	return now.Add(-time.Duration(n) * 24 * time.Hour), nil
}
