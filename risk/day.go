package risk

import "time"

// The risk day is the UTC calendar day: the daily loss limit measures from
// the portfolio's value at 00:00 UTC and the daily trade count starts over
// then, in live trading and in backtests alike (both call these).

// Day is t's risk day as a number: whole days since 1970-01-01 UTC
// (floored, so an instant before 1970 is in the day it falls in). It is
// cheap enough for a backtest's every candle.
func Day(t time.Time) int64 {
	sec := t.Unix()
	day := sec / 86400
	if sec < 0 && sec%86400 != 0 {
		day--
	}
	return day
}

// DayStart is the start (00:00 UTC) of t's risk day.
func DayStart(t time.Time) time.Time {
	return time.Unix(Day(t)*86400, 0).UTC()
}
